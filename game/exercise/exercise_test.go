package exercise

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/ui"
)

// TestLongCheckSpreadsOverFramesAndCanBeCancelled checks exercise 4, whose
// checker simulates many nights: each frame does a slice of it, the
// progress grows, Cancel stops it without recording an attempt, and a
// second check runs to a verdict.
func TestLongCheckSpreadsOverFramesAndCanBeCancelled(t *testing.T) {
	r, sc := openEx(t, "compaction-ttl", 1280, 800)
	// Every number set (as the sliders set them): an unanswered one is
	// refused without a run.
	for id, v := range map[string]float64{"ttl": 20, "renew": 5, "est-failover": 20.5, "per-hour": 720} {
		require.NoError(t, sc.Form.SetNumber(id, v))
	}
	r.Click("check")
	if !sc.Checking() {
		t.Fatal("the check finished in the frame it started: it must be spread over frames")
	}
	last := r.Info().Exercise.Progress
	for range 3 {
		r.Tick(ui.Input{})
		p := r.Info().Exercise.Progress
		if p <= last || p >= 1 {
			t.Fatalf("progress %g after %g", p, last)
		}
		last = p
	}
	if _, ok := r.Info().Regions["cancel"]; !ok {
		t.Fatal("no cancel region while checking")
	}
	r.Click("cancel")
	if sc.Checking() || r.Info().Exercise.Attempts != 0 || sc.Result() != nil {
		t.Fatalf("after Cancel: checking %v, %d attempts", sc.Checking(), r.Info().Exercise.Attempts)
	}

	r.Click("check")
	frames := 0
	for sc.Checking() {
		r.Tick(ui.Input{})
		if frames++; frames > 2000 {
			t.Fatal("the check never finished")
		}
	}
	t.Logf("checked in %d frames", frames)
	if frames < 5 {
		t.Errorf("only %d frames: the check is not spread out", frames)
	}
	if info := r.Info().Exercise; info.Attempts != 1 || info.Result == nil {
		t.Errorf("after the check: %+v", info)
	}
}

// TestKeyboardAnswersAndScrollsTheForm answers with Tab and Enter in a
// small window, where the form scrolls to keep the focused option in view.
func TestKeyboardAnswersAndScrollsTheForm(t *testing.T) {
	r, sc := openEx(t, "token-logs", 1024, 640)
	ex := sc.Ex
	last := ex.Questions[len(ex.Questions)-1]
	target := "opt:" + last.ID + ":" + last.Options[len(last.Options)-1].ID
	if _, ok := r.Info().Regions[target]; ok {
		t.Fatalf("%s is visible without scrolling; the test needs a longer form", target)
	}
	for i := 0; r.Info().Focus != target; i++ {
		if i > 200 {
			t.Fatalf("Tab never reached %s", target)
		}
		r.Key(ui.IntentFocusNext)
	}
	view := r.Region("form")
	if got, ok := r.Info().Regions[target]; !ok || !got.Within(view) {
		t.Fatalf("focused %s at %v is not inside the form %v", target, got, view)
	}
	r.Key(ui.IntentActivate)
	if !sc.Form.Chosen(last.ID, last.Options[len(last.Options)-1].ID) {
		t.Fatal("Enter on a focused option did not choose it")
	}
	// The wheel scrolls back to the top (however long the form: exercise
	// 5 offers every log line as evidence).
	for i := 0; i < 200 && sc.scroll != 0; i++ {
		r.Tick(ui.Input{Cursor: view.Center(), Wheel: ui.Point{Y: 3}})
	}
	if sc.scroll != 0 {
		t.Errorf("scroll = %g after wheeling up", sc.scroll)
	}
	// A finger dragged up the form scrolls it, and choosing nothing.
	mid := view.Center()
	r.Tick(ui.Input{Touches: []ui.Touch{{ID: 1, Pos: mid, JustDown: true}}})
	for i := 1; i <= 10; i++ {
		r.Tick(ui.Input{Touches: []ui.Touch{{ID: 1, Pos: ui.Point{X: mid.X, Y: mid.Y - float64(i)*20}}}})
	}
	before := sc.Form.Answer()
	r.Tick(ui.Input{Touches: []ui.Touch{{ID: 1, Pos: ui.Point{X: mid.X, Y: mid.Y - 200}, JustUp: true}}})
	if sc.scroll < 150 || sc.scroll > 200 {
		t.Errorf("a 200 px drag scrolled %g", sc.scroll)
	}
	if a := sc.Form.Answer(); fmt.Sprint(a.Choices) != fmt.Sprint(before.Choices) {
		t.Errorf("a drag chose something: %v -> %v", before.Choices, a.Choices)
	}
	// The mouse works as soon as the finger is gone.
	first := ex.Questions[0]
	r.Tick(ui.Input{})
	for range 20 {
		r.Tick(ui.Input{Cursor: view.Center(), Wheel: ui.Point{Y: 3}})
	}
	// Exercise 5's check builder comes first: wheel down to the first
	// question's first three options.
	lastOpt := first.Options[2].ID
	inView := func(id string) bool {
		got, ok := r.Info().Regions["opt:"+first.ID+":"+id]
		return ok && got.Within(view)
	}
	for i := 0; i < 400 && !(inView(lastOpt) && inView(first.Options[1].ID) && inView(first.Options[0].ID)); i++ {
		r.Tick(ui.Input{Cursor: view.Center(), Wheel: ui.Point{Y: -0.5}})
	}
	r.Click("opt:" + first.ID + ":" + lastOpt)
	if !sc.Form.Chosen(first.ID, lastOpt) {
		t.Fatal("a click after a finger drag did not choose")
	}
	// A tap chooses.
	tap := r.Region("opt:" + first.ID + ":" + first.Options[1].ID).Center()
	r.Tick(ui.Input{Touches: []ui.Touch{{ID: 2, Pos: tap, JustDown: true}}})
	r.Tick(ui.Input{Touches: []ui.Touch{{ID: 2, Pos: tap, JustUp: true}}})
	if !sc.Form.Chosen(first.ID, first.Options[1].ID) {
		t.Fatal("a tap on an option did not choose it")
	}
	r.Click("opt:" + first.ID + ":" + first.Options[0].ID)
	if !sc.Form.Chosen(first.ID, first.Options[0].ID) {
		t.Fatal("a click on a visible option did not choose it")
	}
}

