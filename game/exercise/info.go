package exercise

import (
	"fmt"
	"leaselab/game/page"
	"strings"

	"leaselab/game/form"
	"leaselab/game/lab"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// What the exercise screen says outside its pixels: Inspect for tests and
// the page, and the HTML mirror's text.

// info is the exercise's state for the browser bridge, whichever of its
// screens is on show.
func (s *Scene) info() *page.ExerciseInfo {
	out := &page.ExerciseInfo{ID: s.Ex.ID, Attempts: s.attempts, Passed: s.passed, Status: s.status(), HintsSeen: s.hintsSeen,
		ModelAvailable: s.ModelAvailable(), ModelArmed: s.armed, Answer: s.Form.Answer(),
		Actions: len(s.Form.Schedule()), Checking: s.check != nil, Tab: s.tab, ModelShown: s.shown,
		Simulator: s.shows(s.lab), Notice: s.notice, Shareable: s.shareable(), Shared: s.shared, SharedWhere: s.sharedWhere}
	if s.check != nil {
		out.Progress = s.check.Progress()
	}
	if r := s.result; r != nil {
		ri := &page.ResultInfo{Pass: r.Pass, Summary: r.Summary(), Figures: r.Figures}
		for _, p := range r.Parts {
			ri.Parts = append(ri.Parts, page.PartInfo{Part: p.Part, OK: p.OK, Why: p.Why})
		}
		out.Result = ri
	}
	return out
}

// Inspect implements scene.Inspector.
func (s *answerForm) Inspect() page.SceneInfo {
	g := &s.geom
	info := page.SceneInfo{Name: "exercise", Page: true, Regions: map[string]ui.Rect{
		"back": s.back.Rect, "reading": s.reading[s.tab].Rect, "form": g.view,
		"check": s.checkB.Rect, "cancel": s.cancel.Rect, "model": s.model.Rect, "hint": s.hintB.Rect,
	}, Exercise: s.scene.info()}
	if !s.shareB.Rect.Empty() {
		info.Regions["share"] = s.shareB.Rect
	}
	for i := range s.tabs {
		info.Regions["tab:"+s.tabs[i].id] = s.tabs[i].Rect
	}
	visible := func(name string, r ui.Rect) {
		if v := r.Intersect(g.view); !v.Empty() {
			info.Regions[name] = v
		}
	}
	if s.Ex.Lab != nil {
		visible("simulator", s.sim.Rect)
	}
	for i, k := range s.Ex.Numbers {
		visible("number:"+k.ID, s.numbers[i].Rect)
	}
	for w, name := range s.names {
		if b, ok := w.(*ui.Button); ok && (strings.HasPrefix(name, "q") || strings.HasPrefix(name, "chain:")) {
			visible(name, b.Rect)
		}
	}
	for qi, q := range s.Ex.Questions {
		for oi, o := range q.Options {
			visible("opt:"+q.ID+":"+o.ID, s.options[qi][oi].Rect)
		}
	}
	visible("defence", s.defence.Rect)
	for i := range s.geom.points {
		visible(fmt.Sprintf("point:%d", i), s.points[i].Rect)
	}
	if c := s.ring.Current(); c != nil {
		info.Focus = s.names[c]
	}
	info.Mirror = page.Mirror{Title: fmt.Sprintf("Exercise %d: %s", s.Number, s.Ex.Title), Text: s.mirrorText(),
		Narration: s.narration.Lines(), Controls: s.controls()}
	return info
}

// mirrorText is the whole exercise as text, for the HTML mirror: the
// problem, the logs, the questions with what is chosen, the result and
// the model answer once shown. The page makes a paragraph of each part
// between blank lines, so every option gets its own.
func (s *answerForm) mirrorText() string {
	// Inspect runs every update: rebuild only when what it shows changed.
	key := mirrorKey{s.Form.Version(), s.result, s.shown, s.hintsSeen, s.outside}
	if s.mirror.text != "" && s.mirror.key == key {
		return s.mirror.text
	}
	s.mirror.key, s.mirror.text = key, s.buildMirrorText()
	return s.mirror.text
}

// mirrorKey is what the exercise's text mirror depends on beyond the
// exercise itself.
type mirrorKey struct {
	form   int
	result *lessons.Result
	shown  bool
	hints  int
	// outside: the page shows the form's fields and choices itself.
	outside bool
}

func (s *answerForm) buildMirrorText() string {
	var b strings.Builder
	b.WriteString(strings.Join(s.Ex.Brief, "\n\n"))
	for _, m := range s.Ex.Materials {
		b.WriteString("\n\n" + m.Title + ":\n" + strings.Join(m.Lines(), "\n"))
	}
	if s.Ex.Lab != nil {
		b.WriteString("\n\n" + form.RunText(s.Form.Schedule()))
	}
	for _, k := range s.Ex.Numbers {
		if s.outside {
			break // the page's fields say them
		}
		value := lab.KnobValue(k, s.Form.Number(k.ID))
		if !s.Form.IsSet(k.ID) {
			value = "not set"
		}
		b.WriteString(fmt.Sprintf("\n\n%s: %s", lab.KnobLabel(k), value))
	}
	for i, q := range s.Ex.Questions {
		if s.outside {
			break // the page's choices say them
		}
		b.WriteString(fmt.Sprintf("\n\n%d. %s", i+1, q.Text))
		for _, o := range q.Options {
			mark := "[ ] "
			if s.Form.Chosen(q.ID, o.ID) {
				mark = "[x] "
			}
			b.WriteString("\n\n" + mark + o.Label)
		}
	}
	if r := s.result; r != nil {
		b.WriteString("\n\nResult: " + r.Summary())
		for _, p := range r.Parts {
			b.WriteString("\n\n" + form.PartText(p))
		}
		if len(r.Figures) > 0 {
			b.WriteString("\n\n" + strings.Join(r.Figures, "\n"))
		}
	}
	for i, h := range s.Ex.Hints[:s.hintsSeen] {
		b.WriteString(fmt.Sprintf("\n\nHint %d of %d: %s", i+1, len(s.Ex.Hints), h))
	}
	if s.shown {
		// The page offers the key points as checkboxes of its own; the
		// canvas's mirror says which are ticked.
		ticked := s.Form.Ticked
		if s.outside {
			ticked = nil
		}
		b.WriteString("\n\nModel answer:\n\n" + form.ModelText(s.Ex, ticked))
		if d := s.Form.Answer().Defence; d != "" {
			b.WriteString("\n\nYour defence:\n\n" + d)
		}
	}
	return b.String()
}
