package lab

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/lessons"
)

func fenced(t *testing.T) *Lab {
	t.Helper()
	l, err := lessons.Find("fenced-writes")
	if err != nil {
		t.Fatal(err)
	}
	lb, err := New(l, 1)
	if err != nil {
		t.Fatal(err)
	}
	return lb
}

func pauseA(lb *Lab) error {
	return lb.Do(core.Pause("A", 20*time.Second))
}

func TestPlayingTheLessonByHandTicksGoals(t *testing.T) {
	lb := fenced(t)
	lb.Advance(4 * time.Second)
	if g := lb.Goals(); g[0].Met {
		t.Fatal("takeover goal met before anything happened")
	}
	if err := pauseA(lb); err != nil {
		t.Fatal(err)
	}
	w := lb.World()
	if !w.Procs[0].Paused || !w.Procs[0].Believes {
		t.Fatalf("A should be paused and still believe it leads: %+v", w.Procs[0])
	}
	lb.Advance(12 * time.Second)
	w = lb.World()
	if w.Lock.Holder != "B" || w.Lock.Token != 8 {
		t.Fatalf("B should hold with 8: %+v", w.Lock)
	}
	if a := w.Procs[0]; !a.Believes || a.TruthLeft != 0 {
		t.Fatalf("paused A still believes, with no lease at the coordinator: %+v", a)
	}
	lb.Advance(10 * time.Second)
	g := lb.Goals()
	if !g[0].Met || !g[1].Met || g[2].Met {
		t.Fatalf("goals after A's late write: %+v", g)
	}
	if g[0].At < 13*time.Second || g[0].At > 14*time.Second {
		t.Fatalf("takeover ticked at %s, want when it happened (about 13.5s)", g[0].At)
	}
	text := ""
	for _, l := range lb.Narration() {
		text += core.FormatTime(l.At) + " " + l.Text + "\n"
	}
	for _, want := range []string{"the coordinator expired the lease of A", "B acquired locks/leader with token 8", "storage rejected A's write with token 7 (it has seen 8)"} {
		if !strings.Contains(text, want) {
			t.Errorf("narration lacks %q:\n%s", want, text)
		}
	}
	tl := lb.Timeline()
	if len(tl.Overlaps) == 0 || len(tl.Lanes[0].Paused) != 1 || len(tl.Lanes[1].Truth) != 1 {
		t.Fatalf("timeline: %+v", tl)
	}
	var rejected bool
	for _, m := range tl.Writes {
		rejected = rejected || (m.From == "A" && m.Token == 7 && !m.Accepted)
	}
	if !rejected {
		t.Fatal("timeline lacks A's rejected write")
	}
}

func TestScrubBackAndForwardIsExact(t *testing.T) {
	lb := fenced(t)
	lb.Advance(4 * time.Second)
	pauseA(lb)
	lb.Advance(30 * time.Second)
	want := lb.Sim().Trace.Hash()
	lb.Seek(10 * time.Second)
	if lb.Now() != 10*time.Second || !lb.World().Procs[0].Paused {
		t.Fatalf("after seek back: now %s, A paused %v", lb.Now(), lb.World().Procs[0].Paused)
	}
	if g := lb.Goals()[1]; !g.Met || !g.Later {
		t.Fatalf("a goal met later stays met, marked not yet at the play head, after scrubbing before it: %+v", g)
	}
	lb.Seek(34 * time.Second)
	if got := lb.Sim().Trace.Hash(); got != want {
		t.Fatal("scrubbing back then forward changed the run")
	}
}

func TestForkDropsLaterActions(t *testing.T) {
	lb := fenced(t)
	lb.Advance(4 * time.Second)
	pauseA(lb)
	lb.Advance(30 * time.Second)
	lb.Seek(2 * time.Second)
	lb.Fork()
	if len(lb.Log()) != 0 {
		t.Fatalf("fork kept %v", lb.Log())
	}
	lb.Advance(30 * time.Second)
	if lb.World().Lock.Holder != "A" {
		t.Fatal("without the pause A keeps the lock")
	}
}

