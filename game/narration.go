package game

// Narration is the running commentary a screen mirrors for screen
// readers (Mirror.Narration): the last narrationMax lines, newest last.
// A scene owns one; a player showing the same story shares it.
type Narration struct{ lines []string }

const narrationMax = 20

// Add appends a line, dropping the oldest beyond narrationMax.
func (n *Narration) Add(line string) {
	n.lines = append(n.lines, line)
	if k := len(n.lines); k > narrationMax {
		n.lines = append(n.lines[:0], n.lines[k-narrationMax:]...)
	}
}

// Lines returns a copy of the lines, oldest first.
func (n *Narration) Lines() []string { return append([]string(nil), n.lines...) }
