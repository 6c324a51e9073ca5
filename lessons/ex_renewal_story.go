package lessons

import (
	"fmt"
	"strings"
	"time"

	"leaselab/core"
)

// Exercise 1's story of a pause: what happened to the leader's lease
// while it slept, told from the trace alone (explainPause).

// explainPause tells what happened to p.Proc's lease during pause p, from
// the trace alone: when the lease was due to run out, when the process
// woke, whether its renewal after waking was accepted or refused, when the
// coordinator found the lease expired (its periodic sweep), and when the
// lock changed hands. Events in the same instant are told in the order the
// trace has them.
func explainPause(w *World, p pauseSpan, broke bool) Feedback {
	const part = "Breaking schedule"
	s := &pauseStory{w: w, p: p, tr: w.Sim.Trace}
	s.pauseEv = *s.tr.At(p.Seq)
	s.froze = s.b.at(s.pauseEv)
	var ok bool
	if s.grant, ok = leaseDuring(w, p); !ok {
		return Feedback{Part: part, Why: "The pause began before the leader's lease was granted. Pause it once it leads."}
	}
	s.exp = expiryOf(s.grant)
	s.find()
	if broke {
		return s.broken(part)
	}
	return s.unbroken(part)
}

// pauseStory is what explainPause reads of a run about one pause: the
// lease in force when it began, and the events after it that tell its
// end (the wake, the coordinator's expiry, the next holder, a refused or
// late renewal, the step-down). b gathers the claims it makes.
type pauseStory struct {
	w       *World
	p       pauseSpan
	tr      *core.Trace
	b       because
	pauseEv core.Event
	froze   string
	grant   core.Event
	exp     time.Duration

	resume, expire, holder, refused, renewed, down *core.Event
}

// find reads the events after the pause that tell its end.
func (s *pauseStory) find() {
	p, tr := s.p, s.tr
	if p.ToSeq >= 0 {
		s.resume = tr.At(p.ToSeq)
	}
	for e := range tr.Span(p.Seq+1, tr.Len()) {
		switch {
		case s.expire == nil && e.Kind == core.KindLeaseExpire && e.Owner() == p.Proc:
			s.expire = e
		case s.holder == nil && e.Kind == core.KindHolder && e.Lock() == "locks/leader" && e.Owner() != p.Proc:
			s.holder = e
		case e.Kind == core.KindLeaseRenew && e.Owner() == p.Proc && e.Format(core.FExpiry) != "":
			if s.refused == nil && expiryOf(*e) <= e.At {
				s.refused = e
			}
			if s.renewed == nil && s.resume != nil && e.Seq > s.resume.Seq {
				s.renewed = e
			}
		}
	}
	s.down = stepDown(s.w, p)
}

// lease says when the lease was to run out, from the grant or renewal in
// force: one that reached the coordinator while the process slept (sent
// just before it froze) is told as such.
func (s *pauseStory) lease(verb string) string {
	b, p, grant := &s.b, s.p, s.grant
	if grant.Seq < p.Seq {
		return fmt.Sprintf("with its lease %s %s, %s later", verb, b.ms(grant, core.FExpiry), b.diff(s.exp, p.From))
	}
	b.state(float64(p.Seq), "<", float64(grant.Seq))
	return fmt.Sprintf("just after sending a renewal, which reached the coordinator at %s, while %s slept, and moved the lease's end to %s, %s after it froze",
		b.at(grant), p.Proc, b.ms(grant, core.FExpiry), b.diff(s.exp, p.From))
}

// order claims that first came before then in the trace.
func (s *pauseStory) order(first, then *core.Event) {
	s.b.state(float64(first.Seq), "<", float64(then.Seq))
}

// broken tells a pause that broke the lease: the lock changed hands while
// the process slept, or before it noticed on waking.
func (s *pauseStory) broken(part string) Feedback {
	b, p, exp, resume := &s.b, s.p, s.exp, s.resume
	holder := handoverWhileLeading(s.w, p)
	b.stateD(exp, "<", holder.At)
	head := fmt.Sprintf("%s froze at %s %s; the %s pause outlived it",
		p.Proc, s.froze, s.lease("due to run out at"), b.ms(s.pauseEv, core.FFor))
	if resume == nil || !b.claimD(exp, ">", resume.At) {
		b.stateD(exp, "<=", p.wake(s.w)) // "outlived it"
	} else {
		// It woke in time, but the renewal it then sent arrived
		// after the expiry: the pause left too little lease.
		head = fmt.Sprintf("%s froze at %s %s; it woke at %s, so close to that that the lease ran out before its renewal could land",
			p.Proc, s.froze, s.lease("due to run out at"), b.at(*resume))
		if s.renewed != nil && b.claimD(exp, "<=", s.renewed.At) {
			head += fmt.Sprintf(" (the renewal reached the coordinator at %s)", b.at(*s.renewed))
		}
	}
	if resume != nil && holder.Seq >= resume.Seq {
		s.order(resume, holder)
		return b.feedback(part, true, "%s. %s woke at %s and, before it noticed, the coordinator gave the lock to %s at %s: for that moment both believed they led.", head, p.Proc, b.at(*resume), holder.Owner(), b.at(*holder))
	}
	if resume != nil {
		s.order(holder, resume)
	}
	if resume != nil && holder.At == resume.At {
		return b.feedback(part, true, "%s, and at %s, the very instant %s was due to wake but before it did, the coordinator gave the lock to %s.", head, b.at(*holder), p.Proc, holder.Owner())
	}
	b.stateD(holder.At, "<=", p.wake(s.w))
	return b.feedback(part, true, "%s, and at %s the coordinator gave the lock to %s while %s slept.", head, b.at(*holder), holder.Owner(), p.Proc)
}

