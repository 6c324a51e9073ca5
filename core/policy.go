package core

import (
	"fmt"
	"math"
	"time"
)

// LeasePolicy is the seed's lease-policy triangle: how long the
// coordinator keeps a lease without renewal, how often the holder renews,
// and the longest pause the platform may inflict on the holder.
type LeasePolicy struct {
	TTL         time.Duration
	RenewEvery  time.Duration
	PauseBudget time.Duration
	// RoundTrip is the slowest renewal round trip where the caller knows
	// it (zero where the network is not part of the question). The rule
	// keeps more than this to spare, never merely as much: a renewal that
	// reaches the coordinator at or after the expiry is refused.
	RoundTrip time.Duration
	// SessionTTL is the TTL the learner set, where the server keeps a
	// session longer than it (Consul's 2 x TTL, TTL being the longer): the
	// verdict says both, so a "30 s" beside a 15 s slider explains itself.
	// Zero where the lease lasts its TTL.
	SessionTTL time.Duration
}

// ttlWords is how the verdict names the lease's length: "ttl 30 s", or
// where the server stretches the TTL set, "ttl 15 s, expiring after 2 x
// ttl = 30 s".
func (p LeasePolicy) ttlWords() string {
	if p.SessionTTL <= 0 || p.SessionTTL == p.TTL {
		return "ttl " + Seconds(p.TTL)
	}
	return fmt.Sprintf("ttl %s, expiring after %s = %s", Seconds(p.SessionTTL), p.stretch(), Seconds(p.TTL))
}

// leftWords names the lease left when a pause begins just before a
// renewal: "ttl - renew", or "2 x ttl - renew" where the server stretches
// the TTL.
func (p LeasePolicy) leftWords() string {
	if p.SessionTTL <= 0 || p.SessionTTL == p.TTL {
		return "ttl - renew"
	}
	return p.stretch() + " - renew"
}

// stretch is the lease's length in the TTL's terms: "2 x ttl".
func (p LeasePolicy) stretch() string {
	if p.TTL%p.SessionTTL == 0 {
		return fmt.Sprintf("%d x ttl", p.TTL/p.SessionTTL)
	}
	return fmt.Sprintf("%.3g x ttl", float64(p.TTL)/float64(p.SessionTTL))
}

// PolicyVerdict explains whether a policy leaves renewal margin.
type PolicyVerdict struct {
	OK bool
	// Need is 2 x RenewEvery + PauseBudget: a pause that begins just
	// before a renewal, then one renewal lost on waking, then the retry.
	Need time.Duration
	// Margin is TTL - Need. The policy is OK only when it exceeds the
	// round trip: at zero the retry after a missed renewal reaches the
	// coordinator as the lease ends, and is refused.
	Margin time.Duration
	// Left is the lease left when a pause begins just before a renewal
	// (TTL - RenewEvery): the pause alone outlasts the lease, with no
	// renewal lost, only when it is longer than that (PauseAloneLapses).
	Left        time.Duration
	Explanation string // in etcd's words (Explain gives another system's)
	// Shorter are complete, shorter wordings of Explanation, longest
	// first, for a screen without room for the whole: the last is the
	// rule and its sums alone.
	Shorter []string

	policy LeasePolicy // the policy judged
}

// Validate rejects impossible parameters (not merely unsafe ones).
func (p LeasePolicy) Validate() error {
	switch {
	case p.TTL <= 0:
		return fmt.Errorf("ttl must be positive, got %s", p.TTL)
	case p.RenewEvery <= 0:
		return fmt.Errorf("renew interval must be positive, got %s", p.RenewEvery)
	case p.RenewEvery >= p.TTL:
		return fmt.Errorf("renew interval %s must be shorter than the ttl %s, or the lease lapses between renewals", p.RenewEvery, p.TTL)
	case p.RenewEvery > p.TTL/3*2:
		// The lab's clients never wait longer (Process caps its period
		// there), so a verdict on a slower renewal would describe a
		// client that no run has.
		return fmt.Errorf("renew interval %s must be at most two thirds of the ttl %s (%s): clients renew well before the lease runs out (etcd's at a third of the TTL), and the lab's never wait longer than two thirds", p.RenewEvery, p.TTL, p.TTL/3*2)
	case p.PauseBudget < 0:
		return fmt.Errorf("pause budget must not be negative, got %s", p.PauseBudget)
	case p.RoundTrip < 0:
		return fmt.Errorf("round trip must not be negative, got %s", p.RoundTrip)
	}
	if _, err := p.need(); err != nil {
		return fmt.Errorf("2 x renew %s + pause %s: %w", p.RenewEvery, p.PauseBudget, err)
	}
	return nil
}

// need is 2 x RenewEvery + PauseBudget, checked for overflow.
func (p LeasePolicy) need() (time.Duration, error) {
	twice, err := MulDuration(p.RenewEvery, 2)
	if err != nil {
		return 0, err
	}
	return AddDurations(twice, p.PauseBudget)
}

// Check applies the rule: 2 x renew_every + pause_budget < ttl, with more
// than the round trip to spare. It is the one rule the lab judges a lease
// policy by (the leases lesson, the sandbox, labctl policy and the
// exercises all call it). Call it on a policy that passed Validate: a sum
// too large for a Duration is taken as the largest one, which no TTL
// covers.
//
// The seed writes the rule with <=. The lab keeps it strict: at exactly
// zero margin a renewal lost on waking from the worst pause is retried
// one interval later, reaching the coordinator as the lease ends, and a
// renewal that arrives at the expiry is refused.
func (p LeasePolicy) Check() PolicyVerdict {
	need, err := p.need()
	if err != nil {
		need = math.MaxInt64
	}
	v := PolicyVerdict{Need: need, Margin: p.TTL - need, Left: p.TTL - p.RenewEvery, policy: p}
	v.OK = need < p.TTL && v.Margin > p.RoundTrip
	v.Explanation = v.Explain(SystemEtcd.Words())
	v.Shorter = []string{v.Rule()}
	return v
}

