package core

import (
	"strconv"
)

// Shard locks: a family of one-key locks the shard workers scan, claim and
// release in batches (listShards, claimShards, releaseShards), with the
// set's answers kept until a key in it changes.

// shardSet is a family of one-key locks, "<prefix>000" to "<prefix>N-1".
type shardSet struct {
	prefix string
	keys   []string
	owned  int
	count  map[string]int // shards held per owner
	// counts caches count for the live workers listed in countsFor (the
	// coordinator's live list it was made for); nil once count changes.
	// Replies share it: it is never changed once made.
	counts    []int
	countsFor []string
	// reply is the last answer to a scan, made for replyFor; nil once a
	// key, a holder or a count of the set changes. untracked: some of the
	// set's keys are locks of another set (or no set), whose changes would
	// not clear reply or present, so no answer is kept and keys are looked
	// up. present says, by shard, whether its key exists (nil: untracked).
	reply     Message
	replyFor  listKey
	untracked bool
	present   []bool
}

// listKey is what a scan's answer depends on beside the set: how many
// shards it asked about and the live workers it saw.
type listKey struct {
	count   int
	liveGen uint64
}

func (c *Coordinator) shards(prefix string, count int) *shardSet {
	if set := c.lastSet; set != nil && set.prefix == prefix && len(set.keys) >= count {
		return set // every scan, claim and release asks for the same set
	}
	ls := c.locks[prefix+"#set"]
	if ls != nil && ls.set != nil && len(ls.set.keys) >= count {
		c.lastSet = ls.set
		return ls.set
	}
	set := &shardSet{prefix: prefix, count: map[string]int{}, keys: shardKeys(prefix, count)}
	states := make([]lockState, count)
	set.present = make([]bool, count)
	for i, k := range set.keys {
		if c.locks[k] == nil {
			states[i] = lockState{name: k, single: true, set: set, shard: i}
			c.locks[k] = &states[i]
		} else {
			set.untracked = true
		}
		set.present[i] = c.kv[k] != nil
	}
	if set.untracked {
		set.present = nil
	}
	c.locks[prefix+"#set"] = &lockState{name: prefix + "#set", set: set}
	c.lastSet = set
	return set
}

// shardKeys returns prefix + "000" ... (at least three digits, as "%03d"
// writes them) for count shards, all cut from one string.
func shardKeys(prefix string, count int) []string {
	var b []byte
	ends := make([]int, count)
	for i := range count {
		b = append(b, prefix...)
		for z := 100; z > 1 && i < z; z /= 10 { // pad to three digits
			b = append(b, '0')
		}
		b = strconv.AppendInt(b, int64(i), 10)
		ends[i] = len(b)
	}
	all := string(b)
	keys := make([]string, count)
	start := 0
	for i, end := range ends {
		keys[i], start = all[start:end], end
	}
	return keys
}

// WorkerPrefix holds one key per live shard worker, attached to its session.
const WorkerPrefix = "workers/"

// listShards answers a scan. Between two changes of the set's keys, holders
// or live workers every scan gets the same answer, so that answer is made
// once and shared (a message is never changed once sent).
func (c *Coordinator) listShards(m listShardsReq) Message {
	set := c.shards(m.Prefix, m.Count)
	key := listKey{count: m.Count, liveGen: c.liveGen}
	if set.reply != nil && set.replyFor == key {
		return set.reply
	}
	var resp listShardsResp
	switch {
	case set.owned >= m.Count:
	case set.present != nil:
		free := 0
		for _, p := range set.present[:m.Count] {
			if !p {
				free++
			}
		}
		if free > 0 {
			resp.Free = make([]int, 0, free)
		}
		for i, p := range set.present[:m.Count] {
			if !p {
				resp.Free = append(resp.Free, i)
			}
		}
	default:
		for i := 0; i < m.Count; i++ {
			if c.kv[set.keys[i]] == nil {
				resp.Free = append(resp.Free, i)
			}
		}
	}
	if c.live == nil {
		c.live = c.rangeValues(WorkerPrefix)
	}
	if len(c.live) > 0 {
		if set.counts == nil || len(set.countsFor) != len(c.live) || &set.countsFor[0] != &c.live[0] {
			set.counts, set.countsFor = make([]int, len(c.live)), c.live
			for i, w := range c.live {
				set.counts[i] = set.count[w]
			}
		}
		resp.Live, resp.Counts = c.live, set.counts
	}
	if set.untracked {
		return resp
	}
	set.reply, set.replyFor = resp, key
	return set.reply
}

func (c *Coordinator) claimShards(from string, m claimShardsReq) claimShardsResp {
	set := c.shards(m.Prefix, 0)
	res := claimShardsResp{Results: make([]shardClaim, 0, len(m.Shards))}
	for _, sh := range m.Shards {
		r := shardClaim{Shard: sh}
		if sh < 0 || sh >= len(set.keys) {
			res.Results = append(res.Results, r)
			continue
		}
		key := set.keys[sh]
		ls := c.locks[key]
		if c.kv[key] != nil || c.sim.now < ls.delayUntil {
			res.Results = append(res.Results, r)
			continue
		}
		lease := m.Session
		if lease == 0 {
			lease = c.Grant(from, m.TTL).ID
		}
		cmp := []Compare{{Key: key, Target: "create_revision", Int: 0}}
		if ok, err := c.Txn(from, cmp, []TxnOp{{Put: true, Key: key, Value: from, Lease: lease}}, nil); ok && err == nil {
			r.OK, r.Token, r.Lease = true, c.kv[key].Token, lease
		} else if m.Session == 0 {
			c.Revoke(lease, false, "claim failed")
		}
		res.Results = append(res.Results, r)
	}
	return res
}

func (c *Coordinator) releaseShards(from string, m releaseShardsReq) {
	set := c.shards(m.Prefix, 0)
	for _, sh := range m.Shards {
		if sh < 0 || sh >= len(set.keys) {
			continue
		}
		kv := c.kv[set.keys[sh]]
		if kv == nil || kv.Value != from {
			continue
		}
		if l := c.leases[kv.Lease]; l != nil && len(l.keys) == 1 && l.Owner == from {
			c.Revoke(l.ID, false, "shard released")
		} else {
			c.Delete(from, kv.Key)
		}
	}
}