func TestActingAfterScrubBackForks(t *testing.T) {
	lb := fenced(t)
	lb.Advance(4 * time.Second)
	pauseA(lb)
	lb.Advance(10 * time.Second)
	lb.Seek(2 * time.Second)
	if err := lb.Do(core.Crash("B")); err != nil {
		t.Fatal(err)
	}
	if n := len(lb.Log()); n != 1 || lb.Log()[0].Do != "crash" {
		t.Fatalf("log after acting in the past: %v", lb.Log())
	}
}

func TestSolutionReplaysToCompletion(t *testing.T) {
	lb := fenced(t)
	lb.LoadSolution()
	for lb.Now() < lb.Length() {
		lb.Advance(100 * time.Millisecond)
	}
	if !lb.AllMet() {
		t.Fatalf("solution did not complete the lesson: %+v", lb.Goals())
	}
}

func TestBadActionIsRefusedAndChangesNothing(t *testing.T) {
	lb := fenced(t)
	lb.Advance(time.Second)
	before := lb.Sim().Trace.Hash()
	if err := lb.Do(core.Action{Do: "pause", Proc: "A"}); err == nil {
		t.Fatal("pause without a length accepted")
	}
	if lb.Sim().Trace.Hash() != before || len(lb.Log()) != 0 {
		t.Fatal("a refused action changed the run")
	}
}

func TestMessagesInFlightCarryTokens(t *testing.T) {
	lb := fenced(t)
	for lb.Now() < 10*time.Second {
		lb.Advance(time.Millisecond)
		for _, m := range lb.World().InFlight {
			if m.Kind == "Write" && m.Token == 7 && m.From == "A" && m.To == "storage" {
				if m.Progress < 0 || m.Progress >= 1 {
					t.Fatalf("progress %v", m.Progress)
				}
				return
			}
		}
	}
	t.Fatal("never saw A's write with token 7 in flight")
}

// A delay: the held messages show as held (not moving) until the hold
// ends, even after more than the usual flight window; the process and its
// timeline lane say what the network is doing.
func TestHeldMessagesShowAsHeld(t *testing.T) {
	lb := fenced(t)
	lb.Advance(time.Second) // A leads
	if err := lb.Do(core.Delay("A", 12*time.Second)); err != nil {
		t.Fatal(err)
	}
	lb.Advance(9 * time.Second)
	w := lb.World()
	held := 0
	for _, m := range w.InFlight {
		if m.Held {
			held++
			if m.From != "A" || m.Progress != 0 {
				t.Errorf("held %+v", m)
			}
		}
	}
	if held < 5 || w.Procs[0].HeldUntil != 13*time.Second || w.Procs[1].HeldUntil != 0 {
		t.Fatalf("%d held at 10 s; A held until %s, B until %s", held, w.Procs[0].HeldUntil, w.Procs[1].HeldUntil)
	}
	tl := lb.Timeline()
	if len(tl.Lanes[0].Held) != 1 || tl.Lanes[0].Held[0] != (Span{From: time.Second, To: 10 * time.Second}) || len(tl.Lanes[1].Held) != 0 {
		t.Errorf("held spans %+v / %+v", tl.Lanes[0].Held, tl.Lanes[1].Held)
	}
	lb.Advance(3*time.Second + 2*time.Millisecond)
	w = lb.World()
	flying := 0
	for _, m := range w.InFlight {
		if m.Held {
			t.Errorf("still held after the hold: %+v", m)
		}
		if m.From == "A" {
			flying++
		}
	}
	if flying == 0 || w.Procs[0].HeldUntil != 0 {
		t.Errorf("after the hold: %d of A's messages flying, held until %s", flying, w.Procs[0].HeldUntil)
	}
	if n := lb.Timeline().Lanes[0].Held; len(n) != 1 || n[0].To != 13*time.Second {
		t.Errorf("held span after the hold: %+v", n)
	}
}

