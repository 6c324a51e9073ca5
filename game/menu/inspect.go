package menu

import "leaselab/game/ui"

// What the App and the tests read of the menu scene, and the one line the
// App adds to its notice.

// Still implements scene.Stiller: the menu has no animation.
func (m *Scene) Still() bool { return true }

// NoteSlow adds the line that says the lab draws with less detail to the
// notice, after anything it says already (a notice about the learner's
// progress must not be lost to it); the page shows that line in a box of
// its own, so the mirror leaves it out.
func (m *Scene) NoteSlow(line string) {
	m.slow = line
	if m.Notice != "" {
		line = m.Notice + " " + line
	}
	m.Notice = line
}

// Rows are the lessons' buttons, then the exercises'.
func (m *Scene) Rows() []*ui.Button { return m.rows() }

// LessonsHead is where the lessons' heading was laid out.
func (m *Scene) LessonsHead() ui.Rect { return m.lessonsHead }

// Tips are the rows' tooltips, each lesson's then each exercise's.
func (m *Scene) Tips() []ui.Tooltip { return m.tips }
