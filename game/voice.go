package game

import (
	"slices"
	"time"
)

// Voice is what a screen reader is told where there is no page: the
// desktop, whose window is one picture to the system. Fed the scene's
// report after every update (Hear), it hands an Announcer what the page
// hands its live region: a new screen's title, the control that took the
// canvas's focus (by its label), and the narration's new lines, key lines
// always; Say returns the next announcement. The desktop writes them to
// the file --announce names, for a screen reader or a test to read.
type Voice struct {
	a            Announcer
	title, focus string
	lines        []string
}

// NewVoice returns a voice that speaks at the page's pace.
func NewVoice() *Voice { return &Voice{a: Announcer{Interval: DefaultInterval}} }

// Hear takes the scene's report after an update.
func (v *Voice) Hear(s SceneInfo) {
	m := s.Mirror
	if m.Title != v.title {
		v.title, v.focus, v.lines = m.Title, s.Focus, m.Narration
		v.a.Screen(m.Title)
		return
	}
	overlap := 0
	for o := min(len(v.lines), len(m.Narration)); o > 0; o-- {
		if slices.Equal(v.lines[len(v.lines)-o:], m.Narration[:o]) {
			overlap = o
			break
		}
	}
	if overlap == 0 && len(v.lines) > 0 && len(m.Narration) > 0 {
		overlap = len(m.Narration) - 1 // the list was told anew: its last line
	}
	for i := overlap; i < len(m.Narration); i++ {
		v.a.Line(m.Narration[i], i < len(m.NarrationKey) && m.NarrationKey[i])
	}
	v.lines = m.Narration
	if s.Focus != v.focus {
		v.focus = s.Focus
		if s.Focus != "" {
			v.a.Now(controlLabel(m.Controls, s.Focus))
		}
	}
}

// Say returns what to announce at time now ("" for nothing yet).
func (v *Voice) Say(now time.Duration) string { return v.a.Flush(now) }

// controlLabel is the label of the control named id, or id.
func controlLabel(cs []Control, id string) string {
	for _, c := range cs {
		if c.ID == id && c.Label != "" {
			return c.Label
		}
	}
	return id
}
