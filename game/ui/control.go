package ui

import (
	"fmt"
	"math"
)

// Control is one control as a scene declares it, once per update: its id,
// where the page lists it, its words, its state and what using it does.
// The canvas widget and the page's HTML control are both made from it: the
// page receives the declarations as they are (Do is not sent), and the
// canvas widget takes its label and state from the declaration and, when
// clicked, uses it through the same door as the page ([Controls.Use]).
type Control struct {
	// ID names the control everywhere: the page sends it
	// (HostAction.ID), the canvas names its region and its focus by it,
	// and tests and the browser's selectors use it. Slot, when set, is
	// the control's lasting place, kept while its ID changes with the
	// state ("Pause" becomes "Resume"), so the page keeps it focused.
	ID   string `json:"id"`
	Slot string `json:"slot,omitempty"`
	// Group is the heading it is listed under: an actor ("A"), "Store",
	// "Playback", "Lesson".
	Group string `json:"group"`
	Label string `json:"label"`
	// Kind is "" for a button; "toggle" for an on/off button (On says
	// which); "range" for a value between Min and Max in Step, shown as
	// Text; "choice" for one of Options (Value is the index); "radio" and
	// "check" for an option of a single- or multiple-choice question
	// (On: chosen); "link" for a way to another screen.
	Kind     string   `json:"kind,omitempty"`
	On       bool     `json:"on,omitempty"`
	Disabled bool     `json:"disabled,omitempty"`
	Value    float64  `json:"value,omitempty"`
	Min      float64  `json:"min,omitempty"`
	Max      float64  `json:"max,omitempty"`
	Step     float64  `json:"step,omitempty"`
	Text     string   `json:"text,omitempty"`
	Options  []string `json:"options,omitempty"`
	// Detail is a line said after the label (a lesson's summary).
	Detail string `json:"detail,omitempty"`
	// Typed: beside the range the page offers a box to type the value
	// in, for values too fine to set by dragging (a count up to 7,200)
	// and for touch, which has no arrow keys. Entry is what the box
	// shows: the value, or "" for a value not given (a prediction not
	// made). The box's use arrives as a HostAction with Typed set and
	// Text holding what was typed, which the scene parses and judges.
	Typed bool   `json:"typed,omitempty"`
	Entry string `json:"entry,omitempty"`
	// Key is the control's shortcut on the canvas, which the canvas
	// shows after the label ([Control.CanvasLabel]); the page lists the
	// keys in its own help. 0 is none (Tab, intent 0, moves the focus
	// and is no control's key), as in lab.Choice.
	Key Intent `json:"-"`

	// Do is what using the control does; h carries a range's or a
	// choice's value (already checked against Min and Max, or Options)
	// and a text field's text. Nil: the scene applies the use itself
	// (a control not yet declared with its action).
	Do func(h HostAction) `json:"-"`
}

// CanvasLabel is the label as the canvas shows it: with its key, if it
// has one ("Resume (Z)").
func (c Control) CanvasLabel() string {
	if c.Key == 0 {
		return c.Label
	}
	return WithKey(c.Label, c.Key)
}

// Control kinds.
const (
	KindToggle = "toggle"
	KindRange  = "range"
	KindChoice = "choice"
	KindRadio  = "radio"
	KindCheck  = "check"
	KindLink   = "link"
	KindText   = "text" // a few paragraphs the learner writes; Text holds them
	// KindCopy is text the learner copies (a link): shown read-only in a
	// field they can select by keyboard; Text holds it.
	KindCopy = "copy"
	// KindNote is words, not a control: a paragraph the page shows in its
	// group's reading order (a check's verdict under its button), Label
	// its first line and Detail the lines after. Nothing uses it.
	KindNote = "note"
)

// Controls are a scene's declarations for one update, in the order the
// page lists them.
type Controls []Control

// Find returns the declaration with id, if there is one.
func (cs Controls) Find(id string) (Control, bool) {
	for _, c := range cs {
		if c.ID == id {
			return c, true
		}
	}
	return Control{}, false
}

// Use is the one door a control's use passes, from the page or the canvas:
// it finds the declaration h names, refuses a disabled one and a value out
// of its range or options, and runs its action once. handled is false when
// no declaration with an action has that id (the scene's older path may
// know it); err says why a declared control was not used.
func (cs Controls) Use(h HostAction) (handled bool, err error) {
	c, ok := cs.Find(h.ID)
	if !ok || c.Do == nil {
		return false, nil
	}
	if c.Disabled {
		return true, fmt.Errorf("%s is not available now", c.Label)
	}
	switch c.Kind {
	case KindRange:
		if math.IsNaN(h.Value) {
			return true, fmt.Errorf("%s: not a number", c.Label)
		}
		h.Value = min(max(h.Value, c.Min), c.Max)
	case KindChoice:
		if i := int(h.Value); float64(i) != h.Value || i < 0 || i >= len(c.Options) {
			return true, fmt.Errorf("%s has no option %v", c.Label, h.Value)
		}
	}
	c.Do(h)
	return true, nil
}
