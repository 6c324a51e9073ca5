package ui

import "sync"

// Clicks keeps the primary button's presses and releases as the platform's
// events reported them (the browser's pointer events), so a click whose
// press and release both fall between two ticks still reaches the widgets.
// Ebitengine's polled state sees only whether the button is down at each
// tick: at 3 to 6 frames a second (a software renderer) a quick click is
// up again before the next tick and was lost. Apply, once a tick, replays
// such a click as a press in one tick and its release in the next.
type Clicks struct {
	mu    sync.Mutex
	edges []edge
	// owed are clicks not seen by the poll, each to be replayed as a
	// press then a release; up is set while the first one's release is
	// due this tick.
	owed []click
	up   bool
}

type edge struct {
	down bool
	at   Point
}

type click struct{ down, up Point }

// maxEdges bounds the edges kept between two ticks (a stalled tab), and
// maxOwed the clicks waiting to be replayed (two ticks each).
const (
	maxEdges = 64
	maxOwed  = 8
)

// Add records a press (down) or release of the primary button at p, in
// the input's pixels. It is safe to call from any goroutine.
func (c *Clicks) Add(down bool, p Point) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.edges) >= maxEdges {
		c.edges = c.edges[1:]
	}
	c.edges = append(c.edges, edge{down, p})
}

// Apply adds to in (this tick's polled input) the clicks the poll missed:
// each press followed by its release since the last tick, with neither
// seen by the poll, becomes a press now and a release at the next tick.
// A press the poll saw (the button down at a tick) changes nothing.
func (c *Clicks) Apply(in *Input) {
	c.mu.Lock()
	edges := c.edges
	c.edges = nil
	c.mu.Unlock()

	if len(in.Touches) > 0 || in.MouseDown || in.MouseJustDown {
		// The poll has the pointer in hand: its edges are the ones the
		// events reported, and a replay now would cross them.
		if !in.MouseDown && !in.MouseJustDown {
			return
		}
		c.owed, c.up = nil, false
		return
	}
	i := 0
	if in.MouseJustUp {
		// The poll saw this release (of a press it saw at an earlier
		// tick): the first release among the edges is it.
		for i < len(edges) && edges[i].down {
			i++
		}
		i++
	}
	var press *Point
	for ; i < len(edges); i++ {
		e := edges[i]
		switch {
		case e.down:
			p := e.at
			press = &p
		case press != nil:
			if len(c.owed) < maxOwed {
				c.owed = append(c.owed, click{down: *press, up: e.at})
			}
			press = nil
		}
	}
	if len(c.owed) == 0 || in.MouseJustUp {
		return
	}
	k := c.owed[0]
	if c.up {
		in.Cursor, in.MouseJustUp = k.up, true
		c.owed, c.up = c.owed[1:], false
		return
	}
	in.Cursor, in.MouseDown, in.MouseJustDown = k.down, true, true
	c.up = true
}
