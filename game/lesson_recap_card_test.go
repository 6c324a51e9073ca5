package game

import (
	"fmt"
	"leaselab/game/lesson"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/draw"
	"leaselab/game/form"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// completeOwnRun opens lesson id and plays its solution as the learner's
// own run to the end (the recap question asks about the learner's run,
// not a solution on show), answering its predictions with the first
// option, so the recap has predictions beside what happened.
func completeOwnRun(t *testing.T, r *appRig, id string) *lesson.Scene {
	t.Helper()
	r.click("lesson:" + id)
	sc := r.a.top().(*lesson.Scene)
	l, err := lessons.Find(id)
	require.NoError(t, err)
	answer := func() {
		if q, ok := sc.Lab.Asking(); ok {
			require.True(t, sc.Lab.Predict(q.Options[0].ID))
		}
	}
	for _, ta := range l.Solution {
		for sc.Lab.Now() < ta.At.D() {
			answer()
			sc.Lab.Play(ta.At.D() - sc.Lab.Now())
		}
		require.NoError(t, sc.Lab.Do(ta.Action))
	}
	for i := 0; i < 400 && !sc.Complete(); i++ {
		answer()
		sc.Lab.Play(sc.Lab.Length() / 100)
		r.tick(ui.Input{})
	}
	require.True(t, sc.Complete(), "%s is complete in the learner's own run", id)
	return sc
}

// moveTo presses key until the canvas's focus is on name.
func (r *appRig) moveTo(name string, key ui.Intent) {
	r.t.Helper()
	for i := 0; r.a.Inspect().Focus != name; i++ {
		require.Less(r.t, i, 400, "%v never reached %s (focus on %q)", key, name, r.a.Inspect().Focus)
		r.key(key)
	}
	_, visible := r.a.Inspect().Regions[name]
	assert.True(r.t, visible, "%s is scrolled into view", name)
}

// TestKeyboardAnswersTheRecapQuestionOnTheCanvas: on the desktop's
// canvas a completed lesson offers its recap and recap question at the
// right of the goals' heading, said in the narration; Tab and Enter open
// the card, which holds the recap and the learner's predictions beside
// what happened; the arrows and Tab reach every event of the learner's
// run, Enter adds it; the right chain is told right, and the same chain
// with a link taken out is told its gap as a question, said as a key
// line; Esc closes the card and gives the focus back to its opener.
func TestKeyboardAnswersTheRecapQuestionOnTheCanvas(t *testing.T) {
	r := newAppRig(t)
	sc := completeOwnRun(t, r, "fenced-writes")
	m := r.a.Inspect().Mirror
	said := slices.IndexFunc(m.Narration, func(l string) bool { return strings.HasPrefix(l, "Lesson complete. ") })
	require.GreaterOrEqual(t, said, 0, "the completion is said")
	assert.Contains(t, m.Narration[said], sc.RecapInvitation(), "with where the recap is")
	opener, ok := r.a.Inspect().Regions[lesson.RecapOpenName]
	require.True(t, ok, "the opener is on the canvas")
	assert.True(t, opener.Within(r.region("goals")), "at the goals' heading")

	r.moveTo(lesson.RecapOpenName, ui.IntentFocusNext)
	r.key(ui.IntentActivate)
	require.True(t, sc.RecapShown(), "Enter opens the card")
	assert.Equal(t, lesson.RecapCloseName, r.a.Inspect().Focus, "the card's first widget has the focus")
	done := r.a.Inspect().Mirror.Done
	require.NotNil(t, done)
	require.NotEmpty(t, done.Predictions, "the run answered a prediction")
	var texts []string
	for _, tx := range sc.RecapTexts() {
		texts = append(texts, tx.Text)
	}
	assert.Contains(t, texts, draw.Drawable(done.Recap), "the card holds the recap")
	assert.Contains(t, texts, draw.Drawable(done.Predictions[0]), "and the prediction beside what happened")
	assert.Contains(t, texts, "Recap question: "+done.Chain.Question, "and the question")

	story := fencedStory(t, sc)
	for i, seq := range story {
		key := ui.IntentDown // the arrows, and Tab, walk the events
		if i%2 == 1 {
			key = ui.IntentFocusNext
		}
		r.moveTo(fmt.Sprintf("recap:add:%d", seq), key)
		r.key(ui.IntentActivate)
		assert.True(t, strings.HasPrefix(r.a.Inspect().Focus, "recap:add:"), "the focus stays in the run's events after an Enter, on %q", r.a.Inspect().Focus)
	}
	require.Equal(t, story, sc.RecapChain(), "the chain is the story, in order")
	r.moveTo(lesson.RecapCheckName, ui.IntentFocusNext)
	r.key(ui.IntentActivate)
	got := r.a.Inspect().Mirror.Done.Chain
	assert.True(t, got.Checked && got.OK, "the whole story is right: %s", got.Verdict)
	n := r.a.Inspect().Mirror.Narration
	require.NotNil(t, sc.RecapVerdict())
	assert.Equal(t, "Recap: "+form.PartText(*sc.RecapVerdict()), n[len(n)-1], "the verdict is said")
	assert.Contains(t, n[len(n)-1], "Your chain of events: right.")
	assert.True(t, r.a.Inspect().Mirror.NarrationKey[len(n)-1], "as a key line, which the page announces")
	assert.Contains(t, sc.RecapFooter(), "right", "and shown under the chain")

	// Take out the expiry (step 3): the gap, never the answer.
	r.moveTo("recap:remove:2", ui.IntentUp)
	r.key(ui.IntentActivate)
	assert.Equal(t, "recap:remove:2", r.a.Inspect().Focus, "the focus stays on the chain after a Remove")
	r.moveTo(lesson.RecapCheckName, ui.IntentFocusPrev)
	r.key(ui.IntentActivate)
	got = r.a.Inspect().Mirror.Done.Chain
	require.True(t, got.Checked)
	assert.False(t, got.OK)
	assert.Contains(t, got.Verdict, "what freed the lock?")
	assert.Contains(t, sc.RecapFooter(), "what freed the lock?", "the gap is shown on the card")
	assert.NotContains(t, got.Verdict, fmt.Sprintf("event %d ", story[2]), "the event left out is not named")

	r.key(ui.IntentBack)
	assert.False(t, sc.RecapShown(), "Esc closes the card")
	assert.Equal(t, lesson.RecapOpenName, r.a.Inspect().Focus, "and the focus is back on its opener")
	assert.Same(t, sc, r.a.top(), "the lesson stays open")
}

// TestPointerAnswersTheRecapOnTheCanvas: a click opens the card, a click
// or a tap on an event's row adds it (the wheel scrolls the card to it),
// a click on Check my chain checks it, and Back to the run closes it.
func TestPointerAnswersTheRecapOnTheCanvas(t *testing.T) {
	r := newAppRig(t)
	r.resize(1024, 640)
	sc := completeOwnRun(t, r, "fenced-writes")
	r.click(lesson.RecapOpenName)
	require.True(t, sc.RecapShown(), "a click opens the card")
	story := fencedStory(t, sc)
	for i, seq := range story {
		name := fmt.Sprintf("recap:add:%d", seq)
		for j := 0; ; j++ {
			if v, ok := r.a.Inspect().Regions[name]; ok && v.H >= sc.RecapStyle().U(30) {
				break
			}
			require.Less(t, j, 200, "the wheel never brought %s into view", name)
			r.tick(ui.Input{Cursor: r.region("recapForm").Center(), Wheel: ui.Point{Y: -1}})
		}
		c := r.region(name).Center()
		if i%2 == 0 {
			r.click(name)
			continue
		}
		r.tick(ui.Input{Touches: []ui.Touch{{ID: 1, Pos: c, JustDown: true}}})
		r.tick(ui.Input{Touches: []ui.Touch{{ID: 1, Pos: c, JustUp: true}}})
	}
	require.Equal(t, story, sc.RecapChain(), "clicks and taps built the story")
	r.click(lesson.RecapCheckName)
	got := r.a.Inspect().Mirror.Done.Chain
	assert.True(t, got.Checked && got.OK, "right: %s", got.Verdict)
	r.click(lesson.RecapCloseName)
	assert.False(t, sc.RecapShown(), "Back to the run closes it")
}

// TestTheRecapCardIsDrawnReadably: the card, with a chain and its
// verdict, draws every text whole inside its box and no two texts on one
// another, at the desktop's small and usual sizes and in a window as
// narrow as the phone's canvas; scrolled to its end too.
func TestTheRecapCardIsDrawnReadably(t *testing.T) {
	sizes := []struct {
		name string
		w, h float64
		unit float64
	}{
		{"1024x640", 1024, 640, ui.UnitFor(1024, 640, 1)},
		{"1280x800", 1280, 800, ui.UnitFor(1280, 800, 1)},
		{"phone", phoneWindow.W, phoneWindow.H, ui.UnitForBare(phoneWindow.W, phoneWindow.H, 3)},
	}
	for _, size := range sizes {
		r := newAppRig(t)
		r.st.Window = ui.Rect{W: size.w, H: size.h}
		r.st.Style = draw.NewStyle(size.unit)
		sc := completeOwnRun(t, r, "fenced-writes")
		closed := r.record("recap-opener-" + size.name)
		if size.name != "phone" { // the phone's page has the panel, and the recap in it
			assert.Empty(t, closed.offenders(), "%s: the player with the opener reads whole", size.name)
			assert.Empty(t, overlapping(closed, r.region("goals")), "%s: the opener is on no goal's text", size.name)
		}
		r.click(lesson.RecapOpenName)
		require.True(t, sc.RecapShown(), size.name)
		story := fencedStory(t, sc)
		for _, seq := range story[:4] {
			r.tick(ui.Input{Host: []ui.HostAction{{ID: fmt.Sprintf("recap:add:%d", seq)}}})
		}
		r.tick(ui.Input{Host: []ui.HostAction{{ID: lesson.RecapCheckName}}})
		for _, at := range []string{"top", "end"} {
			for j := 0; at == "end"; j++ {
				if scroll, end := sc.RecapScroll(); scroll >= end {
					break
				}
				require.Less(t, j, 400, "%s: the wheel never reached the card's end", size.name)
				r.tick(ui.Input{Cursor: r.region("recapForm").Center(), Wheel: ui.Point{Y: -1}})
			}
			shot := r.record("recap-card-" + size.name + "-" + at)
			card := screenText{name: shot.name}
			for _, d := range shot.drawn {
				if !d.Covered && (d.Ink.Overlaps(sc.RecapRect()) || d.Box.Overlaps(sc.RecapRect())) {
					card.drawn = append(card.drawn, d) // the card's, not the player's under it
				}
			}
			require.NotEmpty(t, card.drawn)
			assert.Empty(t, card.offenders(), "%s %s: every text whole in its box", size.name, at)
			assert.Empty(t, overlapping(shot, sc.RecapRect()), "%s %s: no text on another", size.name, at)
		}
	}
}

// overlapping lists the pairs of texts drawn inside area whose ink
// overlaps (the texts under the card are covered and left out).
func overlapping(s screenText, area ui.Rect) []string {
	var in []draw.Drawn
	for _, d := range s.drawn {
		if !d.Covered && d.Text != "" && strings.TrimSpace(d.Text) != "" && d.Ink.Within(area) && !d.Clip.Intersect(d.Ink).Empty() {
			in = append(in, d)
		}
	}
	var out []string
	for i := range in {
		for j := i + 1; j < len(in); j++ {
			a, b := in[i].Ink.Intersect(in[i].Clip), in[j].Ink.Intersect(in[j].Clip)
			if a.Inset(1).Overlaps(b.Inset(1)) {
				out = append(out, fmt.Sprintf("%q %v on %q %v", in[i].Text, a, in[j].Text, b))
			}
		}
	}
	return out
}

// The recap card's chain and the page's are one declaration: each event
// row on the canvas has the words and state of the page's control of its
// id, and adding an event by a click on the card or by the page's control
// passes the same door, with the same chain and the same words after.
func TestTheRecapCardAndThePageAreOneDeclaration(t *testing.T) {
	open := func() (*appRig, *lesson.Scene) {
		r := newAppRig(t)
		sc := completeOwnRun(t, r, "fenced-writes")
		r.click(lesson.RecapOpenName)
		require.True(t, sc.RecapShown(), "the card opened")
		return r, sc
	}
	r, sc := open()
	decls := ui.Controls(sc.RecapControls())
	var first string
	for _, b := range sc.RecapEventButtons() {
		id := b.Name
		c, ok := decls.Find(id)
		require.True(t, ok, "the page declares the canvas's %q", id)
		assert.Equal(t, draw.Drawable(c.Label), b.Label, "%s: the canvas's words are the declaration's", id)
		assert.Equal(t, c.Disabled, b.Disabled, "%s: and its state", id)
		if first == "" && !b.Disabled {
			first = id
		}
	}
	require.NotEmpty(t, first)
	r.tick(ui.Input{Host: []ui.HostAction{{ID: first}}})
	pageChain, pageSaid := slices.Clone(sc.RecapChain()), lastLine(r)
	require.Len(t, pageChain, 1, "the page's use added the event")

	r, sc = open()
	r.click(first)
	assert.Equal(t, pageChain, sc.RecapChain(), "the canvas's click added the same event")
	assert.Equal(t, pageSaid, lastLine(r), "and said it alike")

	r.tick(ui.Input{Host: []ui.HostAction{{ID: first}}})
	assert.Equal(t, pageChain, sc.RecapChain(), "an event already in the chain is not added twice")
	assert.Contains(t, lastLine(r), "is already in your chain", "the declaration's door refuses it, and says why")
}
