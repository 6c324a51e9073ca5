package core

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Kubernetes leader election as client-go's tools/leaderelection does it.
//
// The coordinator plays the API server: it stores one Lease object per
// lock and updates it only with optimistic concurrency on its
// resourceVersion (here the key's mod revision, which is what the API
// server's etcd gives it). It never expires anything. Every judgement of
// expiry is a client's own: a candidate remembers when *it* saw the record
// change and treats the lease as expired once that observation time plus
// leaseDurationSeconds has passed on its clock.
//
//   - Candidates call tryAcquireOrRenew every RetryPeriod jittered by 1.2
//     (wait.JitterUntil, sliding: the wait starts when the try returns, and
//     lasts RetryPeriod x [1, 2.2)).
//   - A new leader renews at once, then every RetryPeriod after each
//     successful renew (wait.Until). A renew is a poll: it tries at once and
//     every RetryPeriod after the poll started, until RenewDeadline from the
//     poll's start; then the leader stops leading (OnStoppedLeading), even if
//     it has just seen someone else's record: its work goes on until then.
//   - A new leader writes leaseTransitions = the old value + 1 (the same
//     value when it renews its own record). Nothing checks that number:
//     fencing is off unless a resource is made to check it.
//   - leaseDurationSeconds is a whole number of seconds (client-go writes
//     int(LeaseDuration / time.Second)), and candidates use the holder's.
//   - A candidate sees a change only when the record's JSON changes, and
//     its times are whole seconds there (see LeaseRecord.raw).

// Kubernetes client-go's defaults (leaderelection.go's documentation and
// every component that embeds it): 15 s, 10 s, 2 s; JitterFactor 1.2.
const (
	KubeLeaseDuration = 15 * time.Second
	KubeRenewDeadline = 10 * time.Second
	KubeRetryPeriod   = 2 * time.Second
	KubeJitterFactor  = 1.2
)

// CheckKubeDurations refuses the durations NewLeaderElector refuses, with
// its own words and the numbers that broke them.
func CheckKubeDurations(lease, renewDeadline, retry time.Duration) error {
	switch {
	case lease <= renewDeadline:
		return fmt.Errorf("leaseDuration must be greater than renewDeadline (lease %s, renew deadline %s)", Seconds(lease), Seconds(renewDeadline))
	case renewDeadline <= time.Duration(KubeJitterFactor*float64(retry)):
		return fmt.Errorf("renewDeadline must be greater than retryPeriod*JitterFactor (renew deadline %s, 1.2 x retry %s = %s)",
			Seconds(renewDeadline), Seconds(retry), Seconds(time.Duration(KubeJitterFactor*float64(retry))))
	case lease < 1:
		return errors.New("leaseDuration must be greater than zero")
	case renewDeadline < 1:
		return errors.New("renewDeadline must be greater than zero")
	case retry < 1:
		return errors.New("retryPeriod must be greater than zero")
	}
	return nil
}

// LeaseRecord is a Lease object's spec as client-go reads and writes it.
// Times are the writer's clock (virtual time here); no reader trusts them.
type LeaseRecord struct {
	HolderIdentity       string
	LeaseDurationSeconds int
	AcquireTime          time.Duration
	RenewTime            time.Duration
	LeaseTransitions     int
}

// encode is the record as the Lease key's value: what a reader compares
// byte for byte to see whether anything changed (observedRawRecord).
func (r LeaseRecord) encode() string {
	return fmt.Sprintf("holder=%s duration=%ds acquire_ms=%d renew_ms=%d transitions=%d",
		r.HolderIdentity, r.LeaseDurationSeconds, r.AcquireTime.Milliseconds(), r.RenewTime.Milliseconds(), r.LeaseTransitions)
}

// raw is the record as a reader compares it to see whether anything
// changed: client-go marshals a LeaderElectionRecord, whose times are
// metav1.Time, to JSON in RFC 3339, whole seconds. So a renewal that
// leaves renewTime in the same second is no change at all to a candidate:
// with a RetryPeriod under a second, its observation of the holder's last
// renewal can be nearly a second old.
func (r LeaseRecord) raw() string {
	r.AcquireTime, r.RenewTime = r.AcquireTime.Truncate(time.Second), r.RenewTime.Truncate(time.Second)
	return r.encode()
}

