package game

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/lessons"
)

// Every lesson opens with its objective above the story, in the canvas
// panel and in the text view, and the objective stays where it is while
// the story scrolls: it is not part of the scrolling text.
func TestEveryLessonKeepsItsObjectiveInView(t *testing.T) {
	for _, size := range [][2]float64{{1280, 800}, {1024, 640}} {
		for _, l := range lessons.All() {
			r := newAppRig(t)
			r.resize(size[0], size[1])
			r.tick(r.st.Input)
			r.click("lesson:" + l.ID)
			info := r.a.Inspect()
			require.Equal(t, "lesson", info.Name, l.ID)
			assert.Equal(t, l.Objective, info.Mirror.Objective, "%s: the text view has the objective", l.ID)
			obj, ok := info.Regions["objective"]
			require.True(t, ok, "%s at %v: the objective is laid out", l.ID, size)
			text := info.Regions["lessonText"]
			assert.LessOrEqual(t, obj.MaxY(), text.Y, "%s at %v: the objective sits above the story", l.ID, size)
			assert.Equal(t, obj.X, text.X, "%s: aligned with the story", l.ID)
			assert.LessOrEqual(t, obj.H, 3*24.0, "%s at %v: the objective takes at most a few lines", l.ID, size)
			assert.GreaterOrEqual(t, text.H, 60.0, "%s at %v: the story keeps room to read", l.ID, size)
		}
	}
}

// The menu's text view lists each lesson and exercise as a paragraph of
// its own, with its state, what it is about and about how long it takes.
func TestMenuTextSaysWhatEachLessonIsAbout(t *testing.T) {
	r := newAppRig(t)
	text := r.a.Inspect().Mirror.Text
	paras := strings.Split(text, "\n\n")
	for i, l := range lessons.All() {
		para := findPara(paras, l.Title)
		assert.True(t, strings.HasPrefix(para, fmt.Sprintf("%d. %s (", i+1, l.Title)), "%s: its own numbered paragraph: %q", l.ID, para)
		assert.Contains(t, para, l.Summary, l.ID)
		assert.Contains(t, findPara(paras, l.Title), fmt.Sprintf("About %d min.", l.Minutes), l.ID)
	}
	for _, e := range lessons.Exercises() {
		assert.Contains(t, findPara(paras, e.Title), e.Summary, e.ID)
	}
}

// findPara is the paragraph that mentions title ("" if none).
func findPara(paras []string, title string) string {
	for _, p := range paras {
		if strings.Contains(p, title) {
			return p
		}
	}
	return ""
}
