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
