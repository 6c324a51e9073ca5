package draw

import (
	"image/color"
	"math"
)

// Theme is the lab's palette. Every text colour keeps a contrast ratio of
// at least 4.5:1 (WCAG 2.2, 1.4.3) against every background it is drawn
// on: TextPairs lists them, and a test checks each.
type Theme struct {
	Background  color.RGBA // behind everything
	Panel       color.RGBA // region backgrounds
	Raised      color.RGBA // buttons, tooltips
	RaisedHover color.RGBA
	Pressed     color.RGBA
	Border      color.RGBA
	Text        color.RGBA
	TextDim     color.RGBA // secondary text; still readable
	Disabled    color.RGBA // text and marks of disabled widgets
	Accent      color.RGBA // active parts: slider fill, toggle on
	Focus       color.RGBA // the keyboard focus ring, distinct from Accent
	Accept      color.RGBA // paired with a ✓
	Reject      color.RGBA // paired with a ✗
	Warning     color.RGBA // belief overlap
	Belief      color.RGBA // what a process believes about its lease
	Truth       color.RGBA // what the coordinator says
}

// Dark is the default theme.
var Dark = Theme{
	Background:  color.RGBA{0x10, 0x14, 0x1a, 0xff},
	Panel:       color.RGBA{0x19, 0x20, 0x29, 0xff},
	Raised:      color.RGBA{0x26, 0x30, 0x3d, 0xff},
	RaisedHover: color.RGBA{0x32, 0x3f, 0x50, 0xff},
	Pressed:     color.RGBA{0x1d, 0x3a, 0x5c, 0xff},
	Border:      color.RGBA{0x44, 0x52, 0x63, 0xff},
	Text:        color.RGBA{0xec, 0xf0, 0xf4, 0xff},
	TextDim:     color.RGBA{0xa8, 0xb4, 0xc2, 0xff},
	Disabled:    color.RGBA{0x7e, 0x89, 0x96, 0xff},
	Accent:      color.RGBA{0x5a, 0xa9, 0xff, 0xff},
	Focus:       color.RGBA{0xff, 0xd1, 0x66, 0xff},
	Accept:      color.RGBA{0x4c, 0xc3, 0x8a, 0xff},
	Reject:      color.RGBA{0xff, 0x6b, 0x6b, 0xff},
	Warning:     color.RGBA{0xf0, 0xa4, 0x3a, 0xff},
	Belief:      color.RGBA{0xb4, 0x8c, 0xff, 0xff},
	Truth:       color.RGBA{0x4f, 0xd1, 0xc5, 0xff},
}

// TextPair is a text colour and a background the lab draws it on.
type TextPair struct {
	Name     string // "TextDim on Raised"
	Text, On color.RGBA
}

// TextPairs are the text colours and the backgrounds each is drawn on:
// panels, cards and buttons (Raised, RaisedHover under the pointer,
// Pressed while held and behind a badge whose process believes it leads),
// and the window's Background (the menu, the setup panel); and the
// Background colour as text on the world's coloured pills.
func (t *Theme) TextPairs() []TextPair {
	on := map[string][]string{
		"Text":     {"Background", "Panel", "Raised", "RaisedHover", "Pressed"},
		"TextDim":  {"Background", "Panel", "Raised", "RaisedHover"},
		"Disabled": {"Background", "Panel"},
		"Accent":   {"Background", "Panel", "Raised"},
		"Accept":   {"Background", "Panel", "Raised", "RaisedHover"},
		"Reject":   {"Background", "Panel", "Raised"},
		"Warning":  {"Background", "Panel", "Raised", "RaisedHover"},
		"Truth":    {"Panel", "Raised"}, // the coordinator's holder row
		// The world's pills ("paused", "link cut", "2 held"): dark text
		// on a coloured pill.
		"Background": {"Warning", "Reject", "Accent", "TextDim"},
	}
	colours := map[string]color.RGBA{
		"Background": t.Background, "Panel": t.Panel, "Raised": t.Raised, "RaisedHover": t.RaisedHover, "Pressed": t.Pressed,
		"Text": t.Text, "TextDim": t.TextDim, "Disabled": t.Disabled, "Accent": t.Accent,
		"Accept": t.Accept, "Reject": t.Reject, "Warning": t.Warning, "Truth": t.Truth,
	}
	var pairs []TextPair
	for _, text := range []string{"Text", "TextDim", "Disabled", "Accent", "Accept", "Reject", "Warning", "Truth", "Background"} {
		for _, bg := range on[text] {
			pairs = append(pairs, TextPair{Name: text + " on " + bg, Text: colours[text], On: colours[bg]})
		}
	}
	return pairs
}

// Contrast is the WCAG 2.2 contrast ratio of two opaque colours, from 1
// (the same) to 21 (black on white).
func Contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// luminance is a colour's relative luminance (WCAG 2.2's definition, from
// sRGB).
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}
