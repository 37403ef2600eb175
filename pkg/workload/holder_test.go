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
