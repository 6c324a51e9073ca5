package game

import (
	"fmt"
	"strings"
	"time"
)

// Announcer decides what the page's polite live region says as a run
// plays, so a listener can follow it at any speed: every key line is said
// (several at once joined into one announcement), while other lines that
// come faster than one an interval are summarised by the latest and a
// count of those passed over (they stay in the narration list). A focus
// move is said at once.
type Announcer struct {
	// Interval is the least time between two announcements of the run.
	Interval time.Duration

	last    time.Duration // when the last announcement was made
	spoke   bool
	keys    []string
	latest  string // the newest other line waiting
	skipped int    // other lines passed over since the last announcement
	urgent  string
	// screen: urgent is a new screen's announcement, which holds the
	// run's lines back for an interval after it is said.
	screen bool
}

// DefaultInterval gives a screen reader time to say a sentence.
const DefaultInterval = 1500 * time.Millisecond

// Line hands the announcer a new narration line.
func (a *Announcer) Line(text string, key bool) {
	if key {
		a.keys = append(a.keys, text)
		return
	}
	if a.latest != "" {
		a.skipped++
	}
	a.latest = text
}

// Now says text at the next Flush, before anything waiting.
func (a *Announcer) Now(text string) { a.urgent = text }

// Screen says text at the next Flush in place of everything waiting: a
// new screen's one announcement. What the screen shows when it opens (its
// narration so far) is not said; lines after it wait an interval.
func (a *Announcer) Screen(text string) {
	a.keys, a.latest, a.skipped = a.keys[:0], "", 0
	a.urgent, a.screen = text, true
}

// Flush returns what to announce at time now ("" for nothing yet).
func (a *Announcer) Flush(now time.Duration) string {
	if a.urgent != "" {
		s := a.urgent
		a.urgent = ""
		if a.screen {
			a.screen = false
			a.last, a.spoke = now, true
		}
		return s
	}
	if len(a.keys) == 0 && a.latest == "" {
		return ""
	}
	if a.spoke && now-a.last < a.Interval {
		return ""
	}
	parts := append([]string(nil), a.keys...)
	if a.latest != "" && (len(parts) == 0 || a.skipped == 0) {
		parts = append(parts, a.latest)
	} else if a.latest != "" {
		a.skipped++
	}
	s := sentences(parts)
	if a.skipped > 0 {
		s += fmt.Sprintf(" (%d more in the list of what happened)", a.skipped)
	}
	a.keys, a.latest, a.skipped = a.keys[:0], "", 0
	a.last, a.spoke = now, true
	return s
}

// sentences joins lines into one announcement, each ended by a full stop
// unless it ends a sentence already (never "up.. Next").
func sentences(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(l)
		if i < len(lines)-1 && !strings.HasSuffix(l, ".") && !strings.HasSuffix(l, "?") && !strings.HasSuffix(l, "!") && !strings.HasSuffix(l, ")") {
			b.WriteString(".")
		}
	}
	return b.String()
}
