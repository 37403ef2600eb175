package quota

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// Exclusions lists, per slice, flavors a decision must not use for it
// (the placement found no room in their domains).
type Exclusions map[int]map[string]bool

// Exclude marks flavor f unusable for slice i.
func (e Exclusions) Exclude(i int, f string) {
	if e[i] == nil {
		e[i] = map[string]bool{}
	}
	e[i][f] = true
}

// Assign picks a flavor for every resource group every slice needs, trying
// each group's flavors in the ClusterQueue's order: the first flavor the
// slice's pods are compatible with and whose quota still has room (counting
// what earlier slices of the same workload took) wins. It returns the
// charge, or the problem with the first slice that fits nowhere.
//
// The `pods` count that every pod requests is charged only when a group
// covers it; any other requested resource no group covers makes the
// workload inadmissible.
func (v *View) Assign(cq *ClusterQueue, needs []Need, excluded Exclusions) (*Charge, *Problem) {
	c := &Charge{ClusterQueue: cq.Name, Usage: Usage{}, Flavors: map[int]map[corev1.ResourceName]string{}, Slices: map[int]Usage{}}
	whole := map[corev1.ResourceName]int64{}
	for _, n := range needs {
		for r := range n.Request {
			whole[r] += n.total(r)
		}
	}
	for _, n := range needs {
		groups, p := v.groupsOf(cq, n)
		if p != nil {
			return nil, p
		}
		chosen := map[corev1.ResourceName]string{}
		for _, gi := range groups {
			g := cq.Groups[gi]
			f, p := v.pick(cq, g, n, whole, c.Usage, excluded[n.Slice])
			if p != nil {
				return nil, p
			}
			for _, r := range g.Covered {
				if t := n.total(r); t > 0 {
					c.add(n.Slice, FlavorResource{Flavor: f, Resource: r}, t)
					chosen[r] = f
				}
			}
		}
		c.Flavors[n.Slice] = chosen
	}
	return c, nil
}

// Force is the charge of a workload found already running: each group's
// first flavor its slices are compatible with (the flavor of their nodes),
// whether or not the quota has room. Resources no group covers are left
// uncharged.
func (v *View) Force(cq *ClusterQueue, needs []Need) *Charge {
	c := &Charge{ClusterQueue: cq.Name, Usage: Usage{}, Flavors: map[int]map[corev1.ResourceName]string{}, Slices: map[int]Usage{}}
	for _, n := range needs {
		chosen := map[corev1.ResourceName]string{}
		for _, g := range cq.Groups {
			f := ""
			for _, name := range g.Flavors {
				if fl := v.flavors[name]; fl != nil && (n.Compatible == nil || n.Compatible(fl)) {
					f = name
					break
				}
			}
			if f == "" && len(g.Flavors) > 0 {
				f = g.Flavors[0]
			}
			for _, r := range g.Covered {
				if t := n.total(r); t > 0 && f != "" {
					c.add(n.Slice, FlavorResource{Flavor: f, Resource: r}, t)
					chosen[r] = f
				}
			}
		}
		c.Flavors[n.Slice] = chosen
	}
	return c
}

// add charges v of fr for slice i.
func (c *Charge) add(i int, fr FlavorResource, v int64) {
	c.Usage[fr] += v
	if c.Slices[i] == nil {
		c.Slices[i] = Usage{}
	}
	c.Slices[i][fr] += v
}

// groupsOf lists the groups slice n draws from, in the queue's order.
func (v *View) groupsOf(cq *ClusterQueue, n Need) ([]int, *Problem) {
	seen := map[int]bool{}
	for _, r := range slices.Sorted(maps.Keys(n.Request)) {
		if n.Request[r] <= 0 {
			continue
		}
		gi := cq.group(r)
		if gi < 0 {
			if r == corev1.ResourcePods {
				continue
			}
			return nil, &Problem{Reason: ReasonResourceNotCovered, Config: true,
				Message: fmt.Sprintf("ClusterQueue %s covers no %s, which slice %d requests", cq.Name, r, n.Slice)}
		}
		seen[gi] = true
	}
	return slices.Sorted(maps.Keys(seen)), nil
}

