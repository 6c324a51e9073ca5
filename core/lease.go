package core

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// LeaseID names a lease. It is shaped like a one-member etcd's: the
// member's ID in the top 16 bits, then a millisecond timestamp and a
// counter that every request the server proposes moves on (a grant takes
// two: one for the lease, one for its request). So on one member
// successive leases get *increasing* IDs (…804, …806, …808, measured on
// etcd 3.7.3), which is why they are mistaken for fencing tokens. They are
// not one: another member numbers from its own prefix, and an ID says
// nothing about which holder of a lock came later.
type LeaseID int64

// String is the ID as 16 hex digits, as etcdctl prints it (fmt's %016x,
// written out: it is in the trace of every grant and renewal).
func (id LeaseID) String() string {
	if id < 0 {
		return fmt.Sprintf("%016x", int64(id))
	}
	var b [16]byte
	for i, v := 15, uint64(id); i >= 0; i, v = i-1, v>>4 {
		b[i] = "0123456789abcdef"[v&15]
	}
	return string(b[:])
}

// MinPeriod is the shortest TTL or renewal interval a world accepts. The
// simulator has no floor of its own: with a TTL of a few nanoseconds the
// default renewal period TTL/3 is zero, and a zero-period timer re-arms at
// the same instant forever, so RunUntil never returns (the browser tab
// freezes); a microsecond TTL still costs millions of events per virtual
// second. Real coordinators are far above it (etcd TTLs are whole seconds).
const MinPeriod = time.Millisecond

// checkPeriods rejects a TTL or an explicit renewal interval below
// MinPeriod; a zero renewal interval means the default, TTL/3.
func checkPeriods(ttl, renewEvery time.Duration) error {
	if ttl < MinPeriod {
		return fmt.Errorf("ttl must be at least %s, got %s", MinPeriod, ttl)
	}
	if renewEvery != 0 && renewEvery < MinPeriod {
		return fmt.Errorf("renew interval must be at least %s, got %s", MinPeriod, renewEvery)
	}
	return nil
}

// WholeSeconds rounds a TTL up to whole seconds, the unit of etcd's
// LeaseGrant (its API takes an integer TTL in seconds).
func WholeSeconds(ttl time.Duration) time.Duration {
	if r := ttl % time.Second; r != 0 {
		ttl += time.Second - r
	}
	return ttl
}

// CheckEtcdTTL refuses a TTL etcd's API cannot ask for: a fraction of a
// second. (A TTL below the 2 s minimum is raised silently, as etcd does.)
func CheckEtcdTTL(ttl time.Duration) error {
	switch {
	case ttl%time.Second == 0:
	case ttl < 2*time.Second:
		return fmt.Errorf("etcd grants leases in whole seconds: a TTL of %s cannot be asked for (and etcd raises anything below 2s to 2s)", ttl)
	default:
		return fmt.Errorf("etcd grants leases in whole seconds: a TTL of %s cannot be asked for (use %s or %s)",
			ttl, ttl.Truncate(time.Second), WholeSeconds(ttl))
	}
	return nil
}

// Lease is a coordinator lease: it lives while renewed within its TTL and
// takes every attached key with it when it expires.
type Lease struct {
	ID     LeaseID
	TTL    time.Duration
	Expiry time.Duration // coordinator time at which the lease is dead
	Owner  string
	keys   []string // attached keys, in attach order
	// key0 holds the first attached key: most leases hold one key, and
	// need no slice of their own for it.
	key0 [1]string
	// idStr is ID.String(), made once for the trace of every grant,
	// renewal and end of the lease ("" until then).
	idStr string
	// renewed is the keepalive response for this lease, made once and
	// shared by every reply (see keepAliveOne).
	renewed Message
	// lastEv is the trace's Seq+1 of the grant or renewal that set Expiry
	// (Trace.cause after it): the cause of the lease's expiry.
	lastEv int32
	// ended is set when the lease is removed from the store (end): a
	// renewal that looked it up before finds it gone.
	ended bool
}

// idText returns the ID as the trace writes it (see LeaseID.String).
func (l *Lease) idText() string {
	if l.idStr == "" {
		l.idStr = l.ID.String()
	}
	return l.idStr
}

// Keys returns the keys attached to the lease.
func (l *Lease) Keys() []string { return l.keys }

func (l *Lease) attach(key string) {
	if !slices.Contains(l.keys, key) {
		if l.keys == nil {
			l.keys = l.key0[:0]
		}
		l.keys = append(l.keys, key)
	}
}

func (l *Lease) detach(key string) {
	if i := slices.Index(l.keys, key); i >= 0 {
		l.keys = slices.Delete(l.keys, i, i+1)
	}
}

