// Package utilities provides members for internal use in grpc-gateway.
package utilities