// PauseAloneLapses reports whether the pause budget alone, with no
// renewal lost, can outlast the lease: a pause that begins just before a
// renewal finds Left of the lease, and one longer than that outlasts it.
// At exactly Left the pause ends as the lease does, and the renewal sent
// on waking wins or loses that race by the network's jitter, so it is not
// said to outlast it.
func (v PolicyVerdict) PauseAloneLapses() bool { return v.policy.PauseBudget > v.Left }

// Rule is the verdict's first clause: the rule and its sums ("lease
// policy leaves no renewal margin: 2 x 3 s + 20 s = 26 s > ttl 8 s (short
// by 18 s)"), which every system words alike: the shortest wording of the
// verdict, for where the whole does not fit.
func (v PolicyVerdict) Rule() string {
	p := v.policy
	sum := fmt.Sprintf("2 x %s + %s = %s", Seconds(p.RenewEvery), Seconds(p.PauseBudget), Seconds(v.Need))
	switch {
	case v.OK:
		return fmt.Sprintf("lease policy leaves renewal margin: %s < %s (%s to spare)", sum, p.ttlWords(), Seconds(v.Margin))
	case v.Need > p.TTL:
		return fmt.Sprintf("lease policy leaves no renewal margin: %s > %s (short by %s)", sum, p.ttlWords(), Seconds(-v.Margin))
	case v.Need == p.TTL:
		return fmt.Sprintf("lease policy leaves no renewal margin: %s = %s (nothing to spare)", sum, p.ttlWords())
	}
	return fmt.Sprintf("lease policy leaves no renewal margin: %s < %s (%s to spare, no more than the round trip of %s)", sum, p.ttlWords(), Seconds(v.Margin), Seconds(p.RoundTrip))
}

// Explain is the verdict in a system's words: who ends the lease, and
// who takes the lock when it ends. Every number it cites is the policy's
// or computed from it, and it says a pause "can outlast the lease" only
// when PauseAloneLapses.
func (v PolicyVerdict) Explain(w SystemWords) string {
	p := v.policy
	sum := fmt.Sprintf("2 x %s + %s = %s", Seconds(p.RenewEvery), Seconds(p.PauseBudget), Seconds(v.Need))
	trip := ""
	if p.RoundTrip > 0 {
		trip = fmt.Sprintf(" round trip of %s", Seconds(p.RoundTrip))
	}
	if v.OK {
		spare := ""
		if trip != "" {
			spare = ", more than the" + trip
		}
		return fmt.Sprintf("lease policy leaves renewal margin: %s < %s (%s to spare%s): a pause that begins just before a renewal finds %s = %s left, and even if the renewal sent on waking is lost, the next one lands before %s",
			sum, p.ttlWords(), Seconds(v.Margin), spare, p.leftWords(), Seconds(v.Left), w.LeaseEnds)
	}
	if v.PauseAloneLapses() {
		return fmt.Sprintf("lease policy leaves no renewal margin: %s > %s (short by %s), and the pause alone can outlast the lease: one that begins just before a renewal finds only %s = %s left, less than the %s pause, and %s while this process still believes it leads",
			sum, p.ttlWords(), Seconds(-v.Margin), p.leftWords(), Seconds(v.Left), Seconds(p.PauseBudget), w.Takes)
	}
	var head string
	switch {
	case v.Need > p.TTL:
		head = fmt.Sprintf("%s > %s (short by %s)", sum, p.ttlWords(), Seconds(-v.Margin))
	case v.Need == p.TTL:
		head = fmt.Sprintf("%s = %s (nothing to spare)", sum, p.ttlWords())
	default:
		head = fmt.Sprintf("%s < %s (%s to spare, no more than the%s)", sum, p.ttlWords(), Seconds(v.Margin), trip)
	}
	alone := fmt.Sprintf("a %s pause that begins just before a renewal finds %s = %s left and survives, as long as the renewal sent on waking arrives", Seconds(p.PauseBudget), p.leftWords(), Seconds(v.Left))
	if p.PauseBudget == v.Left {
		alone = fmt.Sprintf("a %s pause that begins just before a renewal finds exactly %s = %s left: it wakes as the lease runs out, and its renewal lands in time only if it travels faster than the one before it", Seconds(p.PauseBudget), p.leftWords(), Seconds(v.Left))
	}
	late := fmt.Sprintf("too late: %s first", w.LeaseEnds)
	if v.Need <= p.TTL {
		late = "just as the lease runs out (the network's jitter decides which comes first), and a renewal that arrives at the expiry is refused"
	}
	return fmt.Sprintf("lease policy leaves no renewal margin for a missed renewal: %s. The rule keeps room for one lost renewal on top of the worst pause: %s; if that renewal is lost, the next one goes %s later, %s; then %s while this process still believes it leads",
		head, alone, Seconds(p.RenewEvery), late, w.Takes)
}

// secs writes a length as Go does ("10s", "1.5s"), for the texts the
// trace records (the system clients' notes); what the learner reads
// elsewhere is written by Seconds ("10 s").
func secs(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.String()
}
