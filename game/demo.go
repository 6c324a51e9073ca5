package game

import (
	"fmt"
	"image/color"
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game/draw"
	"leaselab/game/ui"
)

// The demo shows the player's layout and drawing with a scripted story in
// place of the simulator: leader A's lease lapses while it is paused, B takes
// over with a higher fencing token, and the store rejects A's stale write.
// The simulator views replace demoWorld and demoTimeline.

// DemoLesson is the lesson text the demo shows.
var DemoLesson = Lesson{
	Title: "Leases and fencing tokens",
	Body: "A lease is a lock with an expiry date. The coordinator grants it for a fixed " +
		"time to live (TTL), and the holder has to renew it before that time runs out. " +
		"If the holder stops for a while (a long garbage-collection pause, a frozen " +
		"virtual machine) its renewals stop too, the lease expires, and the coordinator " +
		"lets another process take the lock.\n\n" +
		"The paused process knows none of this. When it wakes up, its own clock says " +
		"the lease still has time left, because it counts from the moment its last " +
		"renewal reply arrived. For a while two processes both believe they lead.\n\n" +
		"Belief is not safety. Each time the lock changes hands, the coordinator hands " +
		"out a fencing token: a number that only ever grows, such as the revision at " +
		"which the lock was taken. The holder sends its token with every write, and the " +
		"store remembers the highest token it has accepted. A write that carries a " +
		"smaller token comes from a holder that has already been replaced, so the store " +
		"turns it away.\n\n" +
		"In this lesson you pause the leader past its lease, watch a second process take " +
		"over, and then let the old leader try to write.",
	Goals: []draw.Goal{
		{Text: "Pause the leader until its lease expires"},
		{Text: "See the store reject the old leader's write"},
	},
	Hints: []string{
		"Pause the leader for longer than the TTL: its renewals stop, so the coordinator lets the lease lapse.",
		"Resume the old leader and watch its next write: its token is lower than the one the store has seen.",
	},
}

// The scripted story, in seconds.
const (
	demoLength   = 12.0
	demoTTL      = 5.0
	demoPauseAt  = 4.2 // A's last renewal was at 4
	demoTakeover = 9.0 // A's lease expires at 4 + TTL; B acquires
	demoBelief   = 9.6 // A's own deadline: 4 + TTL + the reply's delay
	demoStale    = 10.4
	demoFresh    = 11.2
	tokenA       = 7
	tokenB       = 12
)

// NewDemo returns the lesson player running the scripted demo.
func NewDemo() *Player {
	c := &DemoClock{}
	return NewPlayer(DemoLesson, c, &demoWorld{clock: c}, &demoTimeline{clock: c})
}

// DemoClock is a Clock over the scripted story; it loops at the end.
type DemoClock struct{ now time.Duration }

func (c *DemoClock) Now() time.Duration    { return c.now }
func (c *DemoClock) Length() time.Duration { return time.Duration(demoLength * float64(time.Second)) }
func (c *DemoClock) Advance(d time.Duration) {
	c.now += d
	if c.now >= c.Length() {
		c.now -= c.Length()
	}
}

// Step moves to the next half second, where the story's events sit.
func (c *DemoClock) Step() {
	half := 500 * time.Millisecond
	c.Advance(half - c.now%half)
}

func (c *DemoClock) Seek(t time.Duration) { c.now = max(0, min(t, c.Length())) }
func (c *DemoClock) Fork()                {}

func (c *DemoClock) seconds() float64 { return c.now.Seconds() }

// leaseLeft is the fraction of A's lease left at t, by the coordinator
// (truth) or by A's own clock (belief).
func leaseLeft(t float64, belief bool) float64 {
	lastRenewal := math.Min(math.Floor(t/2)*2, 4)
	deadline := lastRenewal + demoTTL
	if belief {
		deadline += demoBelief - demoTakeover
	}
	return math.Max(0, math.Min(1, (deadline-t)/demoTTL))
}

type demoWorld struct {
	clock         *DemoClock
	reducedMotion bool
}

func (w *demoWorld) Update(st *State, _ ui.Rect) error {
	w.reducedMotion = st.ReducedMotion
	return nil
}

