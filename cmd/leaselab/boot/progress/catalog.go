package progress

import (
	"fmt"
	"slices"
	"strings"
)

// Catalog lists the lessons and exercises a LeaseLab has, by id. Progress
// read for any other id (made up in an imported file, or a lesson a later
// LeaseLab no longer has) is dropped, and the learner told so: kept, 1,000
// made-up ids filled the document to MaxEntries and every later save
// failed until the file was deleted by hand. The functions that read a
// store take a *Catalog; nil keeps every id (tests, and tools that only
// carry progress).
type Catalog struct {
	Lessons, Exercises []string
}

// prune drops from p the lessons and exercises known does not list, and
// returns a sentence for the learner saying what went ("" when nothing
// did): whose is "Your saved progress" or "The imported file".
func (p *Progress) prune(known *Catalog, whose string) string {
	if known == nil {
		return ""
	}
	lessons := dropUnknown(p.Lessons, known.Lessons)
	exercises := dropUnknown(p.Exercises, known.Exercises)
	if len(lessons)+len(exercises) == 0 {
		return ""
	}
	return fmt.Sprintf("%s had progress in %s this LeaseLab does not have (%s); it was left out.",
		whose, counted(len(lessons), len(exercises)), quoteSome(append(lessons, exercises...)))
}

// dropUnknown deletes from m every id not in known and returns them, sorted.
func dropUnknown[V any](m map[string]V, known []string) []string {
	var gone []string
	for id := range m {
		if !slices.Contains(known, id) {
			gone = append(gone, id)
			delete(m, id)
		}
	}
	slices.Sort(gone)
	return gone
}

// counted is "3 lessons and 1 exercise", leaving out a kind with none.
func counted(lessons, exercises int) string {
	var parts []string
	for _, c := range []struct {
		n    int
		kind string
	}{{lessons, "lesson"}, {exercises, "exercise"}} {
		switch {
		case c.n == 1:
			parts = append(parts, "1 "+c.kind)
		case c.n > 1:
			parts = append(parts, fmt.Sprintf("%d %ss", c.n, c.kind))
		}
	}
	return strings.Join(parts, " and ")
}

// quoteSome quotes the first three ids, and says how many more there are.
func quoteSome(ids []string) string {
	const shown = 3
	var quoted []string
	for _, id := range ids[:min(len(ids), shown)] {
		quoted = append(quoted, fmt.Sprintf("%q", id))
	}
	s := strings.Join(quoted, ", ")
	if len(ids) > shown {
		s += fmt.Sprintf(" and %d more", len(ids)-shown)
	}
	return s
}
