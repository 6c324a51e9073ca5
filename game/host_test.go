package game

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/game/lab"
	"leaselab/game/lesson"
	"leaselab/game/player"
	"leaselab/game/sandbox"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// newPanelRig is the app laid out as the browser lays it out: the page
// shows the lesson panel, and every action goes through its controls.
func newPanelRig(t *testing.T) *appRig {
	r := newAppRig(t)
	r.st.Style.PanelOutside = true
	r.tick(ui.Input{})
	return r
}

// control is the panel's control id on the scene shown now.
func (r *appRig) control(id string) (Control, bool) {
	for _, c := range r.a.Inspect().Mirror.Controls {
		if c.ID == id {
			return c, true
		}
	}
	return Control{}, false
}

// use does what a click on the page's control id (or a value picked in
// it) does; the panel must offer it, enabled.
func (r *appRig) use(id string, value float64) {
	r.t.Helper()
	c, ok := r.control(id)
	require.Truef(r.t, ok, "the panel of %q offers no %q: %v", r.a.Inspect().Name, id, controlIDs(r.a.Inspect().Mirror.Controls))
	require.Falsef(r.t, c.Disabled, "%q is disabled", id)
	r.tick(ui.Input{Host: []ui.HostAction{{ID: id, Value: value}}})
	r.tick(ui.Input{})
}

func controlIDs(cs []Control) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

// actControl is the panel's control that performs a on its actor: the
// one whose menu entry does a, after picking a token if a needs one.
func (r *appRig) actControl(sc *lesson.Scene, a core.Action) string {
	r.t.Helper()
	for range 10 {
		w := sc.World()
		for _, ac := range w.Actors() {
			if ac.Name != a.Proc {
				continue
			}
			choices := lab.ChoicesFor(sc.Lab.Lesson, w.Snapshot(), ac, w.Token())
			if i := menuItem(choices, a); i >= 0 {
				return "act:" + a.Proc + ":" + choices[i].ID
			}
		}
		// "Write with token N" for another N: pick the next token.
		r.use("act:"+a.Proc+":token-next", 0)
	}
	r.t.Fatalf("the panel has no control for %v", a)
	return ""
}

// TestEveryLessonSolvedWithThePanelAlone opens every lesson from the
// menu's links and plays its solution with nothing but the panel's
// controls (the knobs' ranges, the play head, the actors' buttons, the
// switches), as a screen-reader user would in the browser, and checks
// that every goal ticks and the canvas draws no lesson panel.
func TestEveryLessonSolvedWithThePanelAlone(t *testing.T) {
	for _, l := range lessons.All() {
		t.Run(l.ID, func(t *testing.T) {
			r := newPanelRig(t)
			r.use("lesson:"+l.ID, 0)
			sc, ok := r.a.top().(*lesson.Scene)
			require.True(t, ok, "the lesson did not open")
			regions := r.a.Inspect().Regions
			assert.True(t, regions["lesson"].Empty(), "the canvas keeps a lesson panel: %v", regions["lesson"])
			assert.InDelta(t, r.st.Window.W, regions["world"].MaxX()+regions["world"].X, 1, "the world spans the canvas")
			for id, v := range l.SolutionKnobs {
				r.use("knob:"+id, v)
				require.InDelta(t, v, sc.Lab.Knobs()[id], 1e-9, "knob %s", id)
			}
			for _, ta := range l.Solution.Sorted() {
				r.use("scrub", ta.At.D().Seconds())
				require.Equal(t, ta.At.D(), sc.Lab.Now(), "the play head")
				switch a := ta.Action; a.Do {
				case core.VerbFencing, core.VerbIdempotency:
					c, ok := r.control(string(a.Do))
					require.True(t, ok, "no %s switch", a.Do)
					if c.On != a.On {
						r.use(string(a.Do), 0)
					}
				default:
					r.use(r.actControl(sc, a), 0)
				}
			}
			require.Len(t, sc.Lab.Log(), len(l.Solution), "the log: %v", sc.Lab.Log())
			r.use("scrub", sc.Lab.Length().Seconds())
			info := r.a.Inspect()
			require.Len(t, info.Mirror.Goals, len(l.Goals))
			for i, g := range info.Mirror.Goals {
				assert.True(t, g.Met, "goal %d (%s) not met; log %v", i+1, l.Goals[i].ID, sc.Lab.Log())
			}
			assert.True(t, info.Run.Complete, "the lesson is complete")
			m := info.Mirror
			require.Len(t, m.NarrationKey, len(m.Narration))
			// The end is told after the last goal met (and the run may
			// go on past it: lesson 14's last goal is met at 63 s of 100).
			done := slices.IndexFunc(m.Narration, func(s string) bool { return strings.Contains(s, "Lesson complete") })
			require.GreaterOrEqual(t, done, 0, "the lesson's end is told")
			assert.True(t, m.NarrationKey[done], "the lesson's end is a key line")
			for _, line := range m.Narration[done:] {
				assert.NotContains(t, line, "Goal met", "no goal is met after the lesson's end")
			}
		})
	}
}

