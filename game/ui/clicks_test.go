package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// tickWith is one tick's polled input after c has added what the poll
// missed.
func tickWith(c *Clicks, in Input) Input {
	c.Apply(&in)
	return in
}

// A press and release both between two ticks (a quick click at 3 frames a
// second) reach the widgets as a press at the next tick and a release at
// the one after, where the press was made.
func TestAClickBetweenTwoTicksIsAPressThenARelease(t *testing.T) {
	var c Clicks
	c.Add(true, Point{X: 40, Y: 50})
	c.Add(false, Point{X: 41, Y: 50})

	in := tickWith(&c, Input{Cursor: Point{X: 41, Y: 50}})
	p := in.Pointer()
	assert.True(t, p.JustDown && p.Down, "the press: %+v", p)
	assert.Equal(t, Point{X: 40, Y: 50}, p.Pos)

	in = tickWith(&c, Input{Cursor: Point{X: 41, Y: 50}})
	p = in.Pointer()
	assert.True(t, p.JustUp && !p.Down, "the release: %+v", p)
	assert.Equal(t, Point{X: 41, Y: 50}, p.Pos)

	in = tickWith(&c, Input{Cursor: Point{X: 41, Y: 50}})
	assert.Equal(t, Pointer{Pos: Point{X: 41, Y: 50}, Present: true}, in.Pointer(), "and then nothing more")
}

// Two quick clicks between two ticks are two clicks, one after the other.
func TestTwoClicksBetweenTwoTicksAreTwoClicks(t *testing.T) {
	var c Clicks
	for _, x := range []float64{10, 20} {
		c.Add(true, Point{X: x})
		c.Add(false, Point{X: x})
	}
	var downs []float64
	ups := 0
	for range 5 {
		in := tickWith(&c, Input{})
		p := in.Pointer()
		if p.JustDown {
			downs = append(downs, p.Pos.X)
		}
		if p.JustUp {
			ups++
		}
	}
	assert.Equal(t, []float64{10, 20}, downs)
	assert.Equal(t, 2, ups)
}

// A click the poll saw (the button down at a tick, up at a later one) is
// not replayed: the widgets get it once.
func TestAClickThePollSawIsNotReplayed(t *testing.T) {
	var c Clicks
	c.Add(true, Point{X: 5})
	in := tickWith(&c, Input{Cursor: Point{X: 5}, MouseDown: true, MouseJustDown: true})
	assert.True(t, in.MouseJustDown)
	c.Add(false, Point{X: 5})
	in = tickWith(&c, Input{Cursor: Point{X: 5}, MouseJustUp: true})
	assert.True(t, in.MouseJustUp)
	for range 3 {
		in = tickWith(&c, Input{Cursor: Point{X: 5}})
		assert.False(t, in.MouseJustDown || in.MouseJustUp || in.MouseDown, "nothing replayed: %+v", in)
	}
}

// A quick click right after a release the poll saw, in the same gap, is
// replayed after that release.
func TestAQuickClickAfterAReleaseThePollSawFollowsIt(t *testing.T) {
	var c Clicks
	c.Add(true, Point{X: 1})
	tickWith(&c, Input{MouseDown: true, MouseJustDown: true})
	c.Add(false, Point{X: 1})
	c.Add(true, Point{X: 9})
	c.Add(false, Point{X: 9})
	in := tickWith(&c, Input{MouseJustUp: true})
	assert.True(t, in.MouseJustUp && !in.MouseJustDown, "the poll's release first")
	in = tickWith(&c, Input{})
	assert.True(t, in.MouseJustDown)
	assert.Equal(t, Point{X: 9}, in.Cursor)
	in = tickWith(&c, Input{})
	assert.True(t, in.MouseJustUp)
}

// Edges kept between two ticks are bounded: a stalled tab does not grow
// them without end.
func TestClicksKeepABoundedNumberOfEdges(t *testing.T) {
	var c Clicks
	for range 10 * maxEdges {
		c.Add(true, Point{})
		c.Add(false, Point{})
	}
	assert.Len(t, c.edges, maxEdges)
}
