package core

import (
	"slices"
	"strconv"
)

// How a shard worker picks the shards it claims and gives back.

// AssignRule is how a shard worker picks the free shards it claims.
type AssignRule int

const (
	// AssignFair claims up to a fair share of the live workers and gives
	// extras back (the rebalancing rule below).
	AssignFair AssignRule = iota
	// AssignGreedy claims every free shard it sees and never gives any
	// back.
	AssignGreedy
	// AssignStatic claims only the shards whose number is Index modulo Of:
	// a fixed hash assignment that nobody takes over.
	AssignStatic
)

// rebalance moves the worker towards its fair share: claim free shards up
// to ceil(shards/live) (only up to floor(shards/live) while some other
// live worker is below that floor); release the highest-numbered extras above it; and
// when some live worker sits below floor(shards/live) while the free pool
// is empty, give back one shard above the floor so it can be claimed. Every
// worker applying the same rule bounds the imbalance to one shard.
func (w *ShardWorker) rebalance(m listShardsResp) {
	live := len(m.Live)
	if w.session == 0 || live == 0 || !slices.Contains(m.Live, w.cfg.Name) {
		return
	}
	target := (w.cfg.Shards + live - 1) / live
	floor := w.cfg.Shards / live
	switch w.cfg.Assign {
	case AssignGreedy:
		target, floor = w.cfg.Shards, 0
	case AssignStatic:
		var claim []int
		for _, sh := range m.Free {
			if w.cfg.Of > 0 && sh%w.cfg.Of == w.cfg.Index {
				claim = append(claim, sh)
			}
		}
		if len(claim) > 0 {
			w.send(CoordinatorName, claimShardsReq{Prefix: w.cfg.Prefix, Shards: claim, Session: w.sessionFor(), TTL: w.cfg.TTL})
		}
		return
	}
	have := len(w.own)
	starving := false
	for i, n := range m.Counts {
		starving = starving || (n < floor && m.Live[i] != w.cfg.Name)
	}
	// While another live worker is below the floor, claim only up to the
	// floor: free shards go to the starving first, and nobody ends two
	// above another when a failed worker's shards are handed out.
	limit := target
	if starving {
		limit = floor
	}
	switch {
	case have < limit && len(m.Free) > 0:
		// Start each worker at a different point of the free list so that
		// simultaneous claims mostly do not collide.
		idx := slices.Index(m.Live, w.cfg.Name)
		start := idx * len(m.Free) / live
		want := min(limit-have, len(m.Free))
		claim := make([]int, 0, want)
		for i := 0; i < want; i++ {
			claim = append(claim, m.Free[(start+i)%len(m.Free)])
		}
		w.send(CoordinatorName, claimShardsReq{Prefix: w.cfg.Prefix, Shards: claim, Session: w.sessionFor(), TTL: w.cfg.TTL})
	case have > target || (have > floor && starving && len(m.Free) == 0):
		keep := target
		if have <= target {
			keep = have - 1
		}
		mine := w.Owned()
		extra := mine[keep:]
		why := w.rebalanceWhy(live, target)
		for _, sh := range extra {
			w.drop(sh, why)
		}
		w.send(CoordinatorName, releaseShardsReq{Prefix: w.cfg.Prefix, Shards: extra})
	}
}

// rebalanceWhy is why the worker gives shards back, made once for each
// number of live workers and fair share.
func (w *ShardWorker) rebalanceWhy(live, target int) string {
	if w.why.live != live || w.why.target != target || w.why.text == "" {
		w.why.live, w.why.target = live, target
		w.why.text = "rebalance: " + strconv.Itoa(live) + " live workers, fair share " + strconv.Itoa(target)
	}
	return w.why.text
}