// Lease returns a live lease, or nil.
func (c *Coordinator) Lease(id LeaseID) *Lease { return c.leases[id] }

// Leases returns the live leases in grant order.
func (c *Coordinator) Leases() []*Lease {
	out := make([]*Lease, 0, len(c.leaseOrder))
	for _, id := range c.leaseOrder {
		out = append(out, c.leases[id])
	}
	return out
}

// Grant creates a lease for owner. A TTL below MinTTL is raised to it
// silently, as etcd does.
func (c *Coordinator) Grant(owner string, ttl time.Duration) *Lease {
	if ttl < c.MinTTL {
		ttl = c.MinTTL
	}
	id := c.nextLeaseID()
	l := c.leaseSlab.one()
	*l = Lease{ID: id, TTL: ttl, Expiry: c.rules.expiry(c, ttl), Owner: owner}
	c.leases[id] = l
	c.leaseOrder = append(c.leaseOrder, id)
	c.firstExpiry = min(c.firstExpiry, l.Expiry)
	if c.sim.Trace.on(KindLeaseGrant) {
		c.trace(KindLeaseGrant, S(FLease, l.idText()), S(FOwner, owner), D(FTTL, ttl), D(FExpiry, l.Expiry))
	}
	l.lastEv = c.sim.Trace.cause
	c.armSweep()
	return l
}

// nextLeaseID takes the next ID as a one-member etcd does for a grant:
// the lease ID from its request-ID generator, then one for the request.
func (c *Coordinator) nextLeaseID() LeaseID {
	c.proposals += 2
	return LeaseID(c.memberPrefix | (c.idBase+c.proposals-1)&(1<<48-1))
}

// KeepAlive extends a live lease by its full TTL from now and returns the
// TTL, or ErrLeaseNotFound.
func (c *Coordinator) KeepAlive(id LeaseID) (time.Duration, error) {
	if ttl := c.extend(c.leases[id]); ttl != 0 {
		return ttl, nil
	}
	return 0, ErrLeaseNotFound
}

// extend is KeepAlive for a lease already looked up (nil: none). It
// returns the TTL, or 0 for a lease that is gone: past its expiry the
// lease is dead even before the sweep removes it, and etcd refuses the
// renewal too.
func (c *Coordinator) extend(l *Lease) time.Duration {
	if l == nil || l.Expiry <= c.sim.now {
		return 0
	}
	l.Expiry = c.sim.now + l.TTL
	l.lastEv = c.sim.Trace.cause
	c.Renewals++
	return l.TTL
}

// Revoke ends a lease now and deletes every attached key in one revision.
// invalidated marks a forced end (the holder did not let go): it arms the
// lock-delay of any lock the lease held. A clean release does not.
func (c *Coordinator) Revoke(id LeaseID, invalidated bool, why string) bool {
	l := c.leases[id]
	if l == nil {
		return false
	}
	c.end(l, KindLeaseRevoke, invalidated, why)
	return true
}

// end removes l and its keys: one revision for all of them.
func (c *Coordinator) end(l *Lease, kind Kind, invalidated bool, why string) {
	delete(c.leases, l.ID)
	l.ended = true
	if i := slices.Index(c.leaseOrder, l.ID); i >= 0 {
		c.leaseOrder = slices.Delete(c.leaseOrder, i, i+1)
	}
	var buf [4]string
	keys := append(buf[:0], l.keys...) // a copy: del edits l.keys

	c.proposals++ // the revoke is proposed even when it deletes nothing
	if len(keys) > 0 || c.rules.sessionWrites() {
		// ZooKeeper's closeSession and Consul's session destroy are
		// writes of their own, with or without keys.
		c.Rev++
	}
	if c.sim.Trace.on(kind) {
		c.trace(kind, S(FLease, l.idText()), S(FOwner, l.Owner), I(FKeys, int64(len(keys))), I(FRev, c.Rev), S(FWhy, why))
	}
	for _, k := range keys {
		if invalidated {
			c.armLockDelay(k)
		}
		c.del(k)
	}
	c.rules.ended(c, l, kind)
}

// armSweep arms the next sweep tick. The ticker is not a queued event:
// the coordinator keeps its due time and sequence number and Sim.Step
// fires it in its place in the (time, sequence) order, so a tick costs no
// heap traffic. It takes its sequence number when armed, exactly as a
// queued event would, so runs are the same event for event.
func (c *Coordinator) armSweep() {
	if c.sweepOrder != 0 {
		return
	}
	// Sweeps fall on multiples of SweepEvery, like a server-side ticker
	// (ZooKeeper's expirer: SweepEvery is its tickTime); Consul has a
	// timer per session (see each system's nextSweep).
	c.sweepAt = c.rules.nextSweep(c)
	c.sweepOrder = c.sim.nextSeq()
}

