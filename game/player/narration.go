package player

import (
	"fmt"

	"leaselab/core"
	"leaselab/game/lab"
)

// Narration is the running commentary a screen mirrors for screen
// readers (page.Mirror.Narration): at most narrationMax lines, newest last.
// Key lines (a lock acquired or lost, a write rejected, a goal met) are
// kept before any other when old lines go, and a routine event repeated
// (the same writer's accepted writes) is one line that counts the
// repeats. A scene owns one; a player showing the same story shares it.
type Narration struct{ entries []narrated }

type narrated struct {
	text    string
	key     bool
	routine string // what the line repeats, "" for none
	first   string // the line as first told, before counting repeats
	more    int    // repeats after the first
	seq     int    // the trace event told, for Why?; -1 for none
}

const narrationMax = 20

// Add appends an ordinary line.
func (n *Narration) Add(line string) { n.add(narrated{text: line, seq: -1}) }

// AddKey appends a line a listener must not miss.
func (n *Narration) AddKey(line string) { n.add(narrated{text: line, key: true, seq: -1}) }

// AddRun appends a line of the run's story, told at the time it happened:
// a repeat of the last line's routine event adds to its count instead
// ("… (and 3 more to t=12.0 s)").
func (n *Narration) AddRun(l lab.Line) {
	text := "t=" + core.FormatTime(l.At) + " " + l.Text
	if k := len(n.entries); k > 0 && l.Routine != "" && n.entries[k-1].routine == l.Routine {
		last := &n.entries[k-1]
		last.more++
		last.text = fmt.Sprintf("%s (and %d more to t=%s)", last.first, last.more, core.FormatTime(l.At))
		return
	}
	n.add(narrated{text: text, key: l.Key, routine: l.Routine, first: text, seq: l.Seq})
}

func (n *Narration) add(e narrated) {
	n.entries = append(n.entries, e)
	for len(n.entries) > narrationMax {
		// The oldest ordinary line goes first; only key lines left, the
		// oldest of them.
		drop := 0
		for i, e := range n.entries[:len(n.entries)-1] { // never the line just told
			if !e.key {
				drop = i
				break
			}
		}
		n.entries = append(n.entries[:drop], n.entries[drop+1:]...)
	}
}

// Reset forgets every line (the story is told again from the start).
func (n *Narration) Reset() { n.entries = n.entries[:0] }

// Mark is where the next line will go, for Retold.
func (n *Narration) Mark() int { return len(n.entries) }

// Retold tells the story again: the run's lines, then the lines added
// since mark (what the learner's own step just said), which stay.
func (n *Narration) Retold(mark int, run []lab.Line) {
	var fresh []narrated
	if mark <= len(n.entries) {
		fresh = append(fresh, n.entries[mark:]...)
	}
	n.Reset()
	for _, l := range run {
		n.AddRun(l)
	}
	for _, e := range fresh {
		n.add(e)
	}
}

// Lines returns a copy of the lines, oldest first.
func (n *Narration) Lines() []string {
	out := make([]string, len(n.entries))
	for i, e := range n.entries {
		out[i] = e.text
	}
	return out
}

// Seqs gives, line by line, the trace event each line tells (-1: none),
// for the page's Why? buttons.
func (n *Narration) Seqs() []int {
	out := make([]int, len(n.entries))
	for i, e := range n.entries {
		out[i] = e.seq
	}
	return out
}

// Keys reports, line by line, which lines are key (see AddKey).
func (n *Narration) Keys() []bool {
	out := make([]bool, len(n.entries))
	for i, e := range n.entries {
		out[i] = e.key
	}
	return out
}
