package draw

import "math"

// Style is what every widget drawing needs: colours, fonts and the layout
// unit (ui.UnitFor) that scales line widths, radii and font sizes.
type Style struct {
	Theme *Theme
	Fonts *Fonts
	Unit  float64
	// PanelOutside says the page around the canvas shows the lesson panel
	// (its text, goals, hints and buttons, as HTML in the browser), so a
	// scene gives the whole canvas to the world, the timeline and the time
	// controls and draws no text the page already shows.
	PanelOutside bool
}

// NewStyle returns the dark theme with the shared fonts at unit u.
func NewStyle(u float64) Style {
	return Style{Theme: &Dark, Fonts: SharedFonts(), Unit: u}
}

// U scales a size given in units to pixels.
func (s Style) U(v float64) float64 { return v * s.Unit }

// px rounds a unit size to whole pixels, at least one.
func (s Style) px(v float64) float64 { return math.Max(1, math.Round(v*s.Unit)) }

// Body is the face for lesson prose.
func (s Style) Body() *Face { return s.Fonts.Face(Regular, s.U(15)) }

// Small is the face for secondary text: tooltips, captions.
func (s Style) Small() *Face { return s.Fonts.Face(Regular, s.U(13)) }

// Label is the face for buttons and headings in panels.
func (s Style) Label() *Face { return s.Fonts.Face(Bold, s.U(14)) }

// Title is the face for the lesson title.
func (s Style) Title() *Face { return s.Fonts.Face(Bold, s.U(19)) }

// Mono is the face for numbers that change: times, tokens, revisions.
func (s Style) Mono() *Face { return s.Fonts.Face(Mono, s.U(13)) }
