// Package place names where the learner is in the lab (the menu, a
// lesson, an exercise, the sandbox) and writes it as the page address's
// fragment, so a reload, the browser's Back button and a bookmark return
// there. It is free of the display: the page and its tests use it alike.
package place

import (
	"regexp"
	"strings"
)

// Kind is a kind of screen.
type Kind string

// The screens an address can name.
const (
	Menu     Kind = "menu"
	Lesson   Kind = "lesson"
	Exercise Kind = "exercise"
	Sandbox  Kind = "sandbox"
	// Shared is a shared answer graded again: its address is the
	// share's #share= link, which the page keeps (Fragment is "").
	Shared Kind = "shared"
)

// Place is where the learner is: a kind of screen, the lesson's or the
// exercise's id, and Sub, the part of it on show ("simulator", "run",
// "compare"...), which a screen change notices. The address keeps the
// parts a reload can rebuild from what is saved (Kept: an exercise's
// simulator, replayed from the answer's draft); a reload elsewhere opens
// the screen they belong to (a sandbox run's address is its #run= link,
// which the page writes).
type Place struct {
	Kind Kind   `json:"kind"`
	ID   string `json:"id,omitempty"`
	Sub  string `json:"sub,omitempty"`
}

// Fragment is the place as the address's fragment: "" for the menu,
// "#lesson=ID", "#exercise=ID" ("#exercise=ID/simulator" in its
// simulator), "#sandbox". It never starts with "#run=", a shared run's
// link.
func (p Place) Fragment() string {
	switch p.Kind {
	case Lesson, Exercise:
		f := "#" + string(p.Kind) + "=" + p.ID
		if p.Kept() {
			f += "/" + p.Sub
		}
		return f
	case Sandbox:
		return "#sandbox"
	}
	return ""
}

// Simulator is an exercise's simulator, the one part of a screen the
// address names.
const Simulator = "simulator"

// Kept reports that the address names p's part on show: one a reload
// rebuilds without losing the learner's work.
func (p Place) Kept() bool { return p.Kind == Exercise && p.Sub == Simulator }

// Screen is the place with its part on show, for telling one screen from
// the next.
func (p Place) Screen() string {
	s := string(p.Kind)
	if p.ID != "" {
		s += "=" + p.ID
	}
	if p.Sub != "" {
		s += "/" + p.Sub
	}
	return s
}

// id is what a lesson's or exercise's id may hold.
var id = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

// Parse reads an address's fragment ("#lesson=fenced-writes"; "" or "#"
// is the menu). It reports false for one that names no place: a shared
// run's "#run=...", or anything else, which the page leaves alone.
func Parse(fragment string) (Place, bool) {
	f := strings.TrimPrefix(fragment, "#")
	if f == "" || f == "menu" {
		return Place{Kind: Menu}, true
	}
	if f == "sandbox" {
		return Place{Kind: Sandbox}, true
	}
	kind, v, ok := strings.Cut(f, "=")
	v, sub, slash := strings.Cut(v, "/")
	if !ok || !id.MatchString(v) {
		return Place{}, false
	}
	if p := (Place{Kind: Kind(kind), ID: v, Sub: sub}); slash && !p.Kept() {
		return Place{}, false
	}
	switch Kind(kind) {
	case Lesson, Exercise:
		return Place{Kind: Kind(kind), ID: v, Sub: sub}, true
	}
	return Place{}, false
}

// Title is the page's title on a screen whose heading is heading: the
// screen first, so a list of tabs or a history menu tells them apart.
func Title(heading string) string {
	if heading == "" || strings.HasPrefix(heading, "LeaseLab") {
		if heading == "" {
			return "LeaseLab"
		}
		return heading
	}
	return heading + " – LeaseLab"
}