// pick chooses group g's flavor for slice n, given what the workload's
// earlier slices already take (taken) and what it needs in all (whole).
func (v *View) pick(cq *ClusterQueue, g Group, n Need, whole map[corev1.ResourceName]int64, taken Usage, excluded map[string]bool) (string, *Problem) {
	var short []string
	compatible, forever := 0, 0
	for _, name := range g.Flavors {
		f := v.flavors[name]
		if f == nil || excluded[name] || (n.Compatible != nil && !n.Compatible(f)) {
			continue
		}
		compatible++
		ok, never := true, false
		var why []string
		for _, r := range g.Covered {
			want := n.total(r)
			if want <= 0 {
				continue
			}
			fr := FlavorResource{Flavor: name, Resource: r}
			if _, quota := cq.Quotas[fr]; !quota {
				ok, never = false, true
				why = append(why, fmt.Sprintf("no quota for %s", r))
				continue
			}
			avail := v.Available(cq, fr) - taken[fr]
			if want > avail {
				ok = false
				if want+taken[fr] > v.Ceiling(cq, fr) {
					never = true
				}
				asked := FormatAmount(r, want) + " requested"
				if whole[r] != want {
					asked = fmt.Sprintf("%s for slice %d (%s for the workload)", FormatAmount(r, want), n.Slice, FormatAmount(r, whole[r]))
				}
				why = append(why, fmt.Sprintf("%s: %s, %s available (%s)", r,
					asked, FormatAmount(r, max(0, avail)), v.accountFor(cq, fr, taken[fr], max(0, avail))))
			}
		}
		if ok {
			return name, nil
		}
		if never {
			forever++
		}
		short = append(short, fmt.Sprintf("flavor %s (%s)", name, strings.Join(why, "; ")))
	}
	if compatible == 0 {
		return "", &Problem{Reason: ReasonNoCompatibleFlavor, Config: true,
			Message: fmt.Sprintf("no flavor of ClusterQueue %s covering %s matches the node selector of slice %d", cq.Name, strings.Join(resourceNames(g.Covered), ", "), n.Slice)}
	}
	p := &Problem{Reason: ReasonQuotaExceeded,
		Message: fmt.Sprintf("insufficient quota in ClusterQueue %s: %s", cq.Name, strings.Join(short, "; "))}
	if forever == compatible {
		p.Reason, p.Config = ReasonExceedsQuotaForever, true
		p.Message = fmt.Sprintf("the workload asks for more than ClusterQueue %s can ever admit, its cohort's lendable quota included: %s", cq.Name, strings.Join(short, "; "))
	}
	return "", p
}

func resourceNames(rs []corev1.ResourceName) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = string(r)
	}
	return out
}

// accountFor says how avail of fr comes from cq's nominal quota, so that
// the figures add up for a reader: nominal, less what its workloads use,
// less what the workload's other slices take, less what its cohort uses of
// it (or plus what it may borrow from the cohort).
func (v *View) accountFor(cq *ClusterQueue, fr FlavorResource, taken, avail int64) string {
	r := fr.Resource
	nominal, used := cq.Quotas[fr].Nominal, v.usage[cq.Name][fr]
	parts := []string{"nominal " + FormatAmount(r, nominal), FormatAmount(r, used) + " in use"}
	if taken > 0 {
		parts = append(parts, FormatAmount(r, taken)+" for the workload's other slices")
	}
	switch rest := max(0, nominal-used-taken) - avail; {
	case rest > 0 && cq.Cohort != "":
		parts = append(parts, FormatAmount(r, rest)+" lent to cohort "+cq.Cohort+" and in use there")
	case rest > 0:
		parts = append(parts, FormatAmount(r, rest)+" held back by its limits")
	case rest < 0:
		parts = append(parts, FormatAmount(r, -rest)+" borrowable from cohort "+cq.Cohort)
	}
	return strings.Join(parts, ", ")
}
