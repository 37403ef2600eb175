package queuemodel

// A fuzz target for the queue objects users write, as they become the quota
// model (ClusterQueue, Flavor, LocalQueue): any ClusterQueue
// spec, ResourceFlavor and LocalQueue. It checks that nothing panics,
// that a ClusterQueue the model cannot use comes back as an error naming
// the field, and that an accepted one holds exactly what its spec says:
// quotas, weight and run duration in range and not wrapped, a strategy
// and preemption policies the quota and preemption code know.
//
// The seed corpus is the queues of manifests/examples/queues and the
// inputs of TestClusterQueueModel; `make test-fuzz` runs the target.

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
)

// fuzzQueueDocs returns the documents of the queue manifests under
// manifests/examples/queues.
func fuzzQueueDocs(f *testing.F) [][]byte {
	f.Helper()
	paths, err := filepath.Glob("../../manifests/examples/queues/*.yaml")
	if err != nil || len(paths) == 0 {
		f.Fatalf("no queue manifests (err %v)", err)
	}
	var out [][]byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, doc := range strings.Split(string(data), "\n---\n") {
			out = append(out, []byte(doc))
		}
	}
	return out
}

// fuzzQueueMaxMilli is the largest amount the quota model holds.
var fuzzQueueMaxMilli = resource.NewMilliQuantity(math.MaxInt64, resource.DecimalSI)

// fuzzQueueMilli checks that got is q in milli-units, rounded up.
func fuzzQueueMilli(t *testing.T, what string, q resource.Quantity, got int64) {
	t.Helper()
	if got < 0 || resource.NewMilliQuantity(got, resource.DecimalSI).Cmp(q) < 0 || (got > 0 && resource.NewMilliQuantity(got-1, resource.DecimalSI).Cmp(q) >= 0) {
		t.Fatalf("%s: %d milli-units for %s", what, got, q.String())
	}
}

// fuzzQueueBadQuantity reports whether q cannot be a quota or weight: it is
// negative or more than the model holds.
func fuzzQueueBadQuantity(q resource.Quantity) bool {
	return q.Sign() < 0 || q.Cmp(*fuzzQueueMaxMilli) > 0
}

// fuzzQueueInvalid lists the fields of cq's spec the model cannot use, as
// its errors name them.
func fuzzQueueInvalid(cq *multislicev1alpha1.ClusterQueue) []string {
	var out []string
	spec := &cq.Spec
	if sel := spec.NamespaceSelector; sel != nil {
		if _, err := metav1.LabelSelectorAsSelector(sel); err != nil {
			out = append(out, "spec.namespaceSelector")
		}
	}
	switch spec.QueueingStrategy {
	case "", multislicev1alpha1.StrictFIFO, multislicev1alpha1.BestEffortFIFO:
	default:
		out = append(out, "spec.queueingStrategy")
	}
	for i, rg := range spec.ResourceGroups {
		for j, fq := range rg.Flavors {
			for k, rq := range fq.Resources {
				field := fmt.Sprintf("spec.resourceGroups[%d].flavors[%d].resources[%d].", i, j, k)
				if fuzzQueueBadQuantity(rq.NominalQuota) {
					out = append(out, field+"nominalQuota")
				}
				if rq.BorrowingLimit != nil && fuzzQueueBadQuantity(*rq.BorrowingLimit) {
					out = append(out, field+"borrowingLimit")
				}
				if rq.LendingLimit != nil && fuzzQueueBadQuantity(*rq.LendingLimit) {
					out = append(out, field+"lendingLimit")
				}
			}
		}
	}
	if fs := spec.FairSharing; fs != nil && fs.Weight != nil && fuzzQueueBadQuantity(*fs.Weight) {
		out = append(out, "spec.fairSharing.weight")
	}
	if d := spec.MaxRunDurationSeconds; d != nil && (*d < 1 || *d > int64(math.MaxInt64/time.Second)) {
		out = append(out, "spec.maxRunDurationSeconds")
	}
	if p := spec.Preemption; p != nil {
		policies := map[string]string{"withinClusterQueue": string(p.WithinClusterQueue), "reclaimWithinCohort": string(p.ReclaimWithinCohort), "forceFit": string(p.ForceFit)}
		allowed := map[string][]string{
			"forceFit":                  {"", "Never", "LowerPriorityWithinCohort", "LowerPriority"},
			"withinClusterQueue":        {"", "Never", "LowerPriority", "LowerOrNewerEqualPriority"},
			"reclaimWithinCohort":       {"", "Never", "LowerPriority", "Any"},
			"borrowWithinCohort.policy": {"", "Never", "LowerPriority"},
		}
		if b := p.BorrowWithinCohort; b != nil {
			policies["borrowWithinCohort.policy"] = string(b.Policy)
		}
		for field, v := range policies {
			if !fuzzQueueContains(allowed[field], v) {
				out = append(out, "spec.preemption."+field)
			}
		}
	}
	return out
}