func (w *demoWorld) Draw(dst *ebiten.Image, area ui.Rect, s draw.Style) {
	th := s.Theme
	t := w.clock.seconds()
	in := area.Inset(s.U(14))
	caption, in := in.CutTop(s.U(20), s.U(6))
	draw.TextIn(dst, "World", s.Label(), caption, draw.AlignStart, th.TextDim)

	legend, in := in.CutBottom(s.U(18), s.U(10))
	R := math.Min(s.U(34), in.H/7)
	// Below a process: its outer ring (R+14u+2.5u), a gap and a 22u badge.
	below := R + s.U(16.5+22+22)
	coord := ui.Rect{X: in.X + in.W*0.5 - s.U(110), Y: in.Y + s.U(4), W: s.U(220), H: s.U(64)}
	store := ui.Rect{X: in.X + in.W*0.78 - s.U(95), Y: in.Y + in.H*0.52, W: s.U(190), H: s.U(112)}
	store.Y = math.Min(store.Y, in.MaxY()-store.H)
	a := ui.Point{X: in.X + in.W*0.18, Y: math.Min(in.Y+in.H*0.62, in.MaxY()-below-s.U(40))}
	b := ui.Point{X: in.X + in.W*0.46, Y: in.MaxY() - below}

	// Links first, under the nodes. The message dot travels A -> store
	// around the stale write; with reduced motion it waits at the middle.
	draw.Arrow(dst, ui.Point{X: a.X + R*0.6, Y: a.Y - R - s.U(14)}, ui.Point{X: coord.X + coord.W*0.3, Y: coord.MaxY() + s.U(4)}, s.U(2), s.U(10), th.Border)
	draw.Arrow(dst, ui.Point{X: b.X, Y: b.Y - R - s.U(14)}, ui.Point{X: coord.X + coord.W*0.6, Y: coord.MaxY() + s.U(4)}, s.U(2), s.U(10), th.Border)
	from, to := ui.Point{X: a.X + R + s.U(18), Y: a.Y}, ui.Point{X: store.X - s.U(4), Y: store.Y + store.H*0.3}
	draw.Arrow(dst, from, to, s.U(2), s.U(10), th.Border)
	if t > demoStale-0.8 && t < demoStale {
		f := 0.5
		if !w.reducedMotion {
			f = 1 - (demoStale-t)/0.8
		}
		dot := ui.Point{X: from.X + (to.X-from.X)*f, Y: from.Y + (to.Y-from.Y)*f}
		draw.FillCircle(dst, dot, s.U(6), th.Belief)
		draw.TextAligned(dst, fmt.Sprintf("write, token %d", tokenA), s.Mono(), dot.X, dot.Y-s.U(10), draw.AlignCenter, draw.AlignEnd, th.Text)
	}

	// Coordinator.
	s.Card(dst, coord)
	top, bottom := coord.Inset(s.U(8)).SplitV(0.5)
	draw.TextIn(dst, "Coordinator", s.Label(), top, draw.AlignCenter, th.Text)
	rev := tokenA
	if t >= demoTakeover {
		rev = tokenB
	}
	draw.TextIn(dst, fmt.Sprintf("revision %d", rev), s.Mono(), bottom, draw.AlignCenter, th.TextDim)

	// Processes with their lease rings: belief outside, truth inside.
	aState, bState := "leader", "follower"
	switch {
	case t >= demoPauseAt && t < demoStale-0.8:
		aState = "paused"
	case t >= demoBelief:
		aState = "follower"
	}
	if t >= demoTakeover {
		bState = "leader"
	}
	bLeft := 0.0
	if t >= demoTakeover {
		bLeft = 1 - (t-demoTakeover)/demoTTL*0.5
	}
	w.process(dst, s, a, R, "A", aState, leaseLeft(t, true), leaseLeft(t, false))
	w.process(dst, s, b, R, "B", bState, bLeft, bLeft)

	// Store with its highest token and the verdicts so far.
	s.Card(dst, store)
	rows := store.Inset(s.U(10))
	row, rows := rows.CutTop(s.U(22), s.U(4))
	draw.TextIn(dst, "Store", s.Label(), row, draw.AlignStart, th.Text)
	highest := 0
	type verdict struct {
		at       float64
		token    int
		accepted bool
	}
	for _, v := range []verdict{{2.5, tokenA, true}, {demoStale, tokenA, false}, {demoFresh, tokenB, true}} {
		if t < v.at {
			continue
		}
		if v.accepted {
			highest = v.token
		}
	}
	row, rows = rows.CutTop(s.U(22), s.U(4))
	draw.TextIn(dst, fmt.Sprintf("highest token %d", highest), s.Mono(), row, draw.AlignStart, th.TextDim)
	if t >= demoStale {
		row, _ = rows.CutTop(s.U(24), 0)
		s.Verdict(dst, ui.Point{X: row.X + s.U(10), Y: row.Y + row.H/2}, s.U(20), false)
		_, label := row.CutLeft(s.U(28), 0)
		draw.TextIn(dst, fmt.Sprintf("token %d rejected", tokenA), s.Mono(), label, draw.AlignStart, th.Text)
	}

	// Legend.
	w.legendItem(dst, s, legend, "belief (the process's clock)", th.Belief)
	_, right := legend.CutLeft(s.U(250), 0)
	w.legendItem(dst, s, right, "truth (the coordinator)", th.Truth)
}

func (w *demoWorld) process(dst *ebiten.Image, s draw.Style, c ui.Point, r float64, name, state string, belief, truth float64) {
	th := s.Theme
	draw.Ring(dst, c, r+s.U(14), s.U(5), belief, th.Raised, th.Belief)
	draw.Ring(dst, c, r+s.U(6), s.U(5), truth, th.Raised, th.Truth)
	draw.FillCircle(dst, c, r, th.Raised)
	draw.TextAligned(dst, name, s.Title(), c.X, c.Y, draw.AlignCenter, draw.AlignCenter, th.Text)
	badge := ui.Rect{X: c.X - s.U(44), Y: c.Y + r + s.U(22), W: s.U(88), H: s.U(22)}
	clr := th.Raised
	if state == "leader" {
		clr = th.Pressed
	}
	draw.FillRoundRect(dst, badge, badge.H/2, clr)
	draw.TextIn(dst, state, s.Small(), badge, draw.AlignCenter, th.Text)
}

func (w *demoWorld) legendItem(dst *ebiten.Image, s draw.Style, r ui.Rect, label string, clr color.Color) {
	y := r.Y + r.H/2
	draw.Line(dst, ui.Point{X: r.X, Y: y}, ui.Point{X: r.X + s.U(18), Y: y}, s.U(4), clr)
	_, rest := r.CutLeft(s.U(24), 0)
	draw.TextIn(dst, label, s.Small(), rest, draw.AlignStart, s.Theme.TextDim)
}
