package exercise

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/form"
	"leaselab/game/ui"
)

// A number field set to the value it already holds says nothing more: the
// page sends a number on input and again on change, and "What happened"
// listed "Lease left when a pause begins just before a renewal set to 7 s"
// twice. A new value is said; the default, which the fresh answer already
// holds (a value the learner sees is an answer), is not news.
func TestAnExerciseNumberIsSaidOncePerValue(t *testing.T) {
	r, sc := openEx(t, "renew-ttl-pause", 1280, 800)
	require.NotEmpty(t, sc.Ex.Numbers)
	k := sc.Ex.Numbers[0]
	said := func() int {
		n := 0
		for _, line := range r.Info().Mirror.Narration {
			if strings.HasPrefix(line, k.Label+" set to ") {
				n++
			}
		}
		return n
	}
	r.Use("number:"+k.ID, k.Default)
	require.Equal(t, 0, said(), "the default is the answer already")
	other := k.Default + k.Step
	if other > k.Max {
		other = k.Default - k.Step
	}
	r.Use("number:"+k.ID, other)
	assert.Equal(t, 1, said(), "another value is")
	r.Use("number:"+k.ID, other)
	assert.Equal(t, 1, said(), "the same value again is not")
	assert.Equal(t, other, sc.Form.Number(k.ID))
}

// An exercise's number can be typed as well as dragged: touch has no
// arrow keys, and exercise 4's keepalives an hour (0 to 7,200 in ones) is
// too fine to drag to. What is typed is judged by the game: a value in the
// range and on its steps is the answer (the slider follows); an empty box
// withdraws a prediction; anything else is refused with a sentence beside
// the box and said aloud, and the answer stays as it was.
func TestAnExerciseNumberIsTypedAndWhatCannotBeIsRefusedBesideTheBox(t *testing.T) {
	r, sc := openEx(t, "compaction-ttl", 1280, 800)
	typed := func(id, text string) ui.Control {
		t.Helper()
		r.Tick(ui.Input{Host: []ui.HostAction{{ID: id, Typed: true, Text: text}}})
		r.Tick(ui.Input{})
		c, ok := r.Control(id)
		require.True(t, ok, "the panel offers %s", id)
		return c
	}
	c, ok := r.Control("number:per-hour")
	require.True(t, ok)
	assert.True(t, c.Typed, "the page offers a box for it")
	assert.Equal(t, "360", c.Entry, "the box shows the value the answer holds")

	c = typed("number:per-hour", " 720 ")
	assert.Equal(t, 720.0, sc.Form.Number("per-hour"), "a typed value is the answer")
	assert.Equal(t, 720.0, c.Value, "the slider follows")
	assert.Equal(t, "720", c.Entry)
	assert.Empty(t, c.Detail, "nothing refused")

	for text, why := range map[string]string{
		"seven hundred": `Work out: keepalives per hour, your design: "seven hundred" is not a number`,
		"7201":          "Work out: keepalives per hour, your design goes from 0 to 7200",
		"720.5":         "Work out: keepalives per hour, your design goes in steps of 1",
		"":              "Work out: keepalives per hour, your design: type a number",
		"NaN":           `Work out: keepalives per hour, your design: "NaN" is not a number`,
	} {
		c = typed("number:per-hour", text)
		assert.Equal(t, why, c.Detail, "typing %q is refused beside the box", text)
		assert.Equal(t, 720.0, sc.Form.Number("per-hour"), "and the answer keeps 720")
		assert.Contains(t, r.Info().Mirror.Narration, why, "and said aloud")
	}

	c = typed("number:est-failover", "25,5")
	assert.Equal(t, 25.5, sc.Form.Number("est-failover"), "a decimal comma is read as a point")
	assert.Equal(t, "25.5", c.Entry)
	refusal, _ := r.Control("number:per-hour")
	assert.Empty(t, refusal.Detail, "a later change ends the last refusal")
	c = typed("number:est-failover", "")
	assert.Equal(t, "", c.Entry, "an empty box withdraws the prediction")
	assert.Equal(t, "no prediction", c.Text)

	c = typed("number:ttl", "12.5")
	assert.Equal(t, "Lease TTL goes in steps of 1 (etcd grants leases in whole seconds)", c.Detail, "etcd's whole seconds")
	assert.Equal(t, 30.0, sc.Form.Number("ttl"))
}

// A check's verdict is listed under the Check button, each part on a line
// of its own, so the page shows it where a phone's learner tapped (the
// result is also at the top of the exercise's text); none before a check,
// and none while one runs.
func TestACheckVerdictIsANoteUnderTheCheckButton(t *testing.T) {
	r, sc := openEx(t, "compaction-ttl", 1280, 800)
	_, ok := r.Control("verdict")
	require.False(t, ok, "no verdict before a check")
	r.Use("check", 0)
	if sc.Checking() {
		_, ok = r.Control("verdict")
		assert.False(t, ok, "none while the check runs")
	}
	r.finishCheck()
	res := sc.Result()
	require.NotNil(t, res)
	v, ok := r.Control("verdict")
	require.True(t, ok, "the verdict is listed")
	assert.Equal(t, ui.KindNote, v.Kind, "as words, not a control")
	assert.Equal(t, "Result: "+res.Summary(), v.Label)
	require.Len(t, strings.Split(v.Detail, "\n"), len(res.Parts), "a line a part")
	for i, line := range strings.Split(v.Detail, "\n") {
		assert.Equal(t, form.PartText(res.Parts[i]), line)
	}
	cs := r.Info().Mirror.Controls
	i := slices.IndexFunc(cs, func(c ui.Control) bool { return c.ID == "check" })
	require.GreaterOrEqual(t, i, 0)
	require.Less(t, i+1, len(cs))
	assert.Equal(t, "verdict", cs[i+1].ID, "right under the Check button")
}
