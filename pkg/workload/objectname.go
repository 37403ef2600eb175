package workload

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// ObjectName is the name of the Workload object of a workload: its source
// kind and name, lower-cased, so that a JobSet and a Job of the same name
// do not collide; shortened with a hash when too long for an object name.
func (k Key) ObjectName() string {
	name := strings.ToLower(string(k.Source)) + "-" + k.Name
	if len(name) <= 253 {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	return name[:240] + "-" + hex.EncodeToString(sum[:])[:12]
}