// sweepFirst reports whether the armed sweep tick comes before e.
func (c *Coordinator) sweepFirst(e *event) bool {
	return c.sweepAt < e.at || c.sweepAt == e.at && c.sweepOrder < e.order
}

// sweep expires every lease whose expiry has passed. An expired lease can
// therefore live up to SweepEvery past its TTL, as in etcd.
func (c *Coordinator) sweep() {
	c.sweepOrder = 0
	if !c.canExpire() {
		return // no leader: nothing expires; the next one sweeps again
	}
	now := c.sim.now
	if now >= c.firstExpiry {
		// firstExpiry bounds every expiry from below (renewals only
		// raise them; a grant lowers the bound): before it, none is due.
		var dead []*Lease
		first := time.Duration(math.MaxInt64)
		for _, id := range c.leaseOrder {
			l := c.leases[id]
			if l.Expiry <= now {
				dead = append(dead, l)
			} else {
				first = min(first, l.Expiry)
			}
		}
		c.firstExpiry = first
		for _, l := range dead {
			// The expiry is caused by the last renewal the lease got (or
			// its grant): nothing came after it.
			c.sim.Trace.cause, c.sim.Trace.also = l.lastEv, 0
			c.end(l, KindLeaseExpire, true, "ttl elapsed without renewal")
		}
	}
	if len(c.leases) > 0 {
		c.armSweep()
	}
}

// keepAliveOne renews one lease, records the renewal of a lease that is
// still in the store (the cause of its expiry, should it come) and returns
// the response. A lease renewed answers with the same (lease, TTL) every
// time, so that response is made once per lease and shared by every reply
// (nothing changes a message after it is sent).
func (c *Coordinator) keepAliveOne(id LeaseID) Message {
	l := c.leases[id] // looked up once: a renewal is the commonest request
	ttl := c.extend(l)
	if l != nil && c.sim.Trace.on(KindLeaseRenew) {
		c.trace(KindLeaseRenew, S(FLease, l.idText()), S(FOwner, l.Owner), D(FExpiry, l.Expiry))
		l.lastEv = c.sim.Trace.cause
	}
	if ttl == 0 {
		return keepAliveResp{Results: []keepAliveResult{{Lease: id}}}
	}
	if l.renewed == nil {
		l.renewed = keepAliveResp{Results: []keepAliveResult{{Lease: id, TTL: ttl}}}
	}
	return l.renewed
}

// keepAliveMany renews several leases for from, records the renewal and
// returns the response. The renewal is recorded first, so each lease
// still in the store takes that record as the cause of its expiry
// (nothing else is recorded meanwhile). A client renews the same leases
// time after time, with the same request, and while they live gets the
// same answer: the answer it got last is sent again, shared, and a new
// one made only when something in it changed; and the leases the request
// names are looked up once for all its renewals (see renewal).
func (c *Coordinator) keepAliveMany(from string, ids []LeaseID) Message {
	c.trace(KindLeaseRenew, S(FOwner, from), I(FLeases, int64(len(ids))))
	rn := c.lastRenewal[from]
	if rn == nil {
		rn = &renewal{}
		if c.lastRenewal == nil {
			c.lastRenewal = map[string]*renewal{}
		}
		c.lastRenewal[from] = rn
	}
	last := rn.resp
	if last != nil && len(last.Results) != len(ids) {
		last = nil
	}
	if len(ids) == 0 || len(rn.ids) != len(ids) || &rn.ids[0] != &ids[0] {
		rn.ids, rn.leases = ids, c.leaseRefs.take(len(ids))
		for i, id := range ids {
			rn.leases[i] = c.leases[id]
		}
	}
	var res []keepAliveResult
	for i, id := range ids {
		l := rn.leases[i]
		if l != nil && l.ended {
			l = nil
		}
		ttl := c.extend(l)
		if l != nil {
			l.lastEv = c.sim.Trace.cause
		}
		r := keepAliveResult{Lease: id, TTL: ttl}
		if res == nil {
			if last != nil && last.Results[i] == r {
				continue
			}
			res = c.results.take(len(ids))
			if last != nil {
				copy(res, last.Results[:i])
			}
		}
		res[i] = r
	}
	if res == nil && last != nil {
		return last
	}
	resp := c.renewals.one()
	resp.Results = res
	rn.resp = resp
	return resp
}

// renewal is what keepAliveMany keeps for one client: the answer it made
// last, and the leases of the request it answered, looked up once (a
// lease is never added again once it ends, so one looked up as absent
// stays absent, and one that ended since says so).
type renewal struct {
	resp   *keepAliveResp
	ids    []LeaseID // the request's list: the same slice, renewal after renewal
	leases []*Lease  // ids' leases when first looked up (nil: none)
}