// ParseLeaseRecord reads a Lease key's value back.
func ParseLeaseRecord(s string) (LeaseRecord, error) {
	var r LeaseRecord
	for _, f := range strings.Fields(s) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return r, fmt.Errorf("lease record: %q is not key=value", f)
		}
		var err error
		switch k {
		case "holder":
			r.HolderIdentity = v
		case "duration":
			r.LeaseDurationSeconds, err = strconv.Atoi(strings.TrimSuffix(v, "s"))
		case "acquire_ms", "renew_ms":
			var ms int64
			ms, err = strconv.ParseInt(v, 10, 64)
			if k == "acquire_ms" {
				r.AcquireTime = time.Duration(ms) * time.Millisecond
			} else {
				r.RenewTime = time.Duration(ms) * time.Millisecond
			}
		case "transitions":
			r.LeaseTransitions, err = strconv.Atoi(v)
		}
		if err != nil {
			return r, fmt.Errorf("lease record %s: %w", k, err)
		}
	}
	return r, nil
}

// KubeLeaseKey is where the coordinator keeps the Lease object of lock.
func KubeLeaseKey(lock string) string {
	return "leases/" + strings.ReplaceAll(lock, "/", "-")
}

// LeaseObject returns the Lease record of lock and its resourceVersion,
// or false if nobody has created it.
func (c *Coordinator) LeaseObject(lock string) (LeaseRecord, int64, bool) {
	kv := c.kv[KubeLeaseKey(lock)]
	if kv == nil {
		return LeaseRecord{}, 0, false
	}
	r, err := ParseLeaseRecord(kv.Value)
	return r, kv.ModRev, err == nil
}

// API server messages: a Get, a Create or an Update of a Lease.
type (
	kubeLeaseReq struct {
		noToken
		Op   kubeOp
		Seq  uint64 // the client's request number: answers to abandoned requests are dropped
		Lock string
		RV   int64 // Update: the resourceVersion the client read
		Rec  LeaseRecord
	}
	kubeLeaseResp struct {
		noToken
		Op    kubeOp
		Seq   uint64
		Found bool
		RV    int64
		Rec   LeaseRecord
		Err   string
	}
)

type kubeOp uint8

const (
	kubeGet kubeOp = iota + 1
	kubeCreate
	kubeUpdate
)

var kubeOpNames = [...]string{"", "Get", "Create", "Update"}

func (m kubeLeaseReq) Kind() string  { return "Lease" + kubeOpNames[m.Op] }
func (m kubeLeaseResp) Kind() string { return "Lease" + kubeOpNames[m.Op] + "Response" }

// serve answers a Lease request (see servedRequest).
func (m kubeLeaseReq) serve(c *Coordinator, from string) Message { return c.kubeLease(from, m) }

