package menu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/ui"
	"leaselab/lessons"

	"boot.leaselab/progress"
)

// someProgress has the first lesson complete and the first exercise tried
// once.
type someProgress struct{}

func (someProgress) GoalsMet(id string) (int, bool) { return 0, id == lessons.All()[0].ID }
func (someProgress) Exercise(id string) progress.Exercise {
	if id == lessons.Exercises()[0].ID {
		return progress.Exercise{Attempts: 1}
	}
	return progress.Exercise{}
}

// opened records what the menu opened.
type opened struct{ what []string }

func newMenu(o *opened) *Menu {
	m := &Menu{Lessons: lessons.All(), Exercises: lessons.Exercises(), Progress: someProgress{},
		Open:         func(l *lessons.Lesson) { o.what = append(o.what, "lesson "+l.ID) },
		OpenExercise: func(e *lessons.Exercise) { o.what = append(o.what, "exercise "+e.ID) },
		OnSandbox:    func() { o.what = append(o.what, "sandbox") }}
	m.Declare()
	return m
}

// The page's list and the canvas's rows are one declaration: every row
// the page lists has its canvas button under the same id, with the same
// words and state, in the same order, and no button is declared twice.
func TestTheMenuPageAndCanvasAreOneDeclaration(t *testing.T) {
	m := newMenu(&opened{})
	cs := m.Deck.Controls()
	require.Len(t, cs, 1+len(m.Lessons)+len(m.Exercises), "the sandbox, every lesson and every exercise")
	buttons := m.Deck.Buttons()
	require.Len(t, buttons, len(cs))
	for i, c := range cs {
		b := m.Deck.Button(c.ID)
		require.NotNil(t, b, "the canvas has a row for %q", c.ID)
		assert.Same(t, b, buttons[i], "in the page's order")
		assert.Equal(t, c.Label, b.Label, "%s: the canvas's words are the page's", c.ID)
		assert.Equal(t, c.Disabled, b.Disabled, "%s: and its state", c.ID)
		assert.Equal(t, ui.KindLink, c.Kind, "%s: a row is a way to another screen", c.ID)
	}
	first, ok := cs.Find(LessonID(m.Lessons[0]))
	require.True(t, ok)
	assert.Equal(t, "1. "+m.Lessons[0].Title, first.Label)
	assert.Contains(t, first.Detail, "Complete.", "the learner's progress is in the declaration")
	ex, ok := cs.Find(ExerciseID(m.Exercises[0]))
	require.True(t, ok)
	assert.Equal(t, "E1. "+m.Exercises[0].Title, ex.Label)
	assert.Contains(t, ex.Detail, "Tried once.")

	m.OnSandbox = nil
	assert.True(t, m.Declare(), "without a sandbox the ids change")
	assert.Nil(t, m.Deck.Button(SandboxID), "and the canvas has no sandbox button")
}

// A row's use from the page, a click on its canvas row and a digit key
// open the same thing through the same door, once.
func TestAMenuRowOpensAlikeFromThePageAndTheCanvas(t *testing.T) {
	for _, id := range []string{SandboxID, "lesson:fenced-writes", "exercise:no-fencing"} {
		var page, canvas opened
		m := newMenu(&page)
		used, rest := m.Update(&ui.Input{Host: []ui.HostAction{{ID: id}}})
		assert.True(t, used, id)
		assert.Empty(t, rest, id)

		m = newMenu(&canvas)
		b := m.Deck.Button(id)
		require.NotNil(t, b, id)
		b.Rect = ui.Rect{X: 10, Y: 10, W: 200, H: 40}
		m.Update(&ui.Input{Cursor: ui.Point{X: 20, Y: 20}, MouseDown: true, MouseJustDown: true})
		used, _ = m.Update(&ui.Input{Cursor: ui.Point{X: 20, Y: 20}, MouseJustUp: true})
		assert.True(t, used, id)

		require.Len(t, page.what, 1, "%s: the page's use opened one thing", id)
		assert.Equal(t, page.what, canvas.what, "%s: the canvas's click opened the same", id)
	}
	var keys opened
	m := newMenu(&keys)
	used, _ := m.Update(&ui.Input{Digit: 2})
	assert.True(t, used)
	assert.Equal(t, []string{"lesson " + m.Lessons[1].ID}, keys.what, "2 opens the second lesson")
}
