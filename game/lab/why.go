package lab

import (
	"fmt"
	"strings"
	"time"

	"leaselab/core"
)

// Why is the answer to "why did this happen?" for one event of a run: the
// chain of its causes, newest first, back to the learner's action or the
// world's start (core.Trace.Chain), each step in words with its time, and
// any second cause on the way (a verdict's earlier write, a wake-up that
// let waiting work run). The CLI prints it; the player shows it with each
// step a button that moves the play head there.
type Why struct {
	Steps []WhyStep // Steps[0] is the event asked about
	// Root says where the chain began: an action (the learner's or the
	// world's script: "the action at 5 s: pause A for 20 s") or the
	// world's start.
	Root string
	// Also are second causes, each said with the step it belongs to.
	Also []WhyStep
}

// WhyStep is one event in a chain of causes.
type WhyStep struct {
	Seq  int
	At   time.Duration
	Text string
}

// Explain builds the Why of e, an event of tr.
func Explain(tr *core.Trace, e *core.Event) Why {
	chain := tr.Chain(e)
	var w Why
	for i := 0; i < len(chain); i++ {
		c := chain[i]
		if p, n := loopAt(chain, i); n > 0 {
			// A retry loop (ask, refused, wait, ask again) is told once,
			// then how often it went round.
			for _, s := range chain[i : i+p] {
				w.Steps = append(w.Steps, step(s))
			}
			i += p * (n + 1)
			back := chain[i-1]
			w.Steps = append(w.Steps, WhyStep{Seq: -1, At: back.At, Text: fmt.Sprintf("the same %d more times, back to %s", n, core.Seconds(back.At))})
			i--
			continue
		}
		w.Steps = append(w.Steps, step(c))
		if cs := c.Causes(); len(cs) > 1 {
			if o := tr.Event(cs[1]); o != nil {
				s := step(o)
				s.Text = fmt.Sprintf("%s (a cause of event %d too)", s.Text, c.Seq)
				w.Also = append(w.Also, s)
			}
		}
	}
	switch root, act := tr.RootOf(e); root {
	case core.RootAction:
		what := act.Words()
		if act.Kind == core.KindActionError {
			what = act.Do() + ", not applied: " + act.Why()
		}
		w.Root = fmt.Sprintf("the action at %s: %s", core.Seconds(act.At), what)
	default:
		w.Root = "the world's start (its processes starting and their first timers)"
	}
	return w
}

// loopAt finds a loop in chain at i: a block of p steps (p up to 4) that
// the next steps repeat n more times (n at least 2), alike in actor, kind
// and message. It returns 0, 0 when there is none.
func loopAt(chain []*core.Event, i int) (p, n int) {
	same := func(a, b *core.Event) bool {
		return a.Actor == b.Actor && a.Kind == b.Kind && a.Msg() == b.Msg() && a.Words() == b.Words()
	}
	for p = 1; p <= 4; p++ {
		n = 0
		for j := i + p; j+p <= len(chain); j += p {
			ok := true
			for k := range p {
				if !same(chain[i+k], chain[j+k]) {
					ok = false
					break
				}
			}
			if !ok {
				break
			}
			n++
		}
		if n >= 2 {
			return p, n
		}
	}
	return 0, 0
}

func step(e *core.Event) WhyStep {
	words := Narrate(e)
	if words == "" {
		words = plainEvent(e)
	}
	return WhyStep{Seq: e.Seq, At: e.At, Text: words}
}

