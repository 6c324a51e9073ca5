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
)

// Place is where the learner is: a kind of screen, the lesson's or the
// exercise's id, and Sub, the part of it on show ("simulator", "run",
// "compare"...), which a screen change notices but the address leaves
// out (a reload opens the exercise's answer, the sandbox's setup).
type Place struct {
	Kind Kind   `json:"kind"`
	ID   string `json:"id,omitempty"`
	Sub  string `json:"sub,omitempty"`
}

// Fragment is the place as the address's fragment: "" for the menu,
// "#lesson=ID", "#exercise=ID", "#sandbox". It never starts with "#run=",
// a shared run's link.
func (p Place) Fragment() string {
	switch p.Kind {
	case Lesson, Exercise:
		return "#" + string(p.Kind) + "=" + p.ID
	case Sandbox:
		return "#sandbox"
	}
	return ""
}

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
	if !ok || !id.MatchString(v) {
		return Place{}, false
	}
	switch Kind(kind) {
	case Lesson, Exercise:
		return Place{Kind: Kind(kind), ID: v}, true
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