// kubeLease serves one Lease request as the API server does: Get returns
// the object or NotFound; Create fails if it exists; Update fails with a
// conflict unless the client's resourceVersion is the current one. The
// coordinator's holder truth follows holderIdentity.
func (c *Coordinator) kubeLease(from string, m kubeLeaseReq) kubeLeaseResp {
	key := KubeLeaseKey(m.Lock)
	resp := kubeLeaseResp{Op: m.Op, Seq: m.Seq}
	name := strings.TrimPrefix(key, "leases/")
	old := c.kv[key]
	switch m.Op {
	case kubeGet:
		if old == nil {
			resp.Err = fmt.Sprintf("leases.coordination.k8s.io %q not found", name)
			return resp
		}
		rec, err := ParseLeaseRecord(old.Value)
		if err != nil {
			resp.Err = err.Error()
			return resp
		}
		resp.Found, resp.RV, resp.Rec = true, old.ModRev, rec
		return resp
	case kubeCreate:
		if old != nil {
			resp.Err = fmt.Sprintf("leases.coordination.k8s.io %q already exists", name)
			return resp
		}
	case kubeUpdate:
		if old == nil {
			resp.Err = fmt.Sprintf("leases.coordination.k8s.io %q not found", name)
			return resp
		}
		if old.ModRev != m.RV {
			resp.Err = fmt.Sprintf("Operation cannot be fulfilled on leases.coordination.k8s.io %q: the object has been modified; please apply your changes to the latest version and try again", name)
			c.trace(KindDenied, S(FWho, from), S(FOp, "update"), S(FKey, key), S(FWhy, "conflict: resourceVersion "+strconv.FormatInt(m.RV, 10)+" is not the current "+strconv.FormatInt(old.ModRev, 10)))
			return resp
		}
	}
	was := ""
	if old != nil {
		if r, err := ParseLeaseRecord(old.Value); err == nil {
			was = r.HolderIdentity
		}
	}
	if err := c.Put(from, key, m.Rec.encode(), 0); err != nil {
		resp.Err = err.Error()
		return resp
	}
	kv := c.kv[key]
	resp.Found, resp.RV, resp.Rec = true, kv.ModRev, m.Rec
	if now := m.Rec.HolderIdentity; now != was {
		// A Lease has no token the coordinator hands out: the holder
		// events carry leaseTransitions, which nothing checks.
		if was != "" {
			c.trace(KindFree, S(FLock, m.Lock), S(FWas, was), S(FWhy, "record overwritten by "+now))
		}
		if now != "" {
			c.trace(KindHolder, S(FLock, m.Lock), S(FOwner, now), S(FKey, key), I(FLeaseTransitions, int64(m.Rec.LeaseTransitions)), I(FResourceVersion, kv.ModRev))
		}
	}
	return resp
}

// kubernetesSystem is client-go's leader election: its API server keeps
// its Lease objects in etcd, so the server is etcd's, answering
// kubeLeaseReq by its serve method.
type kubernetesSystem struct {
	etcdServer
	libraryConfig
}

func (kubernetesSystem) newClient() clientRules { return &kubeClient{} }

// kubeClient is one LeaderElector's state inside a Process: what it last
// observed of the Lease and when, and the request it is waiting for.
type kubeClient struct {
	etcdClient // no session to revoke, nothing a crash forgets

	observed     LeaseRecord
	observedRaw  string
	observedTime time.Duration
	rv           int64 // resourceVersion of the object it last read or wrote
	haveObject   bool

	seq      uint64 // request numbers (0: none in flight)
	inflight kubeOp
	fast     bool // the in-flight Update is the leader's fast path
	tryStart time.Duration
	rec      LeaseRecord // the record this try writes

	renewing  bool          // leading: tries are renewals inside a poll
	pollStart time.Duration // the current renew poll began
	nextTick  time.Duration // its next tick
}

func (k *kubeClient) clone() clientRules { c := *k; return &c }

// isLeader: the Lock's identity is the process name.
func (k *kubeClient) isLeader(p *Process) bool { return k.observed.HolderIdentity == p.cfg.Name }

// leaseValid is isLeaseValid: observation time + the holder's
// leaseDurationSeconds still after now.
func (k *kubeClient) leaseValid(now time.Duration) bool {
	return k.observedTime+time.Duration(k.observed.LeaseDurationSeconds)*time.Second > now
}

func (k *kubeClient) setObserved(p *Process, r LeaseRecord) {
	k.observed, k.observedTime = r, p.sim.now
}

// campaign starts a new LeaderElector: nothing observed yet.
func (k *kubeClient) campaign(p *Process) {
	if p.state != Follower {
		return
	}
	*k = kubeClient{}
	p.setState(Candidate, "campaign for "+p.cfg.Lock)
	k.try(p)
}

// try starts tryAcquireOrRenew.
func (k *kubeClient) try(p *Process) {
	now := p.sim.now
	k.tryStart = now
	k.rec = LeaseRecord{HolderIdentity: p.cfg.Name, LeaseDurationSeconds: int(p.cfg.TTL / time.Second), AcquireTime: now, RenewTime: now}
	if k.isLeader(p) && k.leaseValid(now) && k.haveObject {
		k.rec.AcquireTime, k.rec.LeaseTransitions = k.observed.AcquireTime, k.observed.LeaseTransitions
		k.send(p, kubeUpdate, true)
		return
	}
	k.send(p, kubeGet, false)
}

