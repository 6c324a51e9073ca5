package core

import (
	"fmt"
	"strings"
	"time"
)

// client-go's LeaderElector as a Process with System Kubernetes runs it
// (the API server and the rules it follows: kubernetes.go), and the
// configuration's rules for Kubernetes.

// kubeClient is one LeaderElector's state inside a Process: what it last
// observed of the Lease and when, and the request it is waiting for.
type kubeClient struct {
	sharedClient // no session to revoke, nothing a crash forgets

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

// ownSetting: client-go polls one Lease object and counts its transitions;
// its renew deadline is the world's.
func (kubernetesSystem) ownSetting(id SettingID) string {
	switch id {
	case SettingRecipe:
		return "No queue: candidates poll the Lease object every retry period."
	case SettingFirstToken:
		return "The Lease counts leaseTransitions, but nothing checks it."
	case SettingLockDelay:
		return noLockDelay(SystemKubernetes)
	case SettingRenewDeadline:
		return ""
	}
	return libraryConfig{}.ownSetting(id)
}

func (kubernetesSystem) check(c SystemSettings, ttlOK bool) []SettingError {
	var errs []SettingError
	// A renewal slower than the lease has its own message on the
	// renew field; the durations rule would only repeat it on the TTL.
	if ttlOK && c.RetryBase > 0 && c.RenewEvery < c.TTL {
		if err := CheckKubeDurations(c.TTL, c.renewDeadline(), max(c.RetryBase, c.RenewEvery)); err != nil {
			errs = append(errs, SettingError{Setting: SettingTTL, Msg: err.Error()})
		}
	}
	if c.TTL%time.Second != 0 {
		errs = append(errs, SettingError{Setting: SettingTTL, Msg: fmt.Sprintf("a Lease stores leaseDurationSeconds, whole seconds: %s would be cut to %s", c.TTL, c.TTL.Truncate(time.Second))})
	}
	return libraryChecks(c, false, errs...)
}

// leaderRenewal: client-go's leader renews every RetryPeriod.
func (kubernetesSystem) leaderRenewal(c SystemSettings) (time.Duration, bool) {
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
