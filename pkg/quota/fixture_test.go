package quota

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

const tpu = corev1.ResourceName("google.com/tpu")

// queueBuilder builds ClusterQueues for tests: amounts are whole units.
type queueBuilder struct{ cq *ClusterQueue }

func queue(name string) *queueBuilder {
	return &queueBuilder{cq: &ClusterQueue{Name: name, Quotas: map[FlavorResource]Limit{}, FairWeight: 1000}}
}

func (b *queueBuilder) cohort(c string) *queueBuilder { b.cq.Cohort = c; return b }

func (b *queueBuilder) strategy(s Strategy) *queueBuilder { b.cq.Strategy = s; return b }

func (b *queueBuilder) weight(milli int64) *queueBuilder { b.cq.FairWeight = milli; return b }

// group adds a resource group covering rs with the given flavors.
func (b *queueBuilder) group(rs []corev1.ResourceName, flavors ...string) *queueBuilder {
	b.cq.Groups = append(b.cq.Groups, Group{Covered: rs, Flavors: flavors})
	return b
}

// quota sets the limit of r on flavor f; borrowing and lending < 0 mean unset.
func (b *queueBuilder) quota(f string, r corev1.ResourceName, nominal, borrowing, lending int64) *queueBuilder {
	l := Limit{Nominal: nominal * 1000}
	if borrowing >= 0 {
		v := borrowing * 1000
		l.Borrowing = &v
	}
	if lending >= 0 {
		v := lending * 1000
		l.Lending = &v
	}
	b.cq.Quotas[FlavorResource{Flavor: f, Resource: r}] = l
	return b
}

func (b *queueBuilder) build() *ClusterQueue { return b.cq }

// tpuQueue is a queue with one group of google.com/tpu over flavors, each
// with nominal quota n.
func tpuQueue(name, cohort string, n int64, flavors ...string) *ClusterQueue {
	b := queue(name).cohort(cohort).group([]corev1.ResourceName{tpu}, flavors...)
	for _, f := range flavors {
		b.quota(f, tpu, n, -1, -1)
	}
	return b.build()
}

func book(flavors []string, queues ...*ClusterQueue) *Book {
	b := NewBook()
	for _, f := range flavors {
		b.SetFlavor(&Flavor{Name: f, NodeLabels: map[string]string{"pool-type": f}})
	}
	for _, q := range queues {
		b.SetClusterQueue(q)
	}
	return b
}

// tpus is a need of pods pods of chips TPU chips each.
func tpus(slice int, pods, chips int64) Need {
	return Need{Slice: slice, Count: pods, Request: workload.Resources{tpu: chips * 1000, corev1.ResourcePods: 1000}}
}

func key(name string) workload.Key {
	return workload.Key{Source: workload.SourceJobSet, Namespace: "default", Name: name}
}

func charge(cq, flavor string, chips int64) *Charge {
	return &Charge{ClusterQueue: cq, Usage: Usage{{Flavor: flavor, Resource: tpu}: chips * 1000}}
}