func (k *kubeClient) send(p *Process, op kubeOp, fast bool) {
	k.seq++
	k.inflight, k.fast = op, fast
	p.send(CoordinatorName, kubeLeaseReq{Op: op, Seq: k.seq, Lock: p.cfg.Lock, RV: k.rv, Rec: k.rec})
}

func (k *kubeClient) handle(p *Process, msg Message) bool {
	m, ok := msg.(kubeLeaseResp)
	if !ok {
		return false
	}
	if k.inflight == 0 || m.Seq != k.seq || (p.state != Candidate && p.state != Leader) {
		return true // an abandoned request (the renew deadline passed, or a new life)
	}
	k.inflight = 0
	switch m.Op {
	case kubeGet:
		if !m.Found {
			if !strings.HasSuffix(m.Err, "not found") {
				k.done(p, false, m.Err)
				return true
			}
			k.send(p, kubeCreate, false)
			return true
		}
		k.rv, k.haveObject = m.RV, true
		if raw := m.Rec.raw(); raw != k.observedRaw {
			k.setObserved(p, m.Rec)
			k.observedRaw = raw
		}
		if m.Rec.HolderIdentity != "" && k.leaseValid(k.tryStart) && !k.isLeader(p) {
			k.done(p, false, "lease is held by "+m.Rec.HolderIdentity+" and has not yet expired")
			return true
		}
		if k.isLeader(p) {
			k.rec.AcquireTime, k.rec.LeaseTransitions = m.Rec.AcquireTime, m.Rec.LeaseTransitions
		} else {
			k.rec.LeaseTransitions = m.Rec.LeaseTransitions + 1
		}
		k.send(p, kubeUpdate, false)
	case kubeCreate, kubeUpdate:
		if m.Err != "" {
			if k.fast {
				// Failed to update the lease optimistically: the slow path.
				k.send(p, kubeGet, false)
				return true
			}
			k.done(p, false, m.Err)
			return true
		}
		k.rv, k.haveObject = m.RV, true
		k.setObserved(p, k.rec) // observedRawRecord is only set by a Get
		k.done(p, true, "")
	}
	return true
}

// done ends a try: the acquire loop or the renew poll goes on.
func (k *kubeClient) done(p *Process, ok bool, why string) {
	if !k.renewing {
		if !ok {
			if why != "" && p.sim.Trace.on(KindNote) {
				p.trace(KindNote, S(FText, "acquire failed: "+why))
			}
			// wait.JitterUntil, sliding: RetryPeriod x [1, 2.2) from now.
			p.rearm(tmRetry, p.sim.jitter(p.cfg.RetryBase, KubeJitterFactor), fnCampaign)
			return
		}
		p.token = int64(k.observed.LeaseTransitions)
		k.renewing = true
		p.setState(Leader, fmt.Sprintf("acquired %s (leaseTransitions %d, which nothing checks)", p.cfg.Lock, p.token))
		p.batchPos = 0
		if p.cfg.WorkEvery > 0 {
			p.rearm(tmWork, p.cfg.WorkEvery, fnWork)
		}
		k.poll(p) // renew: wait.Until runs its first poll at once
		return
	}
	if ok {
		if p.sim.Trace.on(KindLeaseRenewed) {
			p.trace(KindLeaseRenewed, S(FLease, KubeLeaseKey(p.cfg.Lock)), D(FDeadline, p.sim.now+kubeRenewPeriod(p.cfg)+p.cfg.RenewDeadline), S(FHow, "renewed"))
		}
		p.stop(tmDeadline)
		p.rearm(tmRenew, kubeRenewPeriod(p.cfg), fnRenew) // the next poll
		return
	}
	if why != "" && p.sim.Trace.on(KindNote) {
		p.trace(KindNote, S(FText, "renew failed: "+why))
	}
	// The poll ticks RetryPeriod after its previous tick (not sliding).
	k.nextTick += kubeRenewPeriod(p.cfg)
	p.arm(tmRenew, k.nextTick, fnRecheck)
}

