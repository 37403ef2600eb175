package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// printCluster is whyCluster with a failed v5e pool and a GPU pool.
func printCluster() Cluster {
	c := whyCluster()
	c.Nodes = append(c.Nodes, nodes(builders.V5ePool("pool-4").NotReady(), builders.NodePool("gpu").GPU("nvidia-l4", 4).Zone("us-central1-a"))...)
	return c
}

// lines joins the lines of a table: the expected outputs below are
// written line by line, trailing spaces trimmed.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func trimLines(s string) string {
	ls := strings.Split(s, "\n")
	for i := range ls {
		ls[i] = strings.TrimRight(ls[i], " ")
	}
	return strings.Join(ls, "\n")
}

func TestPrintTables(t *testing.T) {
	cases := map[string]struct {
		print func(*bytes.Buffer, *Cluster) error
		want  string
	}{
		"pools": {
			print: func(b *bytes.Buffer, c *Cluster) error { return PrintPools(b, Pools(c), c.Now, false) },
			want: lines(
				"POOL     ACCELERATOR            TOPOLOGY   ZONE            NODES   HEALTH   HELD BY           PRIORITY   SINCE",
				"gpu      nvidia-l4              -          us-central1-a   1       ok       free              -          -",
				"pool-1   tpu-v5-lite-podslice   2x4        -               2       ok       JobSet ns/train   1000       9m30s",
				"pool-2   tpu-v5-lite-podslice   2x4        -               2       ok       JobSet ns/train   1000       9m30s",
				"pool-3   tpu-v5-lite-podslice   2x4        -               2       ok       free              -          -",
				"pool-4   tpu-v5-lite-podslice   2x4        -               2       failed   free              -          -",
			),
		},
		"pools -o wide": {
			print: func(b *bytes.Buffer, c *Cluster) error {
				c.Nodes = c.Nodes[:8]
				return PrintPools(b, Pools(c), c.Now, true)
			},
			want: lines(
				"POOL     ACCELERATOR            TOPOLOGY   ZONE   NODES   HEALTH   HELD BY           PRIORITY   SINCE   USED                 PODS   RECYCLES   ENDS   PROBLEMS",
				"pool-1   tpu-v5-lite-podslice   2x4        -      2       ok       JobSet ns/train   1000       9m30s   8/8 google.com/tpu   2      -          -      -",
				"pool-2   tpu-v5-lite-podslice   2x4        -      2       ok       JobSet ns/train   1000       9m30s   8/8 google.com/tpu   2      -          -      -",
				"pool-3   tpu-v5-lite-podslice   2x4        -      2       ok       free              -          -       0/8 google.com/tpu   0      -          -      -",
				"pool-4   tpu-v5-lite-podslice   2x4        -      2       failed   free              -          -       0/8 google.com/tpu   0      -          -      pool-4-node-0: Ready=False (KubeletNotReady); pool-4-node-1: Ready=False (KubeletNotReady)",
			),
		},
		"queues": {
			print: func(b *bytes.Buffer, c *Cluster) error { return PrintQueues(b, Queues(c), false) },
			want: lines(
				"CLUSTERQUEUE    FLAVOR   RESOURCE         NOMINAL   BORROWED   IN USE   PENDING   ADMITTED",
				"cluster-queue   vlp-24   google.com/tpu   24        0          16       1         1",
			),
		},
		"pending": {
			print: func(b *bytes.Buffer, c *Cluster) error {
				c.Pods = append(c.Pods, unit.Pod("solo").Held("Unschedulable", "0/9 nodes are available: 9 Insufficient cpu.").Obj())
				return PrintPending(b, Pending(c, PendingFilter{}), c.Now, false)
			},
			want: lines(
				"Order: "+PendingOrder+".",
				"CLUSTERQUEUE    POSITION   WORKLOAD         PRIORITY   AGE   REASON          MESSAGE",
				"cluster-queue   1          JobSet ns/next   0          9m    QuotaExceeded   insufficient quota in ClusterQueue cluster-queue: flavor vlp-24 (google.com/tpu: 8 for slice 0 (16 …",
				"(no queue)      1          Pod ns/solo      0          10m   Unschedulable   0/9 nodes are available: 9 Insufficient cpu.",
			),
		},
		"why": {
			print: func(b *bytes.Buffer, c *Cluster) error {
				return PrintWhy(b, Why(c, WorkloadRef{KindJobSet, "ns", "next"}), c.Now, false)
			},
			want: lines(
				"JobSet ns/next (Workload object jobset-next)",
				"State:      Pending: QuotaExceeded",
				"            insufficient quota in ClusterQueue cluster-queue: flavor vlp-24 (google.com/tpu: 8 for slice 0 (16 for the workload), 8 available (nominal 24, 16 in use))",
				"Priority:   0",
				"Created:    2025-01-01T00:01:00Z (9m ago)",
				"Queue:      LocalQueue ns/lq → ClusterQueue cluster-queue (BestEffortFIFO)",
				"Position:   1 of 1 pending in ClusterQueue cluster-queue (higher priority first, then earlier creation)",
				"",
				"Quota in ClusterQueue cluster-queue:",
				"  FLAVOR   RESOURCE         REQUESTED   NOMINAL   BORROWING LIMIT   IN USE   AVAILABLE   MAX   FITS",
				"  vlp-24   google.com/tpu   16          24        -                 16       8           24    no: 8 more than available",
				"",
				"Slices:",
				"  SLICE          PODS   REQUEST PER POD    DOMAIN KEY     NODE SELECTOR                                                   FLAVOR   DOMAIN",
				"  next-slice-0   2      google.com/tpu=4   gke-nodepool   gke-tpu-accelerator=tpu-v5-lite-podslice,gke-tpu-topology=2x4   -        -",
				"  next-slice-1   2      google.com/tpu=4   gke-nodepool   gke-tpu-accelerator=tpu-v5-lite-podslice,gke-tpu-topology=2x4   -        -",
				"",
				"Domains (gke-nodepool): 5 in the cluster, 4 match its slices' selectors and size, 1 free, 1 unhealthy, 2 held by others; it needs 2.",
				"  free: pool-3",
				"  pool-4: failed (pool-4-node-0: Ready=False (KubeletNotReady); pool-4-node-1: Ready=False (KubeletNotReady))",
				"  pool-1: held by JobSet ns/train (priority 1000, since 9m30s)",
				"  pool-2: held by JobSet ns/train (priority 1000, since 9m30s)",
				"",
				"Preemption:",
				"  policy: withinClusterQueue: Never, reclaimWithinCohort: Never",
				"  none recorded: the scheduler preempts for a workload's head once its plan fails for want of domains or quota, and then records Preempting or NoPreemptionVictims on it",
				"",
				"Pods: 4, 0 bound, 0 running, 0 succeeded, 0 failed.",
				"  4 waiting, QuotaExceeded: insufficient quota in ClusterQueue cluster-queue (e.g. next-slice-0-0-a0)",
				"",
				"Events:",
				"  AGE   TYPE     REASON          OBJECT        MESSAGE",
				"  8m    Normal   QuotaExceeded   jobset/next   insufficient quota",
			),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := printCluster()
			var b bytes.Buffer
			if err := tc.print(&b, &c); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, trimLines(b.String())); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
}

// -o json and yaml print the rows the tables show, and read back as them.
func TestPrintStructured(t *testing.T) {
	c := printCluster()
	pools := PoolsOutput{Pools: Pools(&c)}
	for _, format := range []string{OutputJSON, OutputYAML} {
		var b bytes.Buffer
		if err := PrintStructured(&b, format, pools); err != nil {
			t.Fatal(err)
		}
		data := b.Bytes()
		if format == OutputYAML {
			var err error
			if data, err = yaml.YAMLToJSON(data); err != nil {
				t.Fatal(err)
			}
		}
		var back PoolsOutput
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("%s: %v\n%s", format, err, b.String())
		}
		if diff := cmp.Diff(pools, back); diff != "" {
			t.Errorf("%s read back (-printed +read):\n%s", format, diff)
		}
	}
	if err := ValidOutput("name"); err == nil {
		t.Error("-o name accepted")
	}
}