// TestGoalsMetStayMetAcrossAKnobChange plays exercise 3's simulator: break
// storage with fencing off, then slide fencing on. The first goal holds
// only with fencing off and the second only with it on, so a knob change
// must keep what was already proved.
func TestGoalsMetStayMetAcrossAKnobChange(t *testing.T) {
	ex, err := lessons.FindExercise("no-fencing")
	if err != nil {
		t.Fatal(err)
	}
	lb, err := New(ex.Lab, 1)
	if err != nil {
		t.Fatal(err)
	}
	lb.Advance(4 * time.Second)
	if err := pauseA(lb); err != nil {
		t.Fatal(err)
	}
	lb.Advance(23 * time.Second)
	if g := lb.Goals(); !g[0].Met || g[1].Met {
		t.Fatalf("with fencing off: %+v", g)
	}
	at := lb.Goals()[0].At
	if err := lb.SetKnob("fencing", 1); err != nil {
		t.Fatal(err)
	}
	if g := lb.Goals(); !g[0].Met || g[0].At != at || !g[1].Met || !lb.AllMet() {
		t.Fatalf("after sliding fencing on: %+v", g)
	}
	// A refused value keeps them too.
	if err := lb.SetKnob("fencing", 7); err == nil || !lb.AllMet() {
		t.Fatalf("a refused knob value: %v, all met %v", err, lb.AllMet())
	}
	// Scrubbing back and forth re-simulates the run with fencing on; what
	// fencing off proved is still proved.
	lb.Seek(10 * time.Second)
	lb.Seek(lb.Length())
	if g := lb.Goals(); !g[0].Met || g[0].At != at || !lb.AllMet() {
		t.Fatalf("after scrubbing back and forth: %+v", g)
	}
	// Restarting is a clean slate for the run; what the learner proved
	// stays proved, in another run.
	lb.Restart()
	if g := lb.Goals(); g[0].InRun || g[1].InRun || !g[0].Met || g[0].Note() != "met earlier" {
		t.Errorf("after Restart: %+v", g)
	}
}

// A cut connection is narrated when it comes back: who reconnected, how
// long it was down and how much had waited in it (the numbers are the
// trace's).
func TestNarrateReconnect(t *testing.T) {
	e := core.NewEvent(0, "B", core.KindReconnect, core.I(core.FWaited, 2), core.D(core.FDown, 5160*time.Millisecond))
	assert.Equal(t, "B reconnected to the coordinator after 5.160s; 2 waiting messages went out", Narrate(&e))
}

// A knob set to the value it has already is not set again: the world is
// not rebuilt and nothing is said (a page's slider sends its value on input
// and again on change, which rebuilt the run and narrated it twice). A new
// value is set and said.
func TestSettingAKnobToItsValueDoesNothing(t *testing.T) {
	l, err := lessons.Find("ttl-tradeoff")
	require.NoError(t, err)
	require.NotEmpty(t, l.Knobs)
	lb, err := New(l, 1)
	require.NoError(t, err)
	k := l.Knobs[0]
	lb.Advance(3 * time.Second)
	cur := lb.Knobs()[k.ID]
	gen := lb.gen
	assert.Empty(t, lb.Apply(SetKnobTo(k.ID, cur)), "nothing to say")
	assert.Equal(t, gen, lb.gen, "the world is not rebuilt")

	other := cur + k.Step
	if other > k.Max {
		other = cur - k.Step
	}
	assert.Equal(t, KnobLabel(k)+" set to "+KnobValue(k, other), lb.Apply(SetKnobTo(k.ID, other)))
	assert.Equal(t, other, lb.Knobs()[k.ID])
	assert.Greater(t, lb.gen, gen, "a new value rebuilds the world")
	assert.Equal(t, 3*time.Second, lb.Now(), "at the same instant")
}