// TestThePanelOffersEveryActionOfTheWorld checks the fenced-writes panel:
// the time controls, a group per process whose buttons follow its state
// (Pause becomes Resume in the same place), and the store's switch.
func TestThePanelOffersEveryActionOfTheWorld(t *testing.T) {
	r := newPanelRig(t)
	r.use("lesson:fenced-writes", 0)
	for _, id := range []string{"play", "step", "key:back-step", "scrub", "speed", "fork", "act:A:pause", "act:B:pause", "hint", "solution", "menu"} {
		_, ok := r.control(id)
		assert.True(t, ok, "no %q among %v", id, controlIDs(r.a.Inspect().Mirror.Controls))
	}
	pause, _ := r.control("act:A:pause")
	assert.Equal(t, "Pause 20 s", pause.Label, "labels carry no canvas key hint")
	assert.True(t, strings.HasPrefix(pause.Group, "A"), "grouped by actor: %q", pause.Group)
	r.use("scrub", 3)
	r.use("act:A:pause", 0)
	resume, ok := r.control("act:A:resume")
	require.True(t, ok, "after a pause, A offers Resume")
	assert.Equal(t, pause.Slot, resume.Slot, "Resume takes Pause's place")
	assert.Contains(t, resume.Group, "paused")

	r.use("play", 0)
	play, _ := r.control("play")
	assert.True(t, play.On, "the play toggle says it plays")
	assert.Equal(t, "Pause", play.Label)
	r.use("play", 0)
	r.use("speed", 8) // 64×
	sp, _ := r.control("speed")
	assert.Equal(t, "64×", sp.Options[int(sp.Value)])
	r.use("scrub", 5)
	r.use("key:back-step", 0)
	assert.Equal(t, 4*time.Second, r.a.top().(*lesson.Scene).Lab.Now(), "back one second")
	r.use("hint", 0)
	assert.NotEmpty(t, r.a.Inspect().Mirror.Hint, "a hint is shown")
	r.use("menu", 0)
	assert.Equal(t, "menu", r.a.Inspect().Name)
}

// TestExerciseThreeWithThePanelAlone completes exercise 3 from the
// panel: open the simulator, pause A at 4 s, run to the end, slide
// fencing on, go back to the answer, name the cause and check.
func TestExerciseThreeWithThePanelAlone(t *testing.T) {
	r := newPanelRig(t)
	r.use("exercise:no-fencing", 0)
	require.Equal(t, "exercise", r.a.Inspect().Name)
	r.use("simulator", 0)
	require.NotNil(t, r.a.Inspect().Run, "the simulator opened")
	r.use("scrub", 4)
	r.use("act:A:pause", 0)
	r.use("scrub", 60)
	r.use("knob:fencing", 1)
	require.Len(t, r.a.Inspect().Mirror.Goals, 2, "the simulator's two checkpoints")
	for _, g := range r.a.Inspect().Mirror.Goals {
		assert.True(t, g.Met, "checkpoint %q", g.Text)
	}
	r.use("menu", 0)
	require.Equal(t, "exercise", r.a.Inspect().Name)
	// The chain, from the list of the run's events: a step left out
	// fails, and the chain's buttons say what each step is.
	for _, seq := range []int{31, 34, 48, 63, 83, 88} {
		r.use(fmt.Sprintf("chain:add:%d", seq), 0)
	}
	step, ok := r.control("chain:remove:1")
	require.True(t, ok, "each step of the chain is a button")
	assert.Contains(t, step.Label, "Step 2: [34] at 4 s: A froze")
	added, _ := r.control("chain:add:34")
	assert.True(t, added.Disabled, "an event in the chain cannot be added twice")
	r.use("check", 0)
	r.finishCheck()
	require.NotNil(t, r.a.Inspect().Exercise.Result)
	assert.False(t, r.a.Inspect().Exercise.Passed, "a chain with a gap fails")
	r.use("chain:clear", 0)
	for _, seq := range []int{31, 34, 48, 52, 63, 83, 88} {
		r.use(fmt.Sprintf("chain:add:%d", seq), 0)
	}
	r.use("check", 0)
	r.finishCheck()
	ex := r.a.Inspect().Exercise
	require.NotNil(t, ex.Result, "the check finished")
	assert.True(t, ex.Passed, "exercise 3 passed: %s", ex.Result.Summary)
}

