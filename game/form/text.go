package form

import (
	"fmt"
	"strings"

	"leaselab/core"
	"leaselab/lessons"
)

// The exercise's words: what the screen, its narration and its HTML
// mirror say about the answer, the run and the result.

// ModelText is the model answer and its key points, as a checklist to
// compare a defence with; ticked, if not nil, says which points the
// learner has ticked.
func ModelText(ex *lessons.Exercise, ticked func(int) bool) string {
	var b strings.Builder
	b.WriteString(strings.Join(ex.Worked, "\n\n"))
	if len(ex.KeyPoints) > 0 {
		b.WriteString("\n\nKey points of a good defence:")
		for i, k := range ex.KeyPoints {
			mark := "\n[ ] "
			if ticked != nil && ticked(i) {
				mark = "\n[x] "
			}
			b.WriteString(mark + k)
		}
	}
	return b.String()
}

// ModelTextBesideBoxes is the model answer for a screen that shows its
// key points as boxes under the learner's defence: it says where they
// are rather than listing them twice.
func ModelTextBesideBoxes(ex *lessons.Exercise) string {
	out := strings.Join(ex.Worked, "\n\n")
	if len(ex.KeyPoints) > 0 {
		out += fmt.Sprintf("\n\nThe %d key points of a good defence are under your defence in the answer form: tick those yours makes.", len(ex.KeyPoints))
	}
	return out
}

// MaterialsText is every material, each under its title, for the
// monospace logs tab.
func MaterialsText(ex *lessons.Exercise) string {
	var b strings.Builder
	for i, m := range ex.Materials {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("── " + m.Title + " ──\n")
		b.WriteString(strings.Join(m.Lines(), "\n"))
	}
	return b.String()
}

// RunText describes the answer's run in a line.
func RunText(log core.ActionLog) string {
	switch len(log) {
	case 0:
		return "Your run: no actions yet."
	case 1:
		return "Your run: 1 action (" + ActionText(log[0]) + ")."
	}
	return fmt.Sprintf("Your run: %d actions, the first %s.", len(log), ActionText(log.Sorted()[0]))
}

func ActionText(a core.Timed) string {
	out := string(a.Do)
	if a.Proc != "" {
		out += " " + a.Proc
	}
	out += " at " + core.Seconds(a.At.D())
	if a.For > 0 {
		out += " for " + core.Seconds(a.For.D())
	}
	return out
}

// PartText is one part of a verdict as a sentence, the part named first:
// "Fencing: wrong. ...". A part the learner left unanswered, or the check
// could not judge (an impossible design), says so rather than "wrong";
// a reason that opens with its own mark ("Right: ...") does not repeat it.
func PartText(p lessons.Feedback) string {
	mark, why := "wrong", p.Why
	if p.OK {
		mark = "right"
	}
	for _, m := range partMarks {
		if rest, ok := strings.CutPrefix(why, m.prefix); ok && m.ok == p.OK {
			mark, why = m.mark, core.Capitalise(rest)
			break
		}
	}
	return p.Part + ": " + mark + ". " + why
}

// partMarks are the openings of the exercises' reasons that are a mark.
var partMarks = []struct {
	prefix, mark string
	ok           bool
}{
	{"Right: ", "right", true},
	{"Not checked: ", "not checked", false},
	{"Not answered. ", "not answered", false},
}

// ResultText lays a result out for the result tab under its verdict
// line: each part as a paragraph (its ✓ or ✗ is drawn beside it), then
// the figures.
func ResultText(r lessons.Result) string {
	return strings.Join(ResultParagraphs(r), "\n")
}

// ResultParagraphs are the result tab's paragraphs: the parts on the even
// ones, with blank lines between, then the figures.
func ResultParagraphs(r lessons.Result) []string {
	var out []string
	for _, p := range r.Parts {
		out = append(out, p.Part+": "+p.Why, "")
	}
	return append(out, r.Figures...)
}

// ChoiceText narrates a click on an option.
func ChoiceText(f *Form, q lessons.Question, o lessons.Option) string {
	if f.Chosen(q.ID, o.ID) {
		return "Chosen: " + o.Label
	}
	return "Not chosen: " + o.Label
}

// MaterialTitle is a material's title in quotes, by id.
func MaterialTitle(ex *lessons.Exercise, id string) string {
	for _, m := range ex.Materials {
		if m.ID == id {
			return "“" + m.Title + "”"
		}
	}
	return id
}

// Plural is one or many, by n.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
