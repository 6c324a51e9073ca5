package form

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/lessons"
)

func logsExercise(t *testing.T) *lessons.Exercise {
	t.Helper()
	ex, err := lessons.FindExercise("token-logs")
	require.NoError(t, err)
	require.NotNil(t, ex.Queries)
	return ex
}

// choose sets menu id to the option named opt, as a learner picking it
// from the menu would.
func choose(t *testing.T, b *Builder, id, opt string) {
	t.Helper()
	for _, m := range b.Menus() {
		if m.ID == id {
			i := slices.Index(m.Options, opt)
			require.GreaterOrEqual(t, i, 0, "menu %s has no option %q (it has %v)", id, opt, m.Options)
			require.NoError(t, b.Set(id, i))
			return
		}
	}
	t.Fatalf("no menu %s", id)
}

// TestBuilderMakesPassingChecksFromMenus: the menus alone build a set of
// checks that passes exercise 5 (with the model's evidence), so the page
// and the desktop, which offer only them, can finish it.
func TestBuilderMakesPassingChecksFromMenus(t *testing.T) {
	ex := logsExercise(t)
	f := New(ex)
	b := NewBuilder(ex.Queries)
	assert.Equal(t, "bug if some write X: X.at = X.line", b.Text(), "a fresh builder reads as a check")

	// Each step picks an option of a menu; "+" adds a comparison.
	for _, steps := range [][][2]string{
		{{"left:1", "X.result"}, {"op:1", "="}, {"right:1", "'accepted'"}, {"+"},
			{"left:2", "X.token"}, {"op:2", "<"}, {"right:2", "X.highest"}},
		{{"kind", "lease.lost"}, {"with", "send"}, {"left:1", "Y.actor"}, {"right:1", "X.actor"}, {"+"},
			{"left:2", "Y.token"}, {"right:2", "X.token"}, {"+"}, {"left:3", "Y.line"}, {"op:3", ">"}, {"right:3", "X.line"}},
	} {
		b := NewBuilder(ex.Queries)
		for _, st := range steps {
			if st[0] == "+" {
				b.AddRow()
				continue
			}
			choose(t, b, st[0], st[1])
		}
		require.NoError(t, f.AddCheck(b.Text()))
	}
	assert.Equal(t, "bug if some write X: X.result = 'accepted' and X.token < X.highest", f.Checks()[0])
	b = NewBuilder(ex.Queries)
	b.AddRow()
	b.AddRow()
	assert.False(t, b.CanAddRow(), "three comparisons at most")

	a := f.Answer()
	a.Choices = ex.Reference.Choices
	r, err := ex.Check(a)
	require.NoError(t, err)
	assert.True(t, r.Pass, r.Text())
}

// TestBuilderKeepsChoicesValid: changing the kind keeps each comparison
// among the new kind's fields; text fields offer only = and !=; a menu
// option out of range or an unknown menu is refused; every built check
// parses.
func TestBuilderKeepsChoicesValid(t *testing.T) {
	ex := logsExercise(t)
	b := NewBuilder(ex.Queries)
	choose(t, b, "left:1", "X.result")
	for _, m := range b.Menus() {
		if m.ID == "op:1" {
			assert.Equal(t, []string{"=", "!="}, m.Options)
		}
		if m.ID == "right:1" {
			assert.Contains(t, m.Options, "'rejected stale token'")
			assert.NotContains(t, m.Options, "X.token", "a text field is compared with text")
		}
	}
	choose(t, b, "kind", "pause")
	assert.Equal(t, "X.at", b.Rows[0].Left, "pause events have no result: back to the first field")
	assert.Error(t, b.Set("kind", 99))
	assert.Error(t, b.Set("left:4", 0))
	for _, m := range b.Menus() {
		for i := range m.Options {
			c := *b
			c.Rows = slices.Clone(b.Rows)
			require.NoError(t, c.Set(m.ID, i))
			_, err := ex.Queries.Parse(c.Text())
			assert.NoError(t, err, "%s = %s: %s", m.ID, m.Options[i], c.Text())
		}
	}
}

// TestFormChecksAreValidated: a check the exercise cannot read, or one
// already there, is refused and the answer stays as it was; a check can
// be removed.
func TestFormChecksAreValidated(t *testing.T) {
	ex := logsExercise(t)
	f := New(ex)
	require.NoError(t, f.AddCheck("bug if some pause"))
	err := f.AddCheck("bug if some pause")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the same check as checks[0]")
	err = f.AddCheck("bug if some pause: for_ms >")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "at character 28")
	assert.Equal(t, []string{"bug if some pause"}, f.Checks())
	require.NoError(t, f.RemoveCheck(0))
	assert.Empty(t, f.Checks())
	assert.Error(t, f.RemoveCheck(0))
}
