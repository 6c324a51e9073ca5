package game

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/core/permalink"
	"leaselab/core/sandbox"
	"leaselab/game/ui"
	"leaselab/lessons"
)

var breakLog = core.ActionLog{
	core.At(0, core.Fencing(false)),
	core.At(100*time.Millisecond, core.Pause("A", 12500*time.Millisecond)),
	core.At(13*time.Second, core.Write("B", "x")),
}

// A lesson link opens the lesson with the link's seed, knobs and log, the
// play head at the last action: the same world a fresh run reaches there.
func TestOpenLinkReproducesTheRun(t *testing.T) {
	a := NewApp(nil)
	link := permalink.LessonLink("fenced-writes", 7, nil, breakLog)
	sc, err := a.OpenLink("https://example.org/leaselab/" + link.Fragment())
	if err != nil {
		t.Fatal(err)
	}
	if a.top() != sc || sc.Lab.Seed != 7 || sc.Lab.Now() != 13*time.Second || len(sc.Lab.Log()) != 3 {
		t.Fatalf("opened: current=%v seed %d now %s log %v", a.top() == sc, sc.Lab.Seed, sc.Lab.Now(), sc.Lab.Log())
	}
	l, _ := lessons.Find("fenced-writes")
	w, err := l.Start(7, breakLog)
	if err != nil {
		t.Fatal(err)
	}
	w.Sim.RunUntil(13 * time.Second)
	if sc.Lab.Sim().Trace.Hash() != w.Sim.Trace.Hash() {
		t.Error("the opened run differs from a fresh run of the same lesson, seed and log")
	}
	// Its own link opens the same run again.
	again, err := NewApp(nil).OpenLink(sc.Link().Encode())
	if err != nil {
		t.Fatal(err)
	}
	if again.Lab.Sim().Trace.Hash() != sc.Lab.Sim().Trace.Hash() || again.Link().Encode() != sc.Link().Encode() {
		t.Error("a scene's own link does not reopen the same run")
	}
}

// Bad links get a clear error and leave the lab exactly as it was.
func TestOpenLinkRefusesBadLinksAndKeepsTheRun(t *testing.T) {
	a := NewApp(nil)
	sc, err := a.OpenID("fenced-writes")
	if err != nil {
		t.Fatal(err)
	}
	sc.Lab.Advance(3 * time.Second)
	if err := sc.Lab.Do(core.Pause("A", 20*time.Second)); err != nil {
		t.Fatal(err)
	}
	before, hash := sc.Link().Encode(), sc.Lab.Sim().Trace.Hash()
	good := permalink.LessonLink("fenced-writes", 1, nil, breakLog).Encode()
	for _, c := range []struct{ in, want string }{
		{good[:len(good)-2], "cut short"},
		{"#run=!!", "not a LeaseLab link"},
		{permalink.ScenarioLink("shards", sandbox.Params{}).Encode(), "labctl run --load"},
		{permalink.LessonLink("no-such-lesson", 1, nil, nil).Encode(), "no-such-lesson"},
		{permalink.LessonLink("shards", 1, map[string]float64{"jitter": 7}, nil).Encode(), "jitter"},
		{permalink.LessonLink("fenced-writes", 1, nil, core.ActionLog{core.At(time.Hour, core.Crash("A"))}).Encode(), "outside the lesson"},
	} {
		_, err := a.OpenLink(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
		if a.top() != sc || sc.Link().Encode() != before || sc.Lab.Sim().Trace.Hash() != hash {
			t.Fatalf("%q: a refused link changed the current run", c.in)
		}
	}
}

// TestABadLinkInALessonIsExplainedOnTheCanvas: a link that cannot be
// opened while a lesson is on show is said over its world (not only in
// the narration), until a click or key, and told as a key line.
func TestABadLinkInALessonIsExplainedOnTheCanvas(t *testing.T) {
	r := newAppRig(t)
	r.click("lesson:fenced-writes")
	_, err := r.a.OpenLink("#run=not-a-link")
	require.Error(t, err)
	r.a.Notify("This link could not be opened: " + err.Error())
	r.tick(ui.Input{})
	info := r.a.Inspect()
	notice, ok := info.Regions["notice"]
	require.True(t, ok, "a notice over the world")
	assert.Equal(t, notice, notice.Intersect(info.Regions["world"]), "inside the world: %v in %v", notice, info.Regions["world"])
	n := info.Mirror.Narration
	require.NotEmpty(t, n)
	assert.Contains(t, n[len(n)-1], "This link could not be opened")
	assert.True(t, info.Mirror.NarrationKey[len(n)-1], "a key line")
	assert.False(t, r.a.Still(), "the screen draws while the notice shows")
	r.key(ui.IntentStep)
	_, ok = r.a.Inspect().Regions["notice"]
	assert.False(t, ok, "a key closes it")
}