// TestWorstRunOpensInThePlayer: a checked exercise 4 design offers its
// worst night as a run to watch, and the player's back button returns to
// the answer (defect 9).
func TestWorstRunOpensInThePlayer(t *testing.T) {
	r, sc := openEx(t, "compaction-ttl", 1280, 800)
	for id, v := range map[string]float64{"ttl": 10, "renew": 5, "est-failover": 10.5, "per-hour": 720} {
		require.NoError(t, sc.Form.SetNumber(id, v))
	}
	r.Click("check")
	for i := 0; i < 2000 && sc.Checking(); i++ {
		r.Tick(ui.Input{})
	}
	require.NotNil(t, sc.Result())
	r.shot("exercise-4-result")
	r.Click("tab:replay")
	info := r.Info()
	require.Equal(t, "lesson", info.Name, "the worst run did not open")
	assert.Contains(t, info.Mirror.Title, "Night")
	sc.watch.Lab.Seek(60 * time.Second)
	r.Tick(ui.Input{})
	r.shot("exercise-4-worst-night")
	r.Click("menu")
	assert.Equal(t, "exercise", r.Info().Name)
}

// TestShardWorstRunOpens: exercise 2's checked design opens too.
func TestShardWorstRunOpens(t *testing.T) {
	r, sc := openEx(t, "shard-design", 1280, 800)
	require.NoError(t, sc.Form.Load(sc.Ex.Reference))
	r.Click("check")
	for i := 0; i < 2000 && sc.Checking(); i++ {
		r.Tick(ui.Input{})
	}
	require.NotNil(t, sc.Result())
	r.Click("tab:replay")
	require.Equal(t, "lesson", r.Info().Name)
	sc.watch.Lab.Seek(75 * time.Second)
	r.Tick(ui.Input{})
	r.shot("exercise-2-worst-run")
}

// The answer form's options, hint and defence are one declaration for the
// page and the canvas: each canvas widget is named by its control's id
// and has its state, and picking an option
// or asking a hint by a click on the canvas does what the page's use of
// the same control does, through the form's one door.
func TestTheAnswerFormsCanvasAndPageAreOneDeclaration(t *testing.T) {
	open := func() (*rig, *Scene) { return openEx(t, "renew-ttl-pause", 1280, 800) }
	r, sc := open()
	decls := ui.Controls(sc.answerForm.controls())
	info := r.Info()
	for w, name := range sc.answerForm.names {
		c, ok := decls.Find(name)
		if !ok {
			continue // the reading pane: no control of the page
		}
		if b, isButton := w.(*ui.Button); isButton {
			assert.Equal(t, c.Disabled, b.Disabled, "%s: the canvas's widget is off when the page's is", name)
		}
		if _, laidOut := info.Regions[name]; !laidOut {
			continue // scrolled out of the form's view
		}
		_, listed := ui.Controls(info.Mirror.Controls).Find(name)
		assert.True(t, listed, "the page lists the canvas's %q", name)
	}
	sc.answerForm.ring.Focus(&sc.answerForm.defence, ui.FocusVisible)
	assert.Equal(t, "defence", r.Info().Focus, "the defence is 'defence' on the canvas as on the page")

	for _, id := range []string{"opt:verdict:unsafe", "hint"} {
		page, psc := open()
		page.Tick(ui.Input{Host: []ui.HostAction{{ID: id}}})
		canvas, csc := open()
		canvas.Click(id)
		assert.Equal(t, psc.Form.Chosen("verdict", "unsafe"), csc.Form.Chosen("verdict", "unsafe"), "%s: the same choice", id)
		assert.Equal(t, page.Info().Mirror.Narration, canvas.Info().Mirror.Narration, "%s: said alike", id)
		assert.Equal(t, psc.hintsSeen, csc.hintsSeen, "%s: the same hints", id)
	}
}

