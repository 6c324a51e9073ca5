package game

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/exercise"
	"leaselab/game/ui"

	"boot.leaselab/progress"
)

// TestWrongAnswerIsExplainedAndTheModelAnswerFollowsAnAttempt checks
// exercise 3: an empty or incomplete check unlocks nothing; a complete
// wrong answer fails with each part's reason and unlocks the model answer,
// which shows only on a confirming second click; the simulator's solution
// is offered only after that; a pass after it is recorded, in the scene and
// the menu, as passed with the answer shown (defect 7).
func TestWrongAnswerIsExplainedAndTheModelAnswerFollowsAnAttempt(t *testing.T) {
	r := newAppRig(t)
	r.click("exercise:no-fencing")
	sc := r.exScene()
	r.click("model")
	require.False(t, r.a.Inspect().Exercise.ModelShown, "the model answer showed before any attempt")

	r.click("check") // empty
	r.tick(ui.Input{})
	r.addChain(31, 34, 63) // a chain with gaps
	r.click("check")       // no run yet: incomplete
	r.tick(ui.Input{})
	info := r.a.Inspect()
	require.NotNil(t, info.Exercise.Result)
	assert.Equal(t, 2, info.Exercise.Attempts)
	assert.False(t, info.Exercise.ModelAvailable, "an empty or incomplete check unlocks the model answer")

	r.click("simulator")
	_, offered := r.a.Inspect().Regions["solution"]
	assert.False(t, offered, "the simulator offers its solution before the model answer is shown")
	sc.Simulator().Lab.Advance(4 * time.Second)
	r.click("proc:A")
	r.click("act:A:pause")
	r.click("menu")
	r.click("check") // complete and wrong
	r.tick(ui.Input{})
	res := r.a.Inspect().Exercise.Result
	require.NotNil(t, res)
	require.False(t, res.Pass)
	assert.False(t, res.Parts[1].OK)
	assert.Contains(t, res.Parts[1].Why, "what freed the lock?")
	require.True(t, r.a.Inspect().Exercise.ModelAvailable, "a complete checked attempt unlocks the model answer")

	r.click("model")
	info = r.a.Inspect()
	assert.False(t, info.Exercise.ModelShown, "one click only asks for confirmation")
	assert.True(t, info.Exercise.ModelArmed)
	assert.Contains(t, info.Exercise.Notice, "passed with the answer shown")
	r.click("model")
	info = r.a.Inspect()
	require.True(t, info.Exercise.ModelShown)
	assert.Equal(t, "model", info.Exercise.Tab)
	assert.Contains(t, info.Mirror.Text, "Model answer:")
	_, ok := info.Regions["tab:model"]
	assert.True(t, ok, "no tab for the model answer")

	// The simulator now offers its solution; showing it leaves the
	// learner's run as the answer. (The reveal scrolled the form down to
	// the key points: the wheel brings the simulator's button back.)
	own := sc.Form.Schedule()
	for range 20 {
		r.tick(ui.Input{Cursor: r.region("form").Center(), Wheel: ui.Point{Y: 3}})
	}
	r.click("simulator")
	_, offered = r.a.Inspect().Regions["solution"]
	require.True(t, offered, "after the model answer the simulator offers its solution")
	r.click("solution")
	r.click("menu")
	assert.Equal(t, own, sc.Form.Schedule(), "the model run replaced the learner's")

	r.clearChain()
	r.addChain(sc.Ex.Reference.Chain...)
	r.click("check")
	r.tick(ui.Input{})
	ex := r.a.Inspect().Exercise
	require.True(t, ex.Result.Pass)
	assert.False(t, ex.Passed, "a pass after the reveal is not an earned pass")
	assert.Equal(t, "passed with the answer shown", ex.Status)
	r.key(ui.IntentBack)
	assert.Contains(t, r.a.Inspect().Mirror.Text, "(passed with the answer shown)")
}

