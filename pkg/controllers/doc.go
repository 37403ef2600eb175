// Package controllers holds the scheduler's API writers: each writes one
// kind of object (Workload and queue status, admission records, Jobs and
// JobSets it starts, ProvisioningRequests, pod conditions and evictions,
// events) from what the shared state says, and only while this replica
// leads, so a standby never writes. Each is built with the clients and
// listers it needs; none reads informers of its own or decides an
// admission. Package feed starts them and feeds them the objects they
// watch.
package controllers
