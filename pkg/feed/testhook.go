package feed

import "github.com/multislice-scheduler/multislice-scheduler/pkg/state"

// NewRuntimeWithState returns a runtime around an existing state, with no
// profile attached: nothing feeds the state, and Act does nothing. It lets
// tests of plugins that read the shared state through a runtime (rather
// than attaching one) build it without a framework handle.
func NewRuntimeWithState(st *state.State) *Runtime { return &Runtime{state: st} }