func fuzzQueueContains(s []string, v string) bool {
	for _, e := range s {
		if e == v {
			return true
		}
	}
	return false
}

// fuzzQueueCheck converts cq and checks the result against its spec.
func fuzzQueueCheck(t *testing.T, cq *multislicev1alpha1.ClusterQueue) {
	t.Helper()
	invalid := fuzzQueueInvalid(cq)
	m, err := ClusterQueue(cq)
	if len(invalid) > 0 {
		if err == nil {
			t.Fatalf("accepted, but %q are invalid", invalid)
		}
		named := false
		for _, field := range invalid {
			named = named || strings.HasPrefix(err.Error(), "ClusterQueue "+cq.Name+": "+field)
		}
		if !named || m != nil {
			t.Fatalf("error %q names none of %q", err, invalid)
		}
		return
	}
	if err != nil {
		t.Fatalf("rejected a valid ClusterQueue: %v", err)
	}
	spec := &cq.Spec
	if m.Name != cq.Name || m.Cohort != spec.Cohort || len(m.Groups) != len(spec.ResourceGroups) || len(m.AdmissionChecks) != len(spec.AdmissionChecks) {
		t.Fatalf("model %+v of %+v", m, spec)
	}
	if want := quota.Strategy(spec.QueueingStrategy); m.Strategy != want && !(want == "" && m.Strategy == quota.BestEffortFIFO) {
		t.Fatalf("strategy %q of %q", m.Strategy, spec.QueueingStrategy)
	}
	if (m.Namespaces == nil) != (spec.NamespaceSelector == nil) {
		t.Fatalf("namespaces %v of selector %v", m.Namespaces, spec.NamespaceSelector)
	}
	for _, rg := range spec.ResourceGroups {
		for _, fq := range rg.Flavors {
			for _, rq := range fq.Resources {
				l, ok := m.Quotas[quota.FlavorResource{Flavor: fq.Name, Resource: rq.Name}]
				// A flavor or resource listed twice (which the CRD
				// forbids) keeps its last quota.
				last := fuzzQueueLast(spec, fq.Name, rq.Name)
				if !ok || (last.BorrowingLimit == nil) != (l.Borrowing == nil) || (last.LendingLimit == nil) != (l.Lending == nil) {
					t.Fatalf("quota %+v of %+v", l, last)
				}
				fuzzQueueMilli(t, "nominalQuota", last.NominalQuota, l.Nominal)
				if l.Borrowing != nil {
					fuzzQueueMilli(t, "borrowingLimit", *last.BorrowingLimit, *l.Borrowing)
				}
				if l.Lending != nil {
					fuzzQueueMilli(t, "lendingLimit", *last.LendingLimit, *l.Lending)
				}
			}
		}
	}
	if fs := spec.FairSharing; fs != nil && fs.Weight != nil {
		fuzzQueueMilli(t, "weight", *fs.Weight, m.FairWeight)
	} else if m.FairWeight != 1000 {
		t.Fatalf("default weight %d", m.FairWeight)
	}
	if d := spec.MaxRunDurationSeconds; (d == nil && m.MaxRunDuration != 0) || (d != nil && m.MaxRunDuration != time.Duration(*d)*time.Second) {
		t.Fatalf("maxRunDuration %v of %v", m.MaxRunDuration, d)
	}
}

// fuzzQueueLast is the last quota a spec lists for a flavor and resource.
func fuzzQueueLast(spec *multislicev1alpha1.ClusterQueueSpec, flavor string, res corev1.ResourceName) *multislicev1alpha1.ResourceQuota {
	var last *multislicev1alpha1.ResourceQuota
	for i := range spec.ResourceGroups {
		for j := range spec.ResourceGroups[i].Flavors {
			fq := &spec.ResourceGroups[i].Flavors[j]
			for k := range fq.Resources {
				if fq.Name == flavor && fq.Resources[k].Name == res {
					last = &fq.Resources[k]
				}
			}
		}
	}
	return last
}