// plainEvent says an event the narration leaves out (messages, renewals).
func plainEvent(e *core.Event) string {
	switch e.Kind {
	case core.KindSend:
		return fmt.Sprintf("%s sent %s to %s (it arrives at %s)", e.Actor, e.Msg(), e.To(), core.Seconds(e.Arrive()))
	case core.KindLeaseGrant:
		return fmt.Sprintf("the coordinator granted %s a lease of %s", e.Owner(), core.Seconds(e.TTL()))
	case core.KindLeaseRenew:
		if e.Lease() == "" {
			return fmt.Sprintf("the coordinator renewed %d leases of %s", e.Leases(), e.Owner())
		}
		return fmt.Sprintf("the coordinator renewed the lease of %s until %s", e.Owner(), core.Seconds(e.Expiry()))
	case core.KindLeaseRenewed:
		return fmt.Sprintf("%s heard its lease was renewed", e.Actor)
	case core.KindState:
		return fmt.Sprintf("%s went from %s to %s (%s)", e.Actor, e.From(), e.To(), e.Why())
	case core.KindAction:
		return "action: " + e.Words()
	case core.KindActionError:
		return "action not applied: " + e.Why()
	case core.KindDelete:
		return fmt.Sprintf("%s deleted %s", e.Actor, e.Key())
	case core.KindFree:
		return fmt.Sprintf("%s fell free (%s had it)", e.Lock(), e.Was())
	case core.KindWatchFire:
		return fmt.Sprintf("the change to %s woke %s", e.Key(), e.Watcher())
	case core.KindRedisExpire:
		return fmt.Sprintf("%s's copy of %s ran out", e.Actor, e.Key())
	case core.KindEnqueue:
		return fmt.Sprintf("%s decided %s's job %s with token %d: %s", e.Actor, e.From(), e.Idem(), e.Token(), e.Result())
	case core.KindOffset:
		if e.Has(core.FShard) {
			return fmt.Sprintf("%s decided %s's commit of shard %d with token %d: %s", e.Actor, e.From(), e.Shard(), e.Token(), e.Result())
		}
		return fmt.Sprintf("%s decided %s's commit of %d offsets: %s", e.Actor, e.From(), e.Entries(), e.Result())
	}
	var b strings.Builder
	b.WriteString(e.Actor + " " + e.Kind.String())
	e.Each(func(f core.FieldID) { b.WriteString(" " + f.Key() + "=" + e.Format(f)) })
	return b.String()
}

// String is the step as one line: "[89] at 32.105 s: storage rejected …".
func (s WhyStep) String() string {
	if s.Seq < 0 {
		return "… " + s.Text
	}
	return fmt.Sprintf("[%d] at %s: %s", s.Seq, core.Seconds(s.At), s.Text)
}

// WhyOf explains event seq of the run on show.
func (lb *Lab) WhyOf(seq int) (Why, bool) {
	tr := lb.world.Sim.Trace
	e := tr.Event(seq)
	if e == nil || e.At > lb.Now() {
		return Why{}, false // not (yet) in the run at the play head
	}
	return Explain(tr, e), true
}

// WhyNow explains the last thing that happened at or before the play
// head that the narration tells (a key event first: a lock changing hands,
// a lease expiring, a write decided), or false before anything did.
func (lb *Lab) WhyNow() (Why, bool) {
	tr := lb.world.Sim.Trace
	now := lb.Now()
	var last *core.Event
	for i := tr.Len() - 1; i >= 0; i-- {
		e := tr.At(i)
		if e.At > now || Narrate(e) == "" {
			continue
		}
		if key, _ := Weight(e); key {
			return Explain(tr, e), true
		}
		if last == nil {
			last = e
		}
	}
	if last == nil {
		return Why{}, false
	}
	return Explain(tr, last), true
}

// ChainEvents lists the events of a run a learner may pick, in order, for
// a chain of causes (an exercise's "explain with your run"): every event
// the narration tells, and the quiet ones an argument may need (the
// coordinator granting or renewing a lease, a write sent to storage, a key
// deleted, a lock falling free, a watch firing, a Redis node's key running
// out, the job queue's and the offset store's decisions), each in words
// with its time and its number.
func ChainEvents(tr *core.Trace) []WhyStep {
	var out []WhyStep
	for e := range tr.All() {
		quiet := e.Kind == core.KindSend && e.Msg() == "Write"
		switch e.Kind {
		case core.KindLeaseGrant, core.KindLeaseRenew, core.KindDelete, core.KindFree, core.KindWatchFire,
			core.KindRedisExpire, core.KindEnqueue, core.KindOffset:
			quiet = true
		}
		if quiet || Narrate(e) != "" {
			out = append(out, step(e))
		}
	}
	return out
}
