package sandbox

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/game/player"
	"leaselab/game/ui"
)

// The sandbox offers the search when its world is one the explorer can
// break: the counterexample becomes the sandbox run's log, and the
// comparison works there too.
func TestSandboxFindsABreak(t *testing.T) {
	r := newRig(t, "", 1280, 800)
	sb := r.sb
	r.Click("preset:kubernetes") // fencing off
	// Without the preset's own scripted pause, so the break is the
	// search's.
	sb.m.Config.Actions = nil
	sb.check()
	r.Click("start")
	if sb.Run == nil || sb.Run.Finder() == nil {
		t.Fatal("no Find a break in a fenced contention sandbox")
	}
	r.search(sb.Run.Finder())
	log := sb.Run.Lab.Log()
	if !strings.HasPrefix(sb.Run.Finder().Status(), "Break: ") || len(log) < 2 || log[0].Do != "fencing" || log[0].On {
		t.Fatalf("status %q, log %v", sb.Run.Finder().Status(), log)
	}
	last := log[len(log)-1]
	if last.Do != "pause" || last.Proc != sb.Config().ProcNames()[0] {
		t.Errorf("the break is %v, want a pause of the first leader", last)
	}
	sb.Run.Lab.Advance(time.Minute)
	if len(sb.Run.Lab.Sim().Trace.Filter(core.KindStale)) == 0 {
		t.Error("the sandbox run's new log does not replay a stale write")
	}
	r.Tick(ui.Input{})
	// The way back to the learner's run sits in the run row: the
	// exports have the hint button's row.
	reg := r.Info().Regions
	require.Contains(t, reg, player.RunBackToMine)
	for _, other := range []string{"exportJSONL", "exportMermaid", player.RunRestart, player.RunUndo} {
		assert.False(t, reg[player.RunBackToMine].Overlaps(reg[other]), "Back to my run overlaps %s", other)
	}
	assert.True(t, reg[player.RunBackToMine].Within(reg["runRow"]))
	r.Drawn("sandbox-found")
	r.Click("compare")
	r.Drawn("sandbox-compare")
	if c := r.Info().Compare; c == nil || !c.OffBroke || c.OnBroke {
		t.Errorf("comparison in the sandbox: %+v", c)
	}
	r.Key(ui.IntentBack) // leaves the comparison, not the run
	if r.Info().Name != "sandbox" {
		t.Errorf("Esc in the comparison left the run: %q", r.Info().Name)
	}
}

// A setup the explorer cannot break gets no button, and says why.
func TestSandboxSaysWhyItCannotSearch(t *testing.T) {
	r := newRig(t, "", 1280, 800)
	sb := r.sb
	sb.m.Config.Procs, sb.m.Config.Names = 1, nil
	sb.check()
	r.Click("start")
	sb.Run.Lab.Advance(3 * time.Second)
	r.Key(ui.IntentSolution) // no solution to show: the run stays
	if sb.Run.Lab.Now() != 3*time.Second {
		t.Errorf("L in the sandbox restarted the run (t=%v)", sb.Run.Lab.Now())
	}
	info := r.Info()
	if _, ok := info.Regions["solution"]; ok {
		t.Error("the sandbox offers a solution")
	}
	if _, ok := info.Regions["explore"]; ok || sb.Run.Finder() != nil {
		t.Error("a one-process sandbox offers Find a break")
	}
	if n := strings.Join(info.Mirror.Narration, "\n"); !strings.Contains(n, "Find a break is not offered for this setup: one process") {
		t.Errorf("narration:\n%s", n)
	}
}