// TestHintLadderOnScreen: the Hint button reveals one rung at a time in
// a Hints tab, and the rungs seen survive a reload.
func TestHintLadderOnScreen(t *testing.T) {
	store := progress.NewMemStore(nil, "")
	r := rigWith(t, store)
	r.click("exercise:compaction-ttl")
	r.click("hint")
	info := r.a.Inspect()
	assert.Equal(t, 1, info.Exercise.HintsSeen)
	assert.Equal(t, "hints", info.Exercise.Tab)
	assert.Contains(t, info.Mirror.Text, "Hint 1 of 3:")
	assert.NotContains(t, info.Mirror.Text, "Hint 2 of 3:")
	r.click("hint")
	assert.Contains(t, r.a.Inspect().Mirror.Text, "Hint 2 of 3:")
	r.key(ui.IntentBack)

	r2 := rigWith(t, store)
	r2.click("exercise:compaction-ttl")
	assert.Equal(t, 2, r2.a.Inspect().Exercise.HintsSeen)
}

// answerNoFencingWrongly makes a complete, wrong checked attempt at
// exercise 3 (a pause, the wrong cause), which unlocks its model answer.
func answerNoFencingWrongly(t *testing.T, r *appRig) *exercise.Scene {
	t.Helper()
	r.click("exercise:no-fencing")
	sc := r.exScene()
	r.click("simulator")
	sc.Simulator().Lab.Advance(4 * time.Second)
	r.click("proc:A")
	r.click("act:A:pause")
	r.click("menu")
	r.addChain(31, 34, 63)
	r.click("check")
	r.finishCheck()
	require.NotNil(t, sc.Result(), "the check finished")
	require.True(t, sc.ModelAvailable(), "a complete checked attempt unlocks the model answer")
	return sc
}

// TestTheKeyPointsAreTickedOnTheCanvas: on the desktop, once the model
// answer is shown (and not before, as on the page), its key points are
// boxes under the learner's defence, scrolled into view; a click, Space
// or Enter on a focused one ticks or unticks it, narrated as the page's
// checkbox is, and the ticks are saved and back when the exercise
// reopens.
func TestTheKeyPointsAreTickedOnTheCanvas(t *testing.T) {
	store := progress.NewMemStore(nil, "")
	r := rigWith(t, store)
	r.resize(1024, 640)
	sc := answerNoFencingWrongly(t, r)
	require.Len(t, sc.Ex.KeyPoints, 3)
	for i := 0; i < 80; i++ {
		r.key(ui.IntentFocusNext)
		require.NotContains(t, r.a.Inspect().Focus, "point:", "a key point is offered before the model answer is shown")
	}
	_, drawn := r.a.Inspect().Regions["point:0"]
	require.False(t, drawn, "a key point is drawn before the model answer is shown")

	r.click("model")
	r.click("model") // confirmed
	require.True(t, r.a.Inspect().Exercise.ModelShown)
	info := r.a.Inspect()
	view := info.Regions["form"]
	for i := range sc.Ex.KeyPoints {
		p, ok := info.Regions[fmt.Sprintf("point:%d", i)]
		require.True(t, ok, "key point %d is not in view once the model answer is shown", i)
		assert.True(t, p.Within(view), "key point %d at %v, form %v", i, p, view)
	}
	checkApart(t, info.Regions, "point:", view)
	assert.NotContains(t, info.Regions, "point:3")

	// A click ticks point 1, with the page's words.
	r.click("point:1")
	assert.True(t, sc.Form.Ticked(1))
	assert.Equal(t, "Ticked: "+sc.Ex.KeyPoints[1], last(r.a.Inspect().Mirror.Narration))
	assert.Contains(t, r.a.Inspect().Mirror.Text, "[x] "+sc.Ex.KeyPoints[1], "the canvas's text mirror says which are ticked")
	assert.Contains(t, r.a.Inspect().Mirror.Text, "[ ] "+sc.Ex.KeyPoints[0])

	// The keyboard: Tab to point 0, Space ticks it; Tab to point 2,
	// Enter ticks it and Enter again unticks it. (Tab passes the run's
	// events on the way, each a row that adds it to the chain.)
	focus := func(name string) {
		t.Helper()
		for i := 0; r.a.Inspect().Focus != name; i++ {
			require.Less(t, i, 400, "Tab never reached %s", name)
			r.key(ui.IntentFocusNext)
		}
	}
	focus("point:0")
	r.key(ui.IntentPlayPause) // Space
	assert.True(t, sc.Form.Ticked(0), "Space on a focused key point ticks it")
	focus("point:2")
	r.key(ui.IntentActivate)
	assert.True(t, sc.Form.Ticked(2), "Enter on a focused key point ticks it")
	r.key(ui.IntentActivate)
	assert.False(t, sc.Form.Ticked(2), "Enter again unticks it")
	assert.Equal(t, "Unticked: "+sc.Ex.KeyPoints[2], last(r.a.Inspect().Mirror.Narration))
	assert.Equal(t, []int{0, 1}, sc.Form.Answer().Points)
	s := r.record("exercise-points-1024x640")
	assert.Empty(t, s.offenders())

	// A reload, without leaving or checking: the ticks were saved.
	r2 := rigWith(t, store)
	r2.click("exercise:no-fencing")
	sc2 := r2.exScene()
	assert.True(t, sc2.Form.Ticked(1), "point 1 is ticked after reopening")
	assert.True(t, sc2.Form.Ticked(0))
	assert.False(t, sc2.Form.Ticked(2))
	for i := 0; r2.a.Inspect().Focus != "point:1"; i++ {
		require.Less(t, i, 400, "the reopened exercise offers its key points")
		r2.key(ui.IntentFocusNext)
	}
	r2.key(ui.IntentActivate)
	assert.False(t, sc2.Form.Ticked(1), "a reopened key point unticks")
}

