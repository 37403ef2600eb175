package feed

import (
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/controllers"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// feedRecordedAdmission passes the admission a Workload object records
// (written by controllers.WorkloadWriter) to the state: a scheduler that
// takes over charges running workloads as recorded.
func (f *Feed) feedRecordedAdmission(wl *multislicev1alpha1.Workload, gone bool) state.Actions {
	key, rec, ok := controllers.RecordedAdmission(wl)
	if !ok {
		return state.Actions{}
	}
	if gone {
		rec = nil
	}
	return f.state.Feed().SetRecordedAdmission(key, rec)
}
