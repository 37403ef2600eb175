// Package tas decides where a pod set's pods go in a topology tree (block →
// subblock → host): given how many of its pods each node takes now, it
// chooses the domain(s) that keep the set, and each slice of it, as close
// together as the request asks, and lists the nodes in rank order. It is a
// pure function on values, decided once for the whole pod set; it reads no
// cluster state and reserves nothing, so workloads share a domain whenever
// the room the caller reports allows it.
package tas
