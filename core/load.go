package core

import (
	"slices"
	"time"
)

// The coordinator's load: every request counted, and per 100 ms window
// for the views' sparkline and peak.

// countRequest records one request for load measurement.
func (c *Coordinator) countRequest() {
	c.Requests++
	if c.noSeries {
		return
	}
	b := int(c.sim.now / (100 * time.Millisecond))
	for len(c.buckets) < b {
		c.buckets = append(c.buckets, c.current)
		c.current = 0
	}
	c.current++
}

// series returns requests per 100 ms window up to the last one with a
// request. Finished windows never change, so clones share them.
func (c *Coordinator) series() []int32 {
	if len(c.buckets) == 0 && c.current == 0 {
		return nil
	}
	return append(slices.Clip(c.buckets), c.current)
}

// PeakLoad returns the largest number of requests received in any 100 ms
// window so far, and when that window started.
func (c *Coordinator) PeakLoad() (int, time.Duration) {
	best, at := 0, 0
	for i, n := range c.series() {
		if int(n) > best {
			best, at = int(n), i
		}
	}
	return best, time.Duration(at) * 100 * time.Millisecond
}

// NoLoadSeries stops recording the load series from now on (Requests
// still counts): a world that is only measured, never drawn, such as one
// of an exercise check's many runs, need not keep it.
func (c *Coordinator) NoLoadSeries() { c.noSeries = true }

// LoadSeries returns requests per 100 ms window from time zero.
func (c *Coordinator) LoadSeries() []int32 { return c.series() }
