package feed

import (
	"context"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/controllers"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// feedRecords passes what Workload objects record to the state.
func (rt *Runtime) feedRecords(wl *multislicev1alpha1.Workload, gone bool) state.Actions {
	key, rec, ok := controllers.RecordedAdmission(wl)
	if !ok {
		return state.Actions{}
	}
	if gone {
		rec = nil
	}
	return rt.state.SetRecordedAdmission(key, rec)
}

// RecordAdmission writes the admission of reservation id of key on its
// Workload object (state/record.go says why before any pod binds); once
// written, done gets what to let through.
func (rt *Runtime) RecordAdmission(ctx context.Context, key workload.Key, id uint64, done func(state.PermitResult)) {
	rt.workloads.RecordAdmission(ctx, rt.state, key, id, done)
}
