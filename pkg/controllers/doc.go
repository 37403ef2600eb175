// Package controllers holds the scheduler's API writers and the loops
// that act on the shared state over time. Each writes one kind of object
// (Workload and queue status, admission records, Jobs and JobSets it
// starts or ends, ProvisioningRequests, pod conditions and evictions,
// events) from what the shared state says, and only while this replica
// leads, so a standby never writes. The loops (Expirer: reservations,
// claims and runs past their time; UsageReconciler: the quota book
// against the API's pods) change the in-memory state as well, and also
// run only while this replica leads: a standby decides nothing.
//
// Each is built with the clients and listers it needs and reads no
// informer of its own; pkg/app builds and starts them
// (app/controllers.go) and hands them, through the feed's hooks, the
// objects they watch. None admits a workload, but one decides a
// placement: the Migrator plans where a slice on nodes being recycled
// would go again (admission.PlanMove, the rule every gang is placed by)
// and holds that room for it (state.Decision.Hold, written by
// State.Apply) before evicting its pods.
package controllers
