package lab

import (
	"fmt"
	"strings"
	"time"

	"leaselab/core"
	"leaselab/lessons"
)

// addGroups sorts the processes into one group per lock, in order of
// first appearance, with each lock's keys and its last handover's
// wake-ups.
func (lb *Lab) addGroups(v *WorldView) {
	s := lb.world.Sim
	idx := map[string]int{}
	for i, p := range s.Processes() {
		lock := p.Config().Lock
		g, ok := idx[lock]
		if !ok {
			g = len(v.Groups)
			idx[lock] = g
			info := s.Coord.LockInfo(lock)
			lg := LockGroup{Lock: info, Recipe: p.Config().Recipe}
			if lg.Lock.Name == "" {
				lg.Lock.Name = lock
			}
			for _, kv := range s.Coord.Range(lock + "/") {
				lg.Keys = append(lg.Keys, KeyView{Key: kv.Key, Owner: kv.Value, CreateRev: kv.CreateRev, Holder: kv.Key == info.Key})
			}
			v.Groups = append(v.Groups, lg)
		}
		v.Groups[g].Procs = append(v.Groups[g].Procs, i)
		v.Procs[i].Holder = v.Groups[g].Lock.Holder == p.Name()
	}
	if len(v.Groups) > 0 {
		v.Lock, v.Keys = v.Groups[0].Lock, v.Groups[0].Keys
	}
	// Wake-ups: every deletion of a lock's holding key, and the watches
	// it fired at the same instant.
	holderKey := map[string]string{} // lock -> holding key
	lockOf := func(key string) (string, bool) {
		for lock := range idx {
			if strings.HasPrefix(key, lock+"/") {
				return lock, true
			}
		}
		return "", false
	}
	live := map[string]int{}
	tr := s.Trace
	for e := range tr.All() {
		switch e.Kind {
		case core.KindHolder:
			if _, ok := idx[e.Lock()]; ok {
				holderKey[e.Lock()] = e.Key()
			}
		case core.KindPut:
			if lock, ok := lockOf(e.Key()); ok && e.CreateRev() == e.Rev() {
				live[lock]++
			}
		case core.KindDelete:
			lock, ok := lockOf(e.Key())
			if !ok {
				continue
			}
			live[lock]--
			if holderKey[lock] != e.Key() {
				continue
			}
			g := &v.Groups[idx[lock]]
			g.Handovers++
			g.Waiting, g.Woken = live[lock], 0
			for f := range tr.Span(e.Seq+1, tr.Len()) {
				if f.At != e.At || f.Kind == core.KindDelete {
					break
				}
				if f.Kind == core.KindWatchFire && f.Key() == e.Key() {
					g.Woken++
				}
			}
		}
	}
}

// addShards adds the shard workers, the shard map and the offset store.
func (lb *Lab) addShards(v *WorldView) {
	s := lb.world.Sim
	ws := s.Workers()
	if len(ws) == 0 && s.Offsets == nil {
		return
	}
	widx := map[string]int{}
	for i, w := range ws {
		widx[w.Name()] = i
		v.Workers = append(v.Workers, WorkerView{Name: w.Name(), Paused: w.Paused(), Crashed: w.Crashed(),
			Cut: s.Net.Cut(w.Name(), core.CoordinatorName) || s.Net.Cut(core.CoordinatorName, w.Name()), Owned: len(w.Owned()),
			HeldUntil: s.Net.Holding(w.Name())})
	}
	if o := s.Offsets; o != nil {
		v.Offsets = &OffsetsView{Name: o.Name, Fencing: o.Fencing, Commits: o.Commits, Rejected: o.Rejected,
			StaleAccepted: o.StaleAccepted, Regressions: o.Regressions}
		v.Shards = make([]int, len(o.Offset))
		for i := range v.Shards {
			v.Shards[i] = -1
			if h := s.Coord.LockInfo(fmt.Sprintf("stream/shard-%03d", i)).Holder; h != "" {
				if wi, ok := widx[h]; ok {
					v.Shards[i] = wi
					v.Workers[wi].Holds++
				}
			}
		}
	}
	v.Load = s.Coord.LoadSeries()
	v.Peak, v.PeakAt = s.Coord.PeakLoad()
	for _, kv := range s.Coord.Keys() {
		k := kv.Key
		if strings.HasPrefix(k, "stream/") || strings.HasPrefix(k, core.WorkerPrefix) {
			continue
		}
		inLock := false
		for _, g := range v.Groups {
			inLock = inLock || strings.HasPrefix(k, g.Lock.Name+"/")
		}
		if !inLock {
			v.Notes = append(v.Notes, NoteKey{Key: k, Value: kv.Value})
		}
	}
}

// MaxLanes is the most timeline lanes shown; beyond it the last lane
// summarises the rest.
const MaxLanes = 8

// Sweep returns the lesson's trade-off chart (lessons with a Sweep):
// failover time and false failovers for every whole second the swept
// knob allows, computed once.
func (lb *Lab) Sweep() []lessons.SweepPoint {
	if lb.sweep != nil {
		return lb.sweep
	}
	sw := lb.Lesson.Sweep
	if sw == nil {
		return nil
	}
	var knob *lessons.Knob
	for i := range lb.Lesson.Knobs {
		if lb.Lesson.Knobs[i].ID == sw.Knob {
			knob = &lb.Lesson.Knobs[i]
		}
	}
	if knob == nil {
		return nil
	}
	var ttls []time.Duration
	for t := knob.Min; t <= knob.Max; t += max(knob.Step, 1) {
		ttls = append(ttls, time.Duration(t*float64(time.Second)))
	}
	pts, err := lessons.TTLSweep(lb.Seed, ttls, sw.Pauses)
	if err != nil {
		lb.err = err
		return nil
	}
	lb.sweep = pts
	return pts
}