// Bits of the flags argument of FuzzQueueModel: which fields of the
// ClusterQueue to set from the other arguments.
const (
	fuzzQueueStrategy = 1 << iota
	fuzzQueueSelector
	fuzzQueueNominal
	fuzzQueueBorrowing
	fuzzQueueLending
	fuzzQueueWeight
	fuzzQueueMaxRun
	fuzzQueuePreemption
)

// fuzzQueueBase is the ClusterQueue FuzzQueueModel sets fields of when
// its document is no ClusterQueue: TestClusterQueueModel's.
func fuzzQueueBase() *multislicev1alpha1.ClusterQueue {
	q := resource.MustParse
	cq := &multislicev1alpha1.ClusterQueue{Spec: multislicev1alpha1.ClusterQueueSpec{
		Cohort:            "research",
		NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "ml"}},
		ResourceGroups: []multislicev1alpha1.ResourceGroup{{Flavors: []multislicev1alpha1.FlavorQuotas{
			{Name: "v5e", Resources: []multislicev1alpha1.ResourceQuota{{Name: tpu, NominalQuota: q("24"), BorrowingLimit: ptr.To(q("8")), LendingLimit: ptr.To(q("16"))}}},
			{Name: "v6e", Resources: []multislicev1alpha1.ResourceQuota{{Name: tpu, NominalQuota: q("32")}}},
		}}},
		FairSharing:           &multislicev1alpha1.FairSharing{Weight: ptr.To(q("2"))},
		AdmissionChecks:       []string{"dws-prov"},
		MaxRunDurationSeconds: ptr.To[int64](600),
		Preemption: &multislicev1alpha1.ClusterQueuePreemption{
			WithinClusterQueue: multislicev1alpha1.PreemptionPolicyLowerPriority, ReclaimWithinCohort: multislicev1alpha1.PreemptionPolicyAny,
			ReclaimOutOfCohort: &multislicev1alpha1.ReclaimOutOfCohort{Enable: true},
		},
	}}
	cq.Name = "cq"
	return cq
}