// finishCheck ticks until the exercise's check is done.
func (r *appRig) finishCheck() {
	for i := 0; i < 2000 && r.a.Inspect().Exercise.Checking; i++ {
		r.tick(ui.Input{})
	}
}

// TestAPanelControlForAGoneStateIsRefused uses "Resume A" when A is no
// longer paused (the page showed an old state): nothing is done, and the
// learner is told.
func TestAPanelControlForAGoneStateIsRefused(t *testing.T) {
	r := newPanelRig(t)
	r.use("lesson:fenced-writes", 0)
	sc := r.a.top().(*lesson.Scene)
	r.tick(ui.Input{Host: []ui.HostAction{{ID: "act:A:resume"}}})
	assert.Empty(t, sc.Lab.Log(), "nothing was done")
	n := r.a.Inspect().Mirror.Narration
	require.NotEmpty(t, n)
	assert.Contains(t, n[len(n)-1], "A cannot do that now")
}

// TestTheSandboxIsSetUpAndStartedWithThePanelAlone picks a preset, sets
// a choice field and a number, and starts the run, from the panel.
func TestTheSandboxIsSetUpAndStartedWithThePanelAlone(t *testing.T) {
	r := newPanelRig(t)
	r.use("sandbox", 0)
	require.Equal(t, "sandbox-setup", r.a.Inspect().Name)
	r.use("preset:fenced-register", 0)
	var system Control
	for _, c := range r.a.Inspect().Mirror.Controls {
		if c.ID == "field:system" {
			system = c
		}
	}
	require.Equal(t, KindChoice, system.Kind, "the system is a choice")
	zk := -1
	for i, o := range system.Options {
		if strings.Contains(strings.ToLower(o), "zookeeper") {
			zk = i
		}
	}
	require.GreaterOrEqual(t, zk, 0, "ZooKeeper is offered: %v", system.Options)
	r.use("field:system", float64(zk))
	after, _ := r.control("field:system")
	assert.Equal(t, float64(zk), after.Value, "ZooKeeper chosen")
	r.use("start", 0)
	assert.Equal(t, "sandbox", r.a.Inspect().Name, "the run started")
	_, ok := r.control("act:A:pause")
	assert.True(t, ok, "the run's actions are in the panel")
}

// TestASandboxRunsBrokenInvariantIsAJumpInThePanel: once an invariant
// breaks, the panel offers a jump to where it first broke, and the
// checklist says "Holds" and "Broken".
func TestASandboxRunsBrokenInvariantIsAJumpInThePanel(t *testing.T) {
	r := newPanelRig(t)
	r.use("sandbox", 0)
	r.use("preset:fenced-register", 0)
	r.use("start", 0)
	require.Equal(t, "sandbox", r.a.Inspect().Name)
	m := r.a.Inspect().Mirror
	require.NotNil(t, m.Checklist)
	assert.Equal(t, "Invariants", m.Checklist.Title)
	for _, c := range m.Controls {
		assert.False(t, strings.HasPrefix(c.ID, "inv:"), "nothing broke yet, no jump: %v", c)
	}
	r.use("scrub", r.a.top().(*sandbox.Scene).Run.Lab.Length().Seconds())
	var jump Control
	for _, c := range r.a.Inspect().Mirror.Controls {
		if strings.HasPrefix(c.ID, "inv:") {
			jump = c
		}
	}
	require.NotEmpty(t, jump.ID, "the preset's scripted pause breaks an invariant")
	r.use(jump.ID, 0)
	assert.Less(t, r.a.top().(*sandbox.Scene).Run.Lab.Now(), r.a.top().(*sandbox.Scene).Run.Lab.Length(), "the play head jumped back")
	assert.Contains(t, jump.Label, "first broke")
}

