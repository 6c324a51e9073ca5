package core

import (
	"slices"
	"strings"
)

// The coordinator's list of keys (Coordinator.sorted), read in order: it
// is sorted when a reader asks for it, not at each change.

// Range returns the keys with the given prefix, sorted by key.
func (c *Coordinator) Range(prefix string) []*KeyValue {
	var out []*KeyValue
	keys := c.keys()
	i, _ := slices.BinarySearch(keys, prefix)
	for ; i < len(keys) && strings.HasPrefix(keys[i], prefix); i++ {
		out = append(out, c.kv[keys[i]])
	}
	return out
}

// keys returns every key, sorted (sorting the list if it is not).
func (c *Coordinator) keys() []string {
	if c.unsorted {
		slices.Sort(c.sorted)
		for i, k := range c.sorted {
			c.kv[k].pos = i
		}
		c.unsorted = false
	}
	return c.sorted
}

// rangeValues returns the values of the keys with the given prefix, in
// the keys' order, without sorting every key: the few that match are
// sorted on their own.
func (c *Coordinator) rangeValues(prefix string) []string {
	if !c.unsorted {
		i, _ := slices.BinarySearch(c.sorted, prefix)
		j := i
		for j < len(c.sorted) && strings.HasPrefix(c.sorted[j], prefix) {
			j++
		}
		out := make([]string, j-i)
		for k, key := range c.sorted[i:j] {
			out[k] = c.kv[key].Value
		}
		return out
	}
	keys := []string{} // not nil: an answer, even with no key
	for _, k := range c.sorted {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for i, k := range keys {
		keys[i] = c.kv[k].Value
	}
	return slices.Clip(keys)
}

// Keys returns every key, sorted.
func (c *Coordinator) Keys() []*KeyValue { return c.Range("") }
