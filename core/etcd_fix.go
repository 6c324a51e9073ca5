package core

import (
	"slices"
	"strings"
)

// Fixes a learner can deploy to a running etcd client (the "fix" action). Each
// undoes one client bug of the troubleshooting guide's incidents, from the
// moment it is applied: the process keeps its state, and what it does next
// follows the fixed code.

// FixName names one fix.
type FixName string

const (
	// FixNewSession: make a new session when the old one has ended,
	// instead of campaigning again with the dead one (undoes ReuseSession).
	FixNewSession FixName = "new-session"
	// FixRelist: after a reconnect, read the contenders again and watch
	// the one ahead anew (undoes StaleWatch). A client waiting on a lost
	// watch reads them at once.
	FixRelist FixName = "relist"
	// FixJitter: spread each retry over [RetryBase, 2 x RetryBase], so
	// clients that failed together do not retry together.
	FixJitter FixName = "jitter"
	// FixOwnTask: renew from a small task of its own instead of the loop
	// that does the work (undoes RenewOnWorkLoop); a renewal waiting
	// behind work goes out at once.
	FixOwnTask FixName = "own-task"
)

// Fixes lists every fix, in the order menus offer them.
var Fixes = []FixName{FixNewSession, FixRelist, FixJitter, FixOwnTask}

var fixLabels = map[FixName]string{
	FixNewSession: "make a new session when the old one ends",
	FixRelist:     "re-list the contenders after a reconnect",
	FixJitter:     "retry with jitter",
	FixOwnTask:    "renew from a task of its own",
}

// Known reports whether f is one of Fixes.
func (f FixName) Known() bool { _, ok := fixLabels[f]; return ok }

// Label says what the fix does, in a few words.
func (f FixName) Label() string {
	if l, ok := fixLabels[f]; ok {
		return l
	}
	return string(f)
}

func fixNames() string {
	names := make([]string, len(Fixes))
	for i, f := range Fixes {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// Fix returns the action that deploys fix f to proc.
func Fix(proc string, f FixName) Action { return Action{Do: VerbFix, Proc: proc, Value: string(f)} }

// FixJitterFactor is the spread FixJitter gives retries.
const FixJitterFactor = 1.0

// Fixed reports whether the client's configuration already has fix f
// (so a menu need not offer it).
func (p *Process) Fixed(f FixName) bool {
	switch f {
	case FixNewSession:
		return !p.cfg.ReuseSession
	case FixRelist:
		return !p.cfg.StaleWatch
	case FixJitter:
		return p.cfg.RetryJitter > 0
	case FixOwnTask:
		return !p.cfg.RenewOnWorkLoop
	}
	return false
}

// Deployed reports whether fix f was deployed to the process (by a fix
// action; its configuration may have lacked the bug anyway).
func (p *Process) Deployed(f FixName) bool {
	i, e := slices.Index(Fixes, f), p.etcd()
	return i >= 0 && e != nil && e.deployed&(1<<i) != 0
}

// applyFix deploys fix f now, to an etcd client (takesFixes).
func (p *Process) applyFix(f FixName) {
	e := p.etcd()
	e.deployed |= 1 << slices.Index(Fixes, f)
	switch f {
	case FixNewSession:
		p.cfg.ReuseSession, e.stale = false, 0
	case FixRelist:
		p.cfg.StaleWatch = false
		if e.watchLost {
			e.watchLost = false
			p.relist()
		}
	case FixJitter:
		p.cfg.RetryJitter = FixJitterFactor
	case FixOwnTask:
		p.cfg.RenewOnWorkLoop = false
		if e.renewDue >= 0 && !p.crashed {
			p.arm(tmRenew, p.sim.now, fnRenew)
		}
	}
	p.trace(KindSetting, S(FName, "fix"), S(FValue, string(f)))
}

// noteConnection is StaleWatch's bug: the client's watch ends with its
// connection and nothing opens it again. The client notices the
// connection is down on its keepalive loop's next tick.
func (e *etcdClient) noteConnection(p *Process) {
	if !p.cfg.StaleWatch || e.watchLost || p.state != Candidate || p.key == "" {
		return
	}
	if down, _ := p.sim.Net.Connection(p.cfg.Name); !down {
		return
	}
	e.watchLost = true
	p.trace(KindNote, S(FText, "its watch ended with the connection; after reconnecting it does not read the contenders again"))
}

// unseen reports (and traces) a wake-up a StaleWatch client no longer
// has a watch for.
func (e *etcdClient) unseen(p *Process, m watchEvent) bool {
	if !e.watchLost {
		return false
	}
	if p.sim.Trace.on(KindNote) {
		p.trace(KindNote, S(FText, "no watch open: the change to "+m.Key+" goes unseen"))
	}
	return true
}

// relist reads the contenders again: the coordinator answers with the
// holder or the key to watch now.
func (p *Process) relist() {
	if p.state != Candidate || p.key == "" || p.lease == 0 {
		return
	}
	if p.sim.Trace.on(KindNote) {
		p.trace(KindNote, S(FText, "reads the contenders again"))
	}
	p.send(CoordinatorName, checkReq{Lock: p.cfg.Lock, Key: p.key, Rev: p.myRev, Recipe: p.cfg.Recipe})
}
