package lessons

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"time"

	"leaselab/core"
)

// formatDefence is the example's stand-in for the learner's reasoning.
const formatDefence = "your reasoning in a few sentences (kept, not graded)"

// FormatExample is an answer in the exercise's format that is not an
// answer to it: each number and each choice differs from the model's
// (a number takes its field's default, or its minimum if the default is
// the model's; a question its first option the model does not pick), and
// the run, if any, is a short pause that breaks nothing. It is built from
// the exercise's own fields, so it always parses, and a test checks that
// it fails: help text showing the model answer would hand it out.
func (e *Exercise) FormatExample() Answer {
	a := Answer{Defence: formatDefence}
	for _, k := range e.Numbers {
		v := k.Default
		if ref, ok := e.Reference.Numbers[k.ID]; ok && ref == v {
			v = k.Min
		}
		if a.Numbers == nil {
			a.Numbers = map[string]float64{}
		}
		a.Numbers[k.ID] = v
	}
	if e.Queries != nil {
		a.Checks = []string{formatCheck}
	}
	for _, q := range e.Questions {
		ref := e.Reference.Choices[q.ID]
		for _, o := range q.Options {
			if !slices.Contains(ref, o.ID) {
				if a.Choices == nil {
					a.Choices = map[string][]string{}
				}
				a.Choices[q.ID] = []string{o.ID}
				break
			}
		}
	}
	if e.ChainRun != nil {
		a.Chain = []int{0, 1}
	}
	if e.Lab != nil {
		if procs := e.labProcesses(); len(procs) > 0 {
			a.Schedule = core.ActionLog{core.At(time.Second, core.Pause(procs[0], 2*time.Second))}
		}
	}
	return a
}

// FormatText is the answer format as help prints it: the example, said to
// be no answer, then what the fields mean. An example written into Format
// itself (a JSON object before the prose) is left out: the example above
// replaces it.
func (e *Exercise) FormatText() string {
	text := "An example of the format, not an answer (it runs, and fails):\n" + exampleJSON(e.FormatExample())
	if notes := formatNotes(e.Format); notes != "" {
		text += "\n" + notes
	}
	return text
}

// exampleJSON writes an answer as JSON with one line a field: a choice
// list, the numbers, an action each.
func exampleJSON(a Answer) string {
	enc := func(v any) string {
		var b bytes.Buffer
		j := json.NewEncoder(&b)
		j.SetEscapeHTML(false) // a check's > stays >
		if err := j.Encode(v); err != nil {
			panic(err) // answers are plain data
		}
		return strings.TrimSuffix(b.String(), "\n")
	}
	var fields []string
	if len(a.Choices) > 0 {
		var qs []string
		for _, q := range slices.Sorted(maps.Keys(a.Choices)) {
			qs = append(qs, "    "+enc(q)+": "+enc(a.Choices[q]))
		}
		fields = append(fields, "  \"choices\": {\n"+strings.Join(qs, ",\n")+"\n  }")
	}
	if len(a.Checks) > 0 {
		var cs []string
		for _, c := range a.Checks {
			cs = append(cs, "    "+enc(c))
		}
		fields = append(fields, "  \"checks\": [\n"+strings.Join(cs, ",\n")+"\n  ]")
	}
	if len(a.Numbers) > 0 {
		fields = append(fields, "  \"numbers\": "+enc(a.Numbers))
	}
	if len(a.Schedule) > 0 {
		var ts []string
		for _, t := range a.Schedule {
			ts = append(ts, "    "+enc(t))
		}
		fields = append(fields, "  \"schedule\": [\n"+strings.Join(ts, ",\n")+"\n  ]")
	}
	fields = append(fields, "  \"defence\": "+enc(a.Defence))
	return "{\n" + strings.Join(fields, ",\n") + "\n}"
}

// formatNotes is format without a leading JSON-like example.
func formatNotes(format string) string {
	f := strings.TrimSpace(format)
	if !strings.HasPrefix(f, "{") {
		return f
	}
	depth := 0
	for i, r := range f {
		switch r {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return strings.TrimSpace(f[i+1:])
			}
		}
	}
	return ""
}
