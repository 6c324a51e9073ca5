//go:build js && wasm

package main

import (
	"slices"
	"strconv"
	"strings"
	"syscall/js"

	"leaselab/game"
)

// The panel's lesson parts: its text, goals, quality notice, focus and
// narration, each updated where it changed.

// showLesson updates the lesson's title, objective, text, goals, hint and
// current step where they changed.
func (p *page) showLesson(m game.Mirror, newScene bool) {
	if m.Title != p.last.Title {
		p.setText("lesson-title", m.Title)
	}
	if m.Objective != p.last.Objective {
		p.setText("lesson-objective", m.Objective)
		if el := p.doc.Call("getElementById", "lesson-objective"); el.Truthy() {
			el.Set("hidden", m.Objective == "")
		}
	}
	if m.Text != p.last.Text {
		p.replaceChildren("lesson-text", "p", strings.Split(m.Text, "\n\n"))
	}
	// A new scene lists its own goals, none included: the sandbox's setup,
	// which has none, followed the menu's none and kept an empty "Goals"
	// heading on the page.
	if newScene || !slices.Equal(m.Goals, p.last.Goals) || !sameWords(m.Checklist, p.last.Checklist) {
		p.showGoals(m)
	}
	if m.Hint != p.last.Hint {
		hint := m.Hint
		if hint == "" {
			hint = "No hint revealed yet."
		}
		p.setText("hint", hint)
		if m.Hint != "" {
			p.announce.line("Hint: "+m.Hint, true)
		}
	}
	if m.Step != p.last.Step {
		p.setText("lesson-step-text", m.Step)
		if el := p.doc.Call("getElementById", "lesson-step"); el.Truthy() {
			el.Set("hidden", m.Step == "")
		}
	}
}

// showQuality says the drawing quality notice once, where the learner
// reads, not over the world.
func (p *page) showQuality(quality string, m game.Mirror) {
	if quality == "" || p.qualityShown {
		return
	}
	p.qualityShown = true
	p.setText("quality", quality)
	if el := p.doc.Call("getElementById", "quality"); el.Truthy() {
		el.Set("hidden", false)
	}
	if !slices.Contains(m.Narration, quality) {
		p.announce.line(quality, true) // the narration says it where it has one
	}
}

// remember keeps m, copied, to tell the next frame's changes.
func (p *page) remember(m game.Mirror) {
	p.last = m
	if m.Checklist != nil {
		words := *m.Checklist
		p.last.Checklist = &words
	}
	p.last.Goals = slices.Clone(m.Goals)
	p.last.Narration = slices.Clone(m.Narration)
}

// showGoals lists the goals, each saying whether it is met.
func (p *page) showGoals(m game.Mirror) {
	ul := p.doc.Call("getElementById", "goals")
	if !ul.Truthy() {
		return
	}
	words := game.ChecklistWords{Title: "Goals", Met: "Met", Open: "Open"}
	if m.Checklist != nil {
		words = *m.Checklist
	}
	p.setText("goals-heading", words.Title)
	items := make([]any, len(m.Goals))
	for i, g := range m.Goals {
		li := p.doc.Call("createElement", "li")
		state := p.doc.Call("createElement", "span")
		state.Set("className", "state")
		if g.Met {
			li.Set("className", "met")
			state.Set("textContent", words.Met+": ")
		} else {
			state.Set("textContent", words.Open+": ")
		}
		li.Call("append", state, g.Line())
		items[i] = li
	}
	ul.Call("replaceChildren", items...)
	if sec := p.doc.Call("getElementById", "goals-section"); sec.Truthy() {
		sec.Get("classList").Call("toggle", "empty", len(m.Goals) == 0)
	}
}

func sameWords(a, b *game.ChecklistWords) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// announceFocus says, in the polite live region, which control inside the
// canvas took the keyboard focus (the canvas is one element to a screen
// reader, so its own focus moves are otherwise silent).
func (p *page) announceFocus(focus string) {
	if focus == p.focus {
		return
	}
	p.focus = focus
	if focus == "" || !p.doc.Get("activeElement").Equal(p.doc.Call("querySelector", "canvas")) {
		return
	}
	label := p.controls.label(focus)
	if label == "" {
		label = focus
	}
	p.announce.now("Canvas: " + label)
}

func (p *page) setText(id, text string) {
	if el := p.doc.Call("getElementById", id); el.Truthy() {
		el.Set("textContent", text)
	}
}

func (p *page) replaceChildren(id, tag string, texts []string) {
	el := p.doc.Call("getElementById", id)
	if !el.Truthy() {
		return
	}
	children := make([]any, 0, len(texts))
	for _, t := range texts {
		if t = strings.TrimSpace(t); t == "" {
			continue
		}
		c := p.doc.Call("createElement", tag)
		c.Set("textContent", t)
		children = append(children, c)
	}
	el.Call("replaceChildren", children...)
}

// appendNarration adds only the lines that are new since the last tick,
// and hands them to the announcer. A narration that no longer continues
// the list (a scrub rewrote it) replaces it.
func (p *page) appendNarration(lines []string, keys []bool, seqs []int) {
	el := p.doc.Call("getElementById", "narration")
	if !el.Truthy() {
		return
	}
	old := p.last.Narration
	overlap := 0
	for o := min(len(old), len(lines)); o > 0; o-- {
		if slices.Equal(old[len(old)-o:], lines[:o]) {
			overlap = o
			break
		}
	}
	key := func(i int) bool { return i < len(keys) && keys[i] }
	seq := func(i int) int {
		if i < len(seqs) {
			return seqs[i]
		}
		return -1
	}
	if overlap == 0 && len(old) > 0 {
		items := make([]any, len(lines))
		for i, l := range lines {
			items[i] = p.narrationItem(l, seq(i))
		}
		el.Call("replaceChildren", items...)
		if n := len(lines); n > 0 {
			p.announce.line(lines[n-1], key(n-1))
		}
		return
	}
	for i := overlap; i < len(lines); i++ {
		el.Call("append", p.narrationItem(lines[i], seq(i)))
		p.announce.line(lines[i], key(i))
	}
	for el.Get("childElementCount").Int() > max(len(lines), 1) {
		el.Get("firstElementChild").Call("remove")
	}
}

// narrationItem is one line of "What happened": its text and, when it
// tells an event of the run, a Why? button that asks about it.
func (p *page) narrationItem(text string, seq int) js.Value {
	li := p.doc.Call("createElement", "li")
	li.Set("textContent", text)
	if seq >= 0 {
		b := p.doc.Call("createElement", "button")
		b.Set("type", "button")
		b.Set("className", "why")
		b.Set("textContent", "Why?")
		b.Call("setAttribute", "aria-label", "Why? "+text)
		b.Get("dataset").Set("why", strconv.Itoa(seq))
		li.Call("append", " ", b)
	}
	return li
}
