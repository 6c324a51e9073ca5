package core

import (
	"fmt"
	"time"
)

// checkSystem refuses what the chosen system cannot run.
func (c ContentionConfig) checkSystem() error {
	switch c.System {
	case SystemEtcd, SystemZooKeeper:
	case SystemConsul:
		return CheckConsulTTL(c.TTL)
	case SystemKubernetes:
		return CheckKubeDurations(c.TTL, c.RenewDeadline, max(c.RetryBase, c.RenewEvery))
	case SystemRedlock:
		if c.RedisNodes < 1 || c.RedisNodes > MaxRedisNodes {
			return fmt.Errorf("redlock needs 1 to %d independent Redis nodes, got %d", MaxRedisNodes, c.RedisNodes)
		}
	default:
		return fmt.Errorf("system %s is not modelled in this build", c.System)
	}
	return nil
}

// renewDeadline is the Kubernetes RenewDeadline a sandbox runs with.
func (c SandboxConfig) renewDeadline() time.Duration {
	if c.RenewDeadline == 0 {
		return c.TTL * 2 / 3
	}
	return c.RenewDeadline
}

// redisNodes is the number of Redis nodes a Redlock sandbox runs.
func (c SandboxConfig) redisNodes() int {
	if c.RedisNodes == 0 {
		return 3
	}
	return c.RedisNodes
}

// systemRenewal is the renewal period the run budget charges a process of
// a system whose cost is not etcd's keepalives. A Kubernetes elector,
// leader or candidate, makes one request about every RetryPeriod. A
// Redlock client that does not hold the lock is the expensive one: a Lock
// call is up to 32 tries 50-250 ms apart, each a round to every node and
// one to give back what it won (about three keepalives' worth of events),
// then the application waits retry before calling Lock again.
func systemRenewal(s System, retry time.Duration) (time.Duration, bool) {
	switch s {
	case SystemKubernetes:
		return max(retry, time.Millisecond), true
	case SystemRedlock:
		lockCall := RedlockTries*(redlockMinDelay+redlockMaxDelay)/2 + retry
		return max(lockCall/(3*RedlockTries), time.Millisecond), true
	}
	return 0, false
}

// systemLockInfo is LockInfo for a lock that lives elsewhere than etcd's
// keys: a Kubernetes Lease (its holderIdentity, whatever anyone's clock
// says, and leaseTransitions as the token nothing checks) or the value a
// majority of Redis nodes hold (no token).
func (c *Coordinator) systemLockInfo(name string) (LockInfo, bool) {
	if rec, _, ok := c.LeaseObject(name); ok {
		return LockInfo{Name: name, Holder: rec.HolderIdentity, Key: KubeLeaseKey(name), Token: int64(rec.LeaseTransitions)}, true
	}
	if first := c.sim.RedisNode(RedisNodeName(1)); first != nil {
		info := LockInfo{Name: name}
		if v := first.truth[name]; v != "" {
			info.Holder, info.Key = RedlockOwner(v), "value "+v
		}
		return info, true
	}
	return LockInfo{}, false
}
