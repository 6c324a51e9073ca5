package draw

import "image/color"

// Theme is the lab's palette. Text colours keep a contrast ratio of at least
// 4.5:1 against Panel and Background.
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
	Disabled:    color.RGBA{0x70, 0x7b, 0x88, 0xff},
	Accent:      color.RGBA{0x5a, 0xa9, 0xff, 0xff},
	Focus:       color.RGBA{0xff, 0xd1, 0x66, 0xff},
	Accept:      color.RGBA{0x4c, 0xc3, 0x8a, 0xff},
	Reject:      color.RGBA{0xff, 0x6b, 0x6b, 0xff},
	Warning:     color.RGBA{0xf0, 0xa4, 0x3a, 0xff},
	Belief:      color.RGBA{0xb4, 0x8c, 0xff, 0xff},
	Truth:       color.RGBA{0x4f, 0xd1, 0xc5, 0xff},
}