// FuzzQueueModel converts a queue document, seeded with the queues of
// manifests/examples: a ResourceFlavor or LocalQueue is copied as it is; a
// ClusterQueue (fuzzQueueBase when the document is none) has the fields
// flags selects set from the other arguments, so that the fuzzer explores
// values on a realistic queue: quantities negative, fractional and huge,
// selectors with any operator, any strategy and preemption policy
// strings, any run duration. It is then checked by fuzzQueueCheck.
func FuzzQueueModel(f *testing.F) {
	for _, doc := range fuzzQueueDocs(f) {
		f.Add(doc, uint8(0), "", "", "", "", "", "", int64(0), "", "", "")
	}
	// One thing wrong in each, on fuzzQueueBase.
	f.Add([]byte{}, uint8(fuzzQueueStrategy), "Fastest", "", "", "", "", "", int64(0), "", "", "")
	f.Add([]byte{}, uint8(fuzzQueueSelector), "", "Sometimes", "", "", "", "", int64(0), "", "", "")
	f.Add([]byte{}, uint8(fuzzQueueNominal|fuzzQueueBorrowing), "", "", "-1", "1", "", "", int64(0), "", "", "")
	f.Add([]byte{}, uint8(fuzzQueueNominal|fuzzQueueLending), "", "", "10E", "", "10E", "", int64(0), "", "", "")
	f.Add([]byte{}, uint8(fuzzQueueWeight), "", "", "", "", "", "1e30", int64(0), "", "", "")
	f.Add([]byte{}, uint8(fuzzQueueMaxRun), "", "", "", "", "", "", int64(math.MaxInt64), "", "", "")
	f.Add([]byte{}, uint8(fuzzQueueMaxRun), "", "", "", "", "", "", int64(-1), "", "", "")
	f.Add([]byte{}, uint8(fuzzQueuePreemption), "", "", "", "", "", "", int64(0), "Always", "Any", "Any")
	f.Add([]byte{}, uint8(fuzzQueueNominal|fuzzQueueBorrowing|fuzzQueueLending|fuzzQueueWeight), "", "", "9223372036854775807m", "0.5m", "1n", "0", int64(0), "", "", "")
	f.Fuzz(func(t *testing.T, doc []byte, flags uint8, strategy, selOp, nominal, borrowing, lending, weight string, maxRun int64, within, reclaim, borrowPolicy string) {
		var meta metav1.TypeMeta
		_ = yaml.Unmarshal(doc, &meta)
		switch meta.Kind {
		case "ResourceFlavor":
			var rf multislicev1alpha1.ResourceFlavor
			if yaml.Unmarshal(doc, &rf) != nil {
				return
			}
			// Its Topology as a user may write it: its levels are the
			// flavor's only when it is the Topology the flavor names.
			topo := &multislicev1alpha1.Topology{ObjectMeta: metav1.ObjectMeta{Name: strategy}}
			for _, l := range strings.Split(selOp, ",") {
				topo.Spec.Levels = append(topo.Spec.Levels, multislicev1alpha1.TopologyLevel{NodeLabel: l})
			}
			fl := Flavor(&rf, topo)
			if fl.Name != rf.Name || len(fl.NodeLabels) != len(rf.Spec.NodeLabels) || len(fl.NodeTaints) != len(rf.Spec.NodeTaints) ||
				len(fl.Tolerations) != len(rf.Spec.Tolerations) || !fl.Matches(rf.Spec.NodeLabels) || fl.Topology != rf.Spec.TopologyName {
				t.Fatalf("flavor %+v of %+v", fl, rf)
			}
			if named := rf.Spec.TopologyName != "" && rf.Spec.TopologyName == topo.Name; named != (fl.TopologyLevels != nil) ||
				(named && len(fl.TopologyLevels) != len(topo.Spec.Levels)) {
				t.Fatalf("flavor %+v of %+v has levels %v, Topology %+v", fl, rf, fl.TopologyLevels, topo)
			}
			return
		case "LocalQueue":
			var lq multislicev1alpha1.LocalQueue
			if yaml.Unmarshal(doc, &lq) != nil {
				return
			}
			if m := LocalQueue(&lq); *m != (quota.LocalQueue{Namespace: lq.Namespace, Name: lq.Name, ClusterQueue: lq.Spec.ClusterQueue}) {
				t.Fatalf("local queue %+v of %+v", m, lq)
			}
			return
		}
		cq := fuzzQueueBase()
		if meta.Kind == "ClusterQueue" {
			cq = &multislicev1alpha1.ClusterQueue{}
			if yaml.Unmarshal(doc, cq) != nil {
				return
			}
		}
		spec := &cq.Spec
		quantity := func(s string) (*resource.Quantity, bool) {
			q, err := resource.ParseQuantity(s)
			return &q, err == nil // the API decoder rejects what does not parse
		}
		if flags&fuzzQueueStrategy != 0 {
			spec.QueueingStrategy = multislicev1alpha1.QueueingStrategy(strategy)
		}
		if flags&fuzzQueueSelector != 0 {
			if spec.NamespaceSelector == nil {
				spec.NamespaceSelector = &metav1.LabelSelector{}
			}
			spec.NamespaceSelector.MatchExpressions = append(spec.NamespaceSelector.MatchExpressions,
				metav1.LabelSelectorRequirement{Key: "team", Operator: metav1.LabelSelectorOperator(selOp), Values: []string{"ml"}})
		}
		if len(spec.ResourceGroups) > 0 && len(spec.ResourceGroups[0].Flavors) > 0 && len(spec.ResourceGroups[0].Flavors[0].Resources) > 0 {
			rq := &spec.ResourceGroups[0].Flavors[0].Resources[0]
			if q, ok := quantity(nominal); ok && flags&fuzzQueueNominal != 0 {
				rq.NominalQuota = *q
			}
			if q, ok := quantity(borrowing); ok && flags&fuzzQueueBorrowing != 0 {
				rq.BorrowingLimit = q
			}
			if q, ok := quantity(lending); ok && flags&fuzzQueueLending != 0 {
				rq.LendingLimit = q
			}
		}
		if q, ok := quantity(weight); ok && flags&fuzzQueueWeight != 0 {
			spec.FairSharing = &multislicev1alpha1.FairSharing{Weight: q}
		}
		if flags&fuzzQueueMaxRun != 0 {
			spec.MaxRunDurationSeconds = &maxRun
		}
		if flags&fuzzQueuePreemption != 0 {
			spec.Preemption = &multislicev1alpha1.ClusterQueuePreemption{
				WithinClusterQueue:  multislicev1alpha1.PreemptionPolicy(within),
				ReclaimWithinCohort: multislicev1alpha1.PreemptionPolicy(reclaim),
				// The same string for forceFit: values valid for one field
				// and not the other ("Any") must name the right field.
				ForceFit:           multislicev1alpha1.PreemptionPolicy(reclaim),
				BorrowWithinCohort: &multislicev1alpha1.BorrowWithinCohort{Policy: multislicev1alpha1.BorrowWithinCohortPolicy(borrowPolicy)},
			}
		}
		fuzzQueueCheck(t, cq)
	})
}