// unbroken tells why a pause did not break the lease, and what to change.
func (s *pauseStory) unbroken(part string) Feedback {
	b, p, exp := &s.b, s.p, s.exp
	end := s.w.Sim.Now()
	if s.resume == nil && b.claimD(exp, ">", end) {
		// The run ended with the process still frozen.
		return b.feedback(part, false, "%s froze at %s and was still frozen when the run ended at %s, but its lease ran until %s, after the end: nothing could change hands within the run. Pause it earlier.",
			p.Proc, s.froze, b.given(end), b.ms(s.grant, core.FExpiry))
	}
	wake := p.wake(s.w)
	wakeText := b.given(end)
	if s.resume != nil {
		wakeText = b.at(*s.resume)
	}
	var out strings.Builder
	lateRenewal := false
	if b.claimD(exp, ">", wake) {
		renewed := s.renewed
		if renewed == nil || expiryOf(*renewed) > renewed.At {
			fmt.Fprintf(&out, "%s froze at %s %s; it woke at %s, before that", p.Proc, s.froze, s.lease("good until"), wakeText)
			if renewed != nil && b.claimD(renewed.At, "<", exp) {
				fmt.Fprintf(&out, ", and renewed in time: its renewal reached the coordinator at %s", b.at(*renewed))
			}
			fmt.Fprintf(&out, ". Start the pause later in the %s renewal cycle, just before a renewal is due.", b.given(exRenewEvery))
			return b.feedback(part, false, "%s", out.String())
		}
		// It woke in time, but its renewal arrived too late.
		lateRenewal = true
		b.stateD(exp, "<=", renewed.At)
		fmt.Fprintf(&out, "%s froze at %s %s, and woke at %s, before that; but its renewal reached the coordinator only at %s, when the lease had already ended, and was refused. ",
			p.Proc, s.froze, s.lease("good until"), wakeText, b.at(*renewed))
	} else {
		// The lease ran out while the process slept, yet the lock did not
		// move before it woke.
		fmt.Fprintf(&out, "The lease did run out while %s slept: it froze at %s, and its lease ended at %s, %s later, ", p.Proc, s.froze, b.ms(s.grant, core.FExpiry), b.diff(exp, p.From))
		if b.claimD(exp, "==", wake) {
			fmt.Fprintf(&out, "the instant it woke at %s. ", wakeText)
		} else {
			b.stateD(exp, "<", wake)
			fmt.Fprintf(&out, "before it woke at %s. ", wakeText)
		}
	}
	s.sweepAndHandover(&out, end, wake, lateRenewal)
	out.WriteString(" For the handover to happen during the pause, the pause must also cover the sweep: start it a little later in the renewal cycle or make it longer.")
	return b.feedback(part, false, "%s", out.String())
}

// sweepAndHandover tells when the coordinator's sweep found the lease
// expired, and when the lock changed hands, both after the process woke.
func (s *pauseStory) sweepAndHandover(out *strings.Builder, end, wake time.Duration, lateRenewal bool) {
	b, p, expire, holder, down := &s.b, s.p, s.expire, s.holder, s.down
	switch {
	case expire == nil:
		fmt.Fprintf(out, "The coordinator removes expired leases only on its periodic sweep, and the run ended at %s before one found it.", b.given(end))
	case s.resume != nil && expire.Seq > s.resume.Seq:
		s.order(s.resume, expire)
		fmt.Fprintf(out, "The coordinator removes expired leases only on its periodic sweep, and the sweep that found it came at %s, after %s was awake.", b.at(*expire), p.Proc)
		if s.refused != nil && !lateRenewal {
			fmt.Fprintf(out, " %s's late renewal reached it at %s and was refused: it arrived after the expiry.", p.Proc, b.at(*s.refused))
		}
	default:
		fmt.Fprintf(out, "The coordinator expired it at %s.", b.at(*expire))
	}
	if holder == nil {
		return
	}
	switch {
	case down != nil && down.Seq < holder.Seq && holder.At == wake:
		s.order(down, holder)
		fmt.Fprintf(out, " The lock changed hands at %s, the instant %s woke, but only after %s had noticed its lease was gone and stepped down: the two never both believed they led.", b.at(*holder), p.Proc, p.Proc)
	case down != nil && down.Seq < holder.Seq:
		s.order(down, holder)
		fmt.Fprintf(out, " The lock changed hands at %s, after %s had stepped down at %s.", b.at(*holder), p.Proc, b.at(*down))
	default:
		b.stateD(holder.At, ">", wake)
		fmt.Fprintf(out, " The lock changed hands at %s, when %s no longer slept.", b.at(*holder), p.Proc)
	}
}
