package lab

// One sentence per trace event, in a learner's words: what the event list,
// the announcements and the page's narration read.

import (
	"fmt"
	"strings"

	"leaselab/core"
)

// Narrate turns one trace event into a sentence for learners, or "" for
// events too fine to narrate (messages, renewals).
func Narrate(e *core.Event) string {
	if s := narrateMember(e); s != "" {
		return s
	}
	switch e.Kind {
	case core.KindHolder:
		return fmt.Sprintf("%s acquired %s with token %d", e.Owner(), e.Lock(), e.Token())
	case core.KindLeaseExpire:
		return fmt.Sprintf("the coordinator expired the lease of %s", e.Owner())
	case core.KindLeaseRevoke:
		if e.Why() == "expired by the learner" {
			return fmt.Sprintf("you expired the lease of %s", e.Owner())
		}
		return ""
	case core.KindWrite:
		if e.Result() == core.Accepted {
			return fmt.Sprintf("%s accepted %s's write with token %d", e.Actor, e.From(), e.Token())
		}
		return fmt.Sprintf("%s rejected %s's write with token %d (it has seen %d)", e.Actor, e.From(), e.Token(), e.Highest())
	case core.KindStale:
		return fmt.Sprintf("STALE WRITE: %s took token %d although it had seen %d", e.Actor, e.Token(), e.Highest())
	case core.KindPause:
		return fmt.Sprintf("%s froze (stop-the-world pause of %s)", e.Actor, e.For())
	case core.KindResume:
		return wokeUp(e.Actor, e.Overdue())
	case core.KindCrash:
		return e.Actor + " crashed"
	case core.KindRestart:
		return e.Actor + " restarted"
	case core.KindLeaseLost:
		return fmt.Sprintf("%s lost its lease: %s", e.Actor, PlainWhy(e.Why()))
	case core.KindState:
		switch e.To() {
		case core.Leader.String():
			return fmt.Sprintf("%s now believes it leads (token %d)", e.Actor, e.Token())
		case core.SteppingDown.String():
			return e.Actor + " is stepping down"
		}
	case core.KindSetting:
		if e.Actor == "learner" {
			return fmt.Sprintf("%s switched %s", e.Name(), e.Value())
		}
		if e.Name() == "fix" {
			return fmt.Sprintf("%s's client fixed: it will %s", e.Actor, core.FixName(e.Value()).Label())
		}
	case core.KindPartition:
		return fmt.Sprintf("link %s - %s cut", e.A(), e.B())
	case core.KindHeal:
		return fmt.Sprintf("link %s - %s healed", e.A(), e.B())
	case core.KindReconnect:
		return fmt.Sprintf("%s reconnected to the coordinator after %s; %d waiting messages went out", e.Actor,
			core.FormatTime(e.Down()), e.Waited())
	case core.KindHold:
		return fmt.Sprintf("the network holds what %s sends until t=%s", holdWhat(e), core.FormatTime(e.Until()))
	case core.KindDenied:
		return "the coordinator refused: " + e.Why()
	case core.KindSessionLost:
		return fmt.Sprintf("%s found its queued key gone: %s", e.Actor, PlainWhy(e.Why()))
	case core.KindClientState:
		return fmt.Sprintf("%s's client is %s (Curator calls it %s): %s", e.Actor, e.State(), e.Curator(), e.Why())
	case core.KindLockDelay:
		return fmt.Sprintf("lock-delay: nobody may take %s until t=%s", e.Lock(), core.FormatTime(e.Until()))
	case core.KindActionError:
		return "could not apply: " + e.Why()
	case core.KindRenewal:
		late := e.Late()
		switch {
		case e.Result() == core.RenewalNever:
			return fmt.Sprintf("%s's renewal never went out: it waited %s behind work and the lease ran out first", e.Actor, core.Seconds(late))
		case late > 0:
			return fmt.Sprintf("%s's renewal went out %s late: it waited behind work", e.Actor, core.Seconds(late))
		}
	case core.KindWorkBusy:
		return fmt.Sprintf("%s started a unit of work (%s, its loop busy)", e.Actor, core.Seconds(e.For()))
	}
	return ""
}

// wokeUp says that proc woke from a pause, and what the pause had
// held back: the timers that fell due while it was frozen fire at once.
func wokeUp(proc string, overdue int64) string {
	switch overdue {
	case 0:
		return proc + " woke up"
	case 1:
		return proc + " woke up; the one thing it was due to do while frozen (a renewal or a write) ran at once"
	}
	return fmt.Sprintf("%s woke up; the %d things it was due to do while frozen (renewals, writes) ran at once", proc, overdue)
}

// plainWhys are the real systems' error texts the trace records, in a
// learner's words: shown with the real text quoted beside them, never
// alone.
var plainWhys = map[string]string{
	"etcdserver: requested lease not found": "the coordinator had already expired it",
	"mutex: session is expired":             "its session had already expired",
	"local lease deadline passed":           "by its own clock the lease had run out",
	"local session deadline passed":         "by its own clock the session had run out",
	"etcdserver: no leader":                 "it had no leader for too long",
	"etcdserver: request timed out":         "no leader committed it within 7 s",
}

// PlainWhy is a reason the trace records, for a learner: a real error
// text as what it means, with the text quoted after it (the coordinator
// had already expired it (the client's error: "etcdserver: requested
// lease not found")); a reason already in plain words as it is.
func PlainWhy(why string) string {
	plain, ok := plainWhys[why]
	if !ok {
		return why
	}
	if strings.Contains(why, ":") {
		return fmt.Sprintf("%s (the client's error: %q)", plain, why)
	}
	return plain
}

// Weight says how much a narrated event matters to a listener: key (a
// turn of the story that is always told), or routine with the name of
// what it repeats (told summarised), or neither.
func Weight(e *core.Event) (key bool, routine string) {
	switch e.Kind {
	case core.KindHolder, core.KindLeaseExpire, core.KindLeaseLost, core.KindStale, core.KindCrash,
		core.KindSessionLost, core.KindLockDelay, core.KindLeader, core.KindNoLeader, core.KindRead:
		return true, ""
	case core.KindMember:
		return e.State() == "crashed", ""
	case core.KindLeaseRearm:
		return false, "rearm:" + e.Owner()
	case core.KindLeaseRevoke:
		return e.Why() == "expired by the learner", ""
	case core.KindWrite:
		if e.Result() != core.Accepted {
			return true, ""
		}
		return false, fmt.Sprintf("write:%s:%s:%d", e.Actor, e.From(), e.Token())
	case core.KindRenewal:
		return e.Result() == core.RenewalNever, "renewal:" + e.Actor
	case core.KindWorkBusy:
		return false, "work:" + e.Actor
	}
	return false, ""
}

// holdWhat names the messages a hold event delays: "A" or "A to storage".
func holdWhat(e *core.Event) string {
	if to := e.To(); to != "" {
		return e.From() + " to " + to
	}
	return e.From()
}
