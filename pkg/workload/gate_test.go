package workload

import "testing"

func TestTurnAt(t *testing.T) {
	complete := GateFacts{Complete: true}
	withHead := func(f GateFacts, isHead bool) GateFacts {
		f.HeadValid, f.IsHead = true, isHead
		return f
	}
	cases := []struct {
		name       string
		facts      GateFacts
		behindHead bool
		want       Turn
	}{
		{"members missing", GateFacts{}, true, TurnMissing},
		{"members missing, not behind a head", GateFacts{}, false, TurnMissing},
		{"members missing, a valid head", withHead(GateFacts{}, false), true, TurnMissing},
		{"its slice reserved, members missing", GateFacts{InReservedSlice: true, Reserved: true}, true, TurnGo},
		{"its slice reserved, behind another head", withHead(GateFacts{InReservedSlice: true, Reserved: true, Complete: true}, false), true, TurnGo},
		{"a reservation without its slice, members missing", GateFacts{Reserved: true}, true, TurnMissing},
		{"a reservation without its slice, complete", GateFacts{Reserved: true, Complete: true}, true, TurnGo},
		{"runs whole", GateFacts{Complete: true, PlacedWhole: true}, true, TurnGo},
		{"runs whole, behind another head", withHead(GateFacts{Complete: true, PlacedWhole: true}, false), true, TurnGo},
		{"complete, not behind a head", withHead(complete, false), false, TurnGo},
		{"complete, behind another head", withHead(complete, false), true, TurnBehindHead},
		{"complete, its head", withHead(complete, true), true, TurnHead},
		{"complete, no head that can plan", complete, true, TurnHead},
		{"complete, IsHead of a head that cannot plan", GateFacts{Complete: true, IsHead: true}, true, TurnHead},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := TurnAt(tc.facts, tc.behindHead); got != tc.want {
				t.Errorf("TurnAt(%+v, %v) = %v, want %v", tc.facts, tc.behindHead, got, tc.want)
			}
		})
	}
}
