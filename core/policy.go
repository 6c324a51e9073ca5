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
}

// PolicyVerdict explains whether a policy leaves renewal margin.
type PolicyVerdict struct {
	OK bool
	// Need is 2 x RenewEvery + PauseBudget: room for one missed renewal,
	// a late retry, and the worst pause.
	Need time.Duration
	// Margin is TTL - Need; negative means the coordinator may revoke the
	// lease while the holder still believes it leads.
	Margin      time.Duration
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
	case p.PauseBudget < 0:
		return fmt.Errorf("pause budget must not be negative, got %s", p.PauseBudget)
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

// Check applies the rule 2 x renew_every + pause_budget <= ttl. Call it
// on a policy that passed Validate: a sum too large for a Duration is
// taken as the largest one, which no TTL covers.
func (p LeasePolicy) Check() PolicyVerdict {
	need, err := p.need()
	if err != nil {
		need = math.MaxInt64
	}
	v := PolicyVerdict{OK: need <= p.TTL, Need: need, Margin: p.TTL - need, policy: p}
	v.Explanation = v.Explain(SystemEtcd.Words())
	v.Shorter = []string{v.Rule()}
	return v
}

// Rule is the verdict's first clause: the rule and its sums ("lease
// policy leaves no renewal margin: 2 x 3 s + 20 s = 26 s > ttl 8 s (short
// by 18 s)"), which every system words alike.
func (v PolicyVerdict) Rule() string {
	p := v.policy
	sum := fmt.Sprintf("2 x %s + %s = %s", Seconds(p.RenewEvery), Seconds(p.PauseBudget), Seconds(v.Need))
	if v.OK {
		return fmt.Sprintf("lease policy leaves renewal margin: %s <= ttl %s (%s to spare)", sum, Seconds(p.TTL), Seconds(v.Margin))
	}
	return fmt.Sprintf("lease policy leaves no renewal margin: %s > ttl %s (short by %s)", sum, Seconds(p.TTL), Seconds(-v.Margin))
}

// Explain is the verdict in a system's words: who ends the lease, and
// who takes the lock when it ends.
func (v PolicyVerdict) Explain(w SystemWords) string {
	if v.OK {
		return fmt.Sprintf("%s: one renewal can be missed and a late retry still lands before %s, even after the worst pause", v.Rule(), w.LeaseEnds)
	}
	return fmt.Sprintf("%s: a pause of %s that starts just before a renewal can outlast the lease, and %s while this process still believes it leads",
		v.Rule(), Seconds(v.policy.PauseBudget), w.Takes)
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
