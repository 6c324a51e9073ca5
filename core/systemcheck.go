package core

import (
	"fmt"
)

// checkSystem refuses what the chosen system cannot run.
func (c ContentionConfig) checkSystem() error {
	if !c.System.known() {
		return fmt.Errorf("system %s is not modelled in this build", c.System)
	}
	return c.System.rules().checkContention(c)
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