// kubeRenewPeriod is the RetryPeriod the leader renews on: RenewEvery if
// set, else RetryBase (client-go has one RetryPeriod for both loops; the
// presets set the two equal, the sandbox lets them differ).
func kubeRenewPeriod(c ProcessConfig) time.Duration {
	if c.RenewEvery > 0 {
		return c.RenewEvery
	}
	return c.RetryBase
}

// poll starts one renew poll: a try now, more every RetryPeriod, and a
// deadline RenewDeadline from now.
func (k *kubeClient) poll(p *Process) {
	k.pollStart, k.nextTick = p.sim.now, p.sim.now
	p.arm(tmDeadline, p.sim.now+p.cfg.RenewDeadline, fnDeadline)
	k.try(p)
}

// exec runs a Kubernetes process's tasks; it reports false for the
// tasks every system shares.
func (k *kubeClient) exec(p *Process, t task) bool {
	switch t.fn {
	case fnCampaign:
		if p.state == Candidate && !k.renewing {
			k.try(p) // the acquire loop's next try
		} else {
			k.campaign(p)
		}
	case fnRenew:
		if p.state == Leader {
			k.poll(p)
		}
	case fnRecheck:
		if p.state == Leader && k.inflight == 0 {
			k.try(p)
		}
	case fnDeadline:
		if p.state == Leader {
			// The poll's context is done: any request in flight is
			// abandoned and Run returns, calling OnStoppedLeading.
			k.inflight, k.renewing = 0, false
			p.stop(tmRenew)
			kubeStopLeading(p, fmt.Sprintf("no successful renew within the renew deadline %s", secs(p.cfg.RenewDeadline)))
		}
	default:
		return false
	}
	return true
}

// kubeStopLeading is OnStoppedLeading: the process stops its work; a new
// elector campaigns after RetryPeriod (a restarted component, jittered).
func kubeStopLeading(p *Process, why string) {
	p.stop(tmWork)
	p.setState(SteppingDown, why)
	p.after(p.cfg.StepDownFor, fnSteppedDown)
}

// The configuration's rules: NewLeaderElector's checks on the durations,
// a whole number of seconds, a leader renewing every RetryPeriod; its
// API server is etcd's, so a cluster of members is modelled.

func (kubernetesSystem) checkContention(c ContentionConfig) error {
	return CheckKubeDurations(c.TTL, c.RenewDeadline, max(c.RetryBase, c.RenewEvery))
}

func (kubernetesSystem) clustered() bool { return true }

func (kubernetesSystem) validateSandbox(c SandboxConfig, ttlOK bool) []FieldError {
	var errs []FieldError
	// A renewal slower than the lease has its own message on the
	// renew field; the durations rule would only repeat it on the TTL.
	if ttlOK && c.RetryBase > 0 && c.RenewEvery < c.TTL {
		if err := CheckKubeDurations(c.TTL, c.renewDeadline(), max(c.RetryBase, c.RenewEvery)); err != nil {
			errs = append(errs, FieldError{Field: FieldTTL, Msg: err.Error()})
		}
	}
	if c.TTL%time.Second != 0 {
		errs = append(errs, FieldError{Field: FieldTTL, Msg: fmt.Sprintf("a Lease stores leaseDurationSeconds, whole seconds: %s would be cut to %s", c.TTL, c.TTL.Truncate(time.Second))})
	}
	return libraryChecks(c, false, errs...)
}

// leaderRenewal: client-go's leader renews every RetryPeriod.
func (kubernetesSystem) leaderRenewal(c SandboxConfig) (time.Duration, bool) {
	if c.RenewEvery == 0 {
		return c.RetryBase, true
	}
	return 0, false
}

// budgetRenewal: an elector, leader or candidate, makes one request
// about every RetryPeriod.
func (kubernetesSystem) budgetRenewal(retry time.Duration) (time.Duration, bool) {
	return max(retry, time.Millisecond), true
}
