package core

import "strings"

// The coordinator's watches: one-shot, like ZooKeeper's, registered by a
// lock recipe on the key it waits for and fired by the write that changes
// it. A session's watches end with it.

type watch struct {
	id      int
	watcher string
	key     string
	prefix  bool
}

// watchKey registers a one-shot watch for watcher on key (or every key
// under it when prefix). Watches fire once, like ZooKeeper's; recipes
// re-register after each wake-up.
func (c *Coordinator) watchKey(watcher, key string, prefix bool) {
	c.nextWatch++
	c.watches = append(c.watches, &watch{id: c.nextWatch, watcher: watcher, key: key, prefix: prefix})
}

func (c *Coordinator) notify(key, typ string) {
	if len(c.watches) == 0 {
		return
	}
	kept := c.watches[:0]
	var fired []*watch
	for _, w := range c.watches {
		if w.key == key || (w.prefix && strings.HasPrefix(key, w.key)) {
			fired = append(fired, w)
			continue
		}
		kept = append(kept, w)
	}
	for i := len(kept); i < len(c.watches); i++ {
		c.watches[i] = nil
	}
	c.watches = kept
	for _, w := range fired {
		c.trace(KindWatchFire, S(FKey, key), S(FWatcher, w.watcher), S(FType, typ), S(FWatched, w.key))
		c.sim.Net.send(CoordinatorName, w.watcher, watchEvent{Key: key, Type: typ, Rev: c.Rev})
	}
}

// dropWatches forgets every watch of watcher (its session is gone).
func (c *Coordinator) dropWatches(watcher string) {
	kept := c.watches[:0]
	for _, w := range c.watches {
		if w.watcher != watcher {
			kept = append(kept, w)
		}
	}
	c.watches = kept
}

// Watchers returns how many watches are registered on key (exactly).
func (c *Coordinator) Watchers(key string) int {
	n := 0
	for _, w := range c.watches {
		if w.key == key {
			n++
		}
	}
	return n
}
