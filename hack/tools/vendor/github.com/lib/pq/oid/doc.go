//go:generate go run ./gen.go

// Package oid contains OID constants as defined by the Postgres server.
package oid

// Oid is a Postgres Object ID.
type Oid uint32