// TestTheRunsOwnButtonsAreInThePanel: Show solution keeps the learner's
// run, and the panel offers Back to my run, then Restart and Undo.
func TestTheRunsOwnButtonsAreInThePanel(t *testing.T) {
	r := newPanelRig(t)
	r.use("lesson:fenced-writes", 0)
	sc := r.a.top().(*lesson.Scene)
	r.use("scrub", 4)
	r.use("act:A:pause", 0)
	mine := sc.Lab.Log()
	r.use("solution", 0)
	r.use(player.RunBackToMine, 0)
	assert.Equal(t, mine, sc.Lab.Log(), "back to the learner's own run")
	r.use(player.RunRestart, 0)
	assert.Empty(t, sc.Lab.Log(), "restarted")
	r.use(player.RunUndo, 0)
	assert.Equal(t, mine, sc.Lab.Log(), "the restart undone")
}

// TestTheDefenceIsWrittenAndItsKeyPointsTicked: the page's text field
// keeps the learner's defence with the answer (a reopened exercise still
// has it), and once the model answer is shown its key points are a
// checklist the learner ticks.
func TestTheDefenceIsWrittenAndItsKeyPointsTicked(t *testing.T) {
	r := newPanelRig(t)
	r.use("exercise:no-fencing", 0)
	const words = "The lock never had two holders; storage had no way to tell the old token from the new."
	r.tick(ui.Input{Host: []ui.HostAction{{ID: "defence", Text: words}}})
	def, ok := r.control("defence")
	require.True(t, ok, "a text field for the defence")
	assert.Equal(t, KindText, def.Kind)
	assert.Equal(t, words, def.Text)
	_, ok = r.control("point:0")
	assert.False(t, ok, "no key points before the model answer")

	r.use("simulator", 0)
	r.use("scrub", 4)
	r.use("act:A:pause", 0)
	r.use("scrub", 60)
	r.use("knob:fencing", 1)
	r.use("menu", 0)
	for _, seq := range []int{31, 34, 48, 52, 63, 83, 88} {
		r.use(fmt.Sprintf("chain:add:%d", seq), 0)
	}
	r.use("check", 0)
	r.finishCheck()
	r.use("model", 0)
	r.use("model", 0) // confirmed
	p, ok := r.control("point:0")
	require.True(t, ok, "the key points, once the model answer is shown")
	assert.Equal(t, KindCheck, p.Kind)
	r.use("point:0", 0)
	p, _ = r.control("point:0")
	assert.True(t, p.On, "ticked")
	// A point the exercise has not (an old page, a bad id) is refused
	// with a notice, and the ticks stay as they were.
	for _, id := range []string{"point:9", "point:x"} {
		r.tick(ui.Input{Host: []ui.HostAction{{ID: id}}})
		assert.Contains(t, r.a.Inspect().Exercise.Notice, "That key point cannot be ticked", id)
		assert.Equal(t, []int{0}, r.a.Inspect().Exercise.Answer.Points, id)
	}

	r.use("back", 0)
	r.use("exercise:no-fencing", 0)
	def, _ = r.control("defence")
	assert.Equal(t, words, def.Text, "the defence is kept")
	p, _ = r.control("point:0")
	assert.True(t, p.On, "and the tick")

	r.tick(ui.Input{Host: []ui.HostAction{{ID: "defence", Text: strings.Repeat("x", 5000)}}})
	def, _ = r.control("defence")
	assert.Equal(t, words, def.Text, "a defence too long for an answer is refused, the old one kept")
}
