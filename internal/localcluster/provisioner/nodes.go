package provisioner

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// maxReadablePart bounds the part of a node name taken from the request's
// namespace and name, so that names stay short and the default pool name
// stays a valid label value (63 characters).
const maxReadablePart = 40

// BaseName is the stem of a request's node names, and the gke-nodepool
// label of its pod sets whose node selector names no pool:
// <namespace>-<name>, lower-cased, characters a node name cannot have
// replaced by '-', cut to 40 characters, then '-' and five hex digits of
// the UID's hash, so that requests whose names cut alike, or a request
// re-created under the same name, get other nodes.
func BaseName(ref Ref, uid types.UID) string {
	readable := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return r - 'A' + 'a'
		default:
			return '-'
		}
	}, ref.Namespace+"-"+ref.Name)
	if len(readable) > maxReadablePart {
		readable = readable[:maxReadablePart]
	}
	readable = strings.Trim(readable, "-")
	sum := sha256.Sum256([]byte(uid))
	return readable + "-" + hex.EncodeToString(sum[:])[:5]
}

// Nodes returns the nodes of a request's demand in zone: per pod set, its
// nodes with the pool label and node selector labels it asks for, GKE's
// labels for the configured machine, the machine's capacity as capacity
// and allocatable, its taints (GKE's GPU taint among them), and the KWOK
// annotation so that KWOK keeps them Ready and runs their pods. They carry
// nodepools.ProvisionedLabel (the request's UID) and RequestAnnotation, but
// not nodepools.ManagedLabel: the node pool file leaves them alone.
func Nodes(ref Ref, uid types.UID, d Demand, zone nodepools.Zone, cfg *Config) []*corev1.Node {
	base := BaseName(ref, uid)
	fixed := fixedLabels(cfg)
	var nodes []*corev1.Node
	for _, ps := range d.PodSets {
		for range ps.Nodes {
			name := fmt.Sprintf("%s-%d", base, len(nodes))
			labels := maps.Clone(ps.Labels)
			if labels == nil {
				labels = map[string]string{}
			}
			maps.Copy(labels, fixed)
			labels[wellknown.NodePoolLabel] = ps.Pool
			labels[wellknown.ZoneLabel] = zone.Name
			if zone.Region != "" {
				labels[corev1.LabelTopologyRegion] = zone.Region
			}
			labels[corev1.LabelHostname] = name
			labels[nodepools.ProvisionedLabel] = string(uid)
			nodes = append(nodes, &corev1.Node{
				ObjectMeta: metav1.ObjectMeta{
					Name:   name,
					Labels: labels,
					Annotations: map[string]string{
						nodepools.KWOKNodeAnnotation: "fake",
						RequestAnnotation:            ref.String(),
					},
				},
				Spec: corev1.NodeSpec{Taints: slices.Clone(cfg.Machine.Taints)},
				Status: corev1.NodeStatus{
					Capacity:    cfg.Machine.Capacity.DeepCopy(),
					Allocatable: cfg.Machine.Capacity.DeepCopy(),
				},
			})
		}
	}
	return nodes
}

// poolNames lists the distinct gke-nodepool labels of a demand, for logs.
func poolNames(d Demand) []string {
	var out []string
	for _, ps := range d.PodSets {
		if !slices.Contains(out, ps.Pool) {
			out = append(out, ps.Pool)
		}
	}
	return out
}
