package workload

import "testing"

func TestHolderBlocks(t *testing.T) {
	a := Key{Source: SourceJobSet, Namespace: "ns", Name: "a"}
	b := Key{Source: SourceJobSet, Namespace: "ns", Name: "b"}
	own := Holder{Key: a, UID: "u1"}
	cases := []struct {
		name    string
		holders map[Holder]int
		own     *Holder
		want    Holder
		blocked bool
	}{
		{name: "no holder", holders: nil, own: &own},
		{name: "only own", holders: map[Holder]int{own: 3}, own: &own},
		{name: "another workload", holders: map[Holder]int{own: 1, {Key: b, UID: "u2"}: 1}, own: &own,
			want: Holder{Key: b, UID: "u2"}, blocked: true},
		{name: "a deleted object of the same name", holders: map[Holder]int{{Key: a, UID: "old"}: 2}, own: &own,
			want: Holder{Key: a, UID: "old"}, blocked: true},
		{name: "a pod of no workload is blocked by own too", holders: map[Holder]int{own: 1}, own: nil,
			want: own, blocked: true},
		{name: "the least of several, whatever the map order",
			holders: map[Holder]int{{Key: b, UID: "u2"}: 1, {Key: a, UID: "z"}: 1, {Key: a, UID: "old"}: 1}, own: &own,
			want: Holder{Key: a, UID: "old"}, blocked: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for range 20 { // map order varies between runs
				got, blocked := FirstBlocking(tc.holders, tc.own)
				if got != tc.want || blocked != tc.blocked {
					t.Fatalf("FirstBlocking = %v, %v; want %v, %v", got, blocked, tc.want, tc.blocked)
				}
			}
		})
	}
}

func TestStandingIn(t *testing.T) {
	js := Key{Source: SourceJobSet, Namespace: "ns", Name: "a"}
	model := &Workload{UID: "u1", RestartAttempt: 2, Slices: []Slice{{Name: "s"}, {Name: "s"}}}
	with := func(edit func(*Workload)) *Workload {
		m := *model
		edit(&m)
		return &m
	}
	cases := []struct {
		name  string
		m     Member
		model *Workload
		want  Standing
		why   string
	}{
		{"current", Member{Key: js, Slice: 1, RestartAttempt: 2, OwnerUID: "u1"}, model, Current, ""},
		{"a pod that does not say its owner", Member{Key: js, Slice: 0, RestartAttempt: 2}, model, Current, ""},
		{"finished", Member{Key: js, RestartAttempt: 2}, with(func(m *Workload) { m.Finished = true }), Stale,
			"JobSet ns/a is finished, suspended or being deleted"},
		{"a deleted object of the same name", Member{Key: js, RestartAttempt: 2, OwnerUID: "u0"}, model, Stale,
			"the pod belongs to a deleted JobSet ns/a of the same name (uid u0; the current one is u1)"},
		{"an older attempt", Member{Key: js, RestartAttempt: 1}, model, Stale,
			"the pod belongs to restart attempt 1 of JobSet ns/a, which is at attempt 2"},
		{"a newer attempt", Member{Key: js, RestartAttempt: 3}, model, Ahead,
			"waiting to observe restart attempt 3 of JobSet ns/a"},
		{"attempts count for JobSets only", Member{Key: Key{Source: SourceJob, Namespace: "ns", Name: "a"}, RestartAttempt: 3}, model, Current, ""},
		{"no such slice", Member{Key: js, Slice: 2, RestartAttempt: 2}, model, Stale,
			"the pod names Job index 2, but JobSet ns/a has 2 Jobs"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, why := StandingIn(tc.m, tc.model)
			if got != tc.want || why != tc.why {
				t.Errorf("StandingIn = %v, %q; want %v, %q", got, why, tc.want, tc.why)
			}
		})
	}
}
