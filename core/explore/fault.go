package explore

import (
	"fmt"
	"time"

	"leaselab/core"
)

// Fault kinds the explorer injects.
const (
	FaultPause = "pause"
	FaultCrash = "crash"
	// FaultDelay holds everything the process sends for For: its network
	// path stalls and then delivers late (the "delay" action).
	FaultDelay = "delay"
)

// FaultKinds lists the kinds, in the order the search tries them.
var FaultKinds = []string{FaultPause, FaultCrash, FaultDelay}

// lasts reports whether faults of kind have a length (For).
func lasts(kind string) bool { return kind != FaultCrash }

// Fault is one injected failure: a pause of For, a crash (no restart), or
// For of the process's outgoing messages held back.
type Fault struct {
	Kind string
	Proc string
	At   time.Duration
	For  time.Duration
}

func (f Fault) String() string {
	switch f.Kind {
	case FaultCrash:
		return fmt.Sprintf("crash %s at %s", f.Proc, core.FormatTime(f.At))
	case FaultDelay:
		return fmt.Sprintf("delay what %s sends at %s for %s", f.Proc, core.FormatTime(f.At), core.FormatTime(f.For))
	}
	return fmt.Sprintf("pause %s at %s for %s", f.Proc, core.FormatTime(f.At), core.FormatTime(f.For))
}

// Action returns the fault as a timed learner action.
func (f Fault) Action() core.Timed {
	if f.Kind == FaultCrash {
		return core.At(f.At, core.Crash(f.Proc))
	}
	return core.At(f.At, core.Action{Do: core.Verb(f.Kind), Proc: f.Proc, For: core.Duration(f.For)})
}

func faultLog(fs []Fault) core.ActionLog {
	log := make(core.ActionLog, len(fs))
	for i, f := range fs {
		log[i] = f.Action()
	}
	return log
}