// TestTheAnswerFormsEveryButtonIsDeclaredWithItsAction: every button of
// the answer form's canvas (the way back, the tabs, the simulator, share,
// the check builder's) is a declaration with its action, under the id the
// page uses and in the same state; a page's use and a canvas's click of
// each do the same thing, through that one declaration.
func TestTheAnswerFormsEveryButtonIsDeclaredWithItsAction(t *testing.T) {
	open := func(ex string) (*rig, *Scene) { return openEx(t, ex, 1280, 800) }
	for _, ex := range []string{"renew-ttl-pause", "token-logs"} {
		_, sc := open(ex)
		decls := ui.Controls(sc.answerForm.controls())
		for w, name := range sc.answerForm.names {
			b, isButton := w.(*ui.Button)
			if !isButton {
				continue
			}
			c, ok := decls.Find(name)
			if assert.True(t, ok, "%s: the canvas's %q is declared", ex, name) {
				assert.NotNil(t, c.Do, "%s: %q is declared with what it does", ex, name)
				assert.Equal(t, c.Disabled, b.Disabled, "%s: %q is off on the canvas when it is on the page", ex, name)
			}
		}
		for _, tab := range sc.answerForm.tabs {
			c, ok := decls.Find("tab:" + tab.id)
			require.True(t, ok, "tab %s is declared", tab.id)
			assert.NotNil(t, c.Do, "tab %s is declared with what it does", tab.id)
		}
	}

	// The same use, from the page and from the canvas: the same screen,
	// the same answer, the same words.
	alike := func(ex, id string, value float64, same func(page, canvas *Scene)) {
		t.Helper()
		page, psc := open(ex)
		page.Tick(ui.Input{Host: []ui.HostAction{{ID: id, Value: value}}})
		page.Tick(ui.Input{})
		canvas, csc := open(ex)
		canvas.Click(id)
		canvas.Tick(ui.Input{})
		assert.Equal(t, page.Info().Name, canvas.Info().Name, "%s: the same screen", id)
		assert.Equal(t, page.Info().Mirror.Narration, canvas.Info().Mirror.Narration, "%s: said alike", id)
		assert.Equal(t, psc.notice, csc.notice, "%s: the same notice", id)
		same(psc, csc)
	}
	tabShown := func(p, c *Scene) { assert.Equal(t, p.tab, c.tab) }
	alike("renew-ttl-pause", "back", 0, tabShown)
	alike("renew-ttl-pause", "simulator", 0, tabShown)
	alike("token-logs", "tab:logs", 0, func(p, c *Scene) {
		assert.Equal(t, tabLogs, p.tab, "the page's tab shows the logs")
		assert.Equal(t, tabLogs, c.tab, "the canvas's tab shows the logs")
	})
	_, sc := open("token-logs")
	quant, ok := ui.Controls(sc.answerForm.controls()).Find("q:quant")
	require.True(t, ok)
	next := float64((int(quant.Value) + 1) % len(quant.Options)) // a click on the menu's button picks its next option
	built := func(p, c *Scene) {
		assert.Equal(t, p.query.qb.Text(), c.query.qb.Text(), "the same check built")
		assert.Equal(t, p.Form.Checks(), c.Form.Checks(), "the same checks in the answer")
	}
	alike("token-logs", "q:quant", next, built)
	alike("token-logs", "qrow+", 0, built)
	alike("token-logs", "qadd", 0, func(p, c *Scene) {
		built(p, c)
		assert.Len(t, p.Form.Checks(), 1, "the page's Add this check added it")
	})

	// Share, once an answer is graded.
	shared := func(useIt func(r *rig)) (string, []string) {
		r, sc := answerNoFencingWrongly(t)
		r.Click("tab:result")
		useIt(r)
		return sc.shared, r.Info().Mirror.Narration
	}
	pageLink, pageSaid := shared(func(r *rig) { r.Use("share", 0) })
	canvasLink, canvasSaid := shared(func(r *rig) { r.Click("share") })
	assert.NotEmpty(t, pageLink, "the page's share shares")
	assert.Equal(t, pageLink, canvasLink, "the same share")
	assert.Equal(t, pageSaid, canvasSaid, "said alike")
}
