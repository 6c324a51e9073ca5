package core

import "slices"

// ownSet is a worker's owned shards, kept sorted by shard number: the
// worker walks them in order on every renewal, commit and deadline check,
// which a map would make it sort each time.
type ownSet []ownEntry

type ownEntry struct {
	shard int
	o     *owned
}

func (s ownSet) find(sh int) (int, bool) {
	return slices.BinarySearchFunc(s, sh, func(e ownEntry, sh int) int { return e.shard - sh })
}

// get returns the belief about shard sh, or nil.
func (s ownSet) get(sh int) *owned {
	if i, ok := s.find(sh); ok {
		return s[i].o
	}
	return nil
}

// set records o for shard sh, replacing any earlier belief.
func (s *ownSet) set(sh int, o *owned) {
	i, ok := s.find(sh)
	if ok {
		(*s)[i].o = o
		return
	}
	*s = slices.Insert(*s, i, ownEntry{shard: sh, o: o})
}

// del forgets shard sh.
func (s *ownSet) del(sh int) {
	if i, ok := s.find(sh); ok {
		*s = slices.Delete(*s, i, i+1)
	}
}

// shards returns the shard numbers, sorted, in a slice of their own.
func (s ownSet) shards() []int {
	out := make([]int, len(s))
	for i, e := range s {
		out[i] = e.shard
	}
	return out
}

// cloneInto copies s into dst's storage (reusing its beliefs where it has
// them), deep: the copy shares no belief with s.
func (s ownSet) cloneInto(dst ownSet) ownSet {
	spare := make([]*owned, 0, len(dst))
	for _, e := range dst {
		spare = append(spare, e.o)
	}
	dst = dst[:0]
	for _, e := range s {
		var o *owned
		if n := len(spare); n > 0 {
			o, spare = spare[n-1], spare[:n-1]
		} else {
			o = new(owned)
		}
		*o = *e.o
		dst = append(dst, ownEntry{shard: e.shard, o: o})
	}
	return dst
}