// last is the last of lines, or "".
func last(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return lines[len(lines)-1]
}

// TestTheFormatExampleUnlocksNothing (issue 31): the format example labctl
// prints answers every part of exercise 3, yet checking it is no attempt:
// the model answer and the last hint stay closed, on the canvas and in
// the page's controls, and the saved progress does not count it as one;
// the learner's own answer then opens both. The desktop's --solution
// (OpenModelAnswer) follows the same gate.
func TestTheFormatExampleUnlocksNothing(t *testing.T) {
	store := progress.NewMemStore(nil, "")
	r := rigWith(t, store)
	r.click("exercise:no-fencing")
	sc := r.exScene()
	require.Error(t, sc.OpenModelAnswer(), "--solution before any attempt")
	assert.False(t, r.a.Inspect().Exercise.ModelShown)
	r.click("hint")
	r.click("hint")
	hint := func() Control {
		for _, c := range r.a.Inspect().Mirror.Controls {
			if c.ID == "hint" {
				return c
			}
		}
		t.Fatal("no hint control")
		return Control{}
	}
	require.Equal(t, 2, r.a.Inspect().Exercise.HintsSeen)
	r.shot("exercise-last-hint-locked")
	assert.True(t, hint().Disabled, "the last hint before any attempt")
	assert.Equal(t, "Hint 3 of 3", hint().Label)
	assert.Contains(t, hint().Detail, "opens once you have checked an answer of your own", "the page says why")
	sc.ShowHint()
	assert.Equal(t, 2, r.a.Inspect().Exercise.HintsSeen, "the last rung opened without an attempt")

	require.NoError(t, sc.Form.Load(sc.Ex.FormatExample()))
	r.click("check")
	r.finishCheck()
	require.NotNil(t, sc.Result())
	assert.False(t, sc.ModelAvailable(), "the format example unlocked the model answer")
	assert.True(t, hint().Disabled, "the format example unlocked the last hint")
	require.Error(t, sc.OpenModelAnswer())
	p, _ := progress.Open(store, nil)
	assert.Equal(t, 1, p.Exercise("no-fencing").Attempts)
	assert.False(t, p.Exercise("no-fencing").Complete, "saved as a real attempt")

	r.addChain(5)
	r.click("check")
	r.finishCheck()
	assert.True(t, sc.ModelAvailable(), "a real attempt opens the model answer")
	assert.False(t, hint().Disabled, "and the last hint")
	assert.Empty(t, hint().Detail)
	r.click("hint")
	assert.Equal(t, 3, r.a.Inspect().Exercise.HintsSeen)
	require.NoError(t, sc.OpenModelAnswer())
	assert.True(t, r.a.Inspect().Exercise.ModelShown)
}
