package ui

// HostAction is one use of a control the page around the canvas offers
// (the browser's HTML lesson panel): the control's id, and for a range or
// a choice the value picked. The Game hands this tick's to the scene in
// Input.Host; a scene resolves an id to the widget of that name and uses
// it as a click would (Press, Request), so an HTML button and a click on
// the canvas take the same path.
type HostAction struct {
	ID    string  `json:"id"`
	Value float64 `json:"value,omitempty"`
	// Text is what a text field on the page holds now, or, with Typed,
	// what the learner typed in a range's box (Control.Typed).
	Text  string `json:"text,omitempty"`
	Typed bool   `json:"typed,omitempty"`
}

// IntentNamed returns the intent whose name (Intent.String) is name.
func IntentNamed(name string) (Intent, bool) {
	for i := range intentCount {
		if intentTable[i].name == name {
			return i, true
		}
	}
	return 0, false
}

// Press makes the widget's next Update fire as a click would (unless it is
// disabled then): the host page's copy of the widget was used.
func (p *press) Press() { p.queued = true }

// Request makes the slider's next Update take v, clamped and snapped, and
// report a change if it is one: the host page's copy of the slider moved.
func (s *Slider) Request(v float64) { s.requested, s.hasRequest = v, true }
