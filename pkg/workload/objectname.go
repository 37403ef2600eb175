package workload

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// ObjectName is the name of the Workload object of a workload: its source
// kind and name, lower-cased, so that a JobSet and a Job of the same name
// do not collide; shortened with a hash when too long for an object name.
// The name of a valid object (a DNS subdomain) gives a valid object name.
func (k Key) ObjectName() string {
	name := strings.ToLower(string(k.Source)) + "-" + k.Name
	if len(name) <= 253 {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	// The cut may end right after a dot, which must not precede the "-".
	return strings.TrimSuffix(name[:240], ".") + "-" + hex.EncodeToString(sum[:])[:12]
}
