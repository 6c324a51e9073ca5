package draw

import (
	"image"
	"image/color"
	"strings"

	"leaselab/game/ui"
)

// Drawn is one string as the text functions put it on an image, kept while
// a test records (Record), so the test can tell text that fits from text
// cut without a way to read it.
type Drawn struct {
	Text string  // what was drawn
	Full string  // the whole text it stands for: Text unless Cut
	Box  ui.Rect // the box it was given (its TextIn rectangle, its Paragraph's), or its own ink
	Ink  ui.Rect // where the text's box landed
	Clip ui.Rect // the image drawn on: the window, or a sub-image that clips
	// Cut is set when the text was shortened to fit (an ellipsis, or a
	// paragraph's lines dropped).
	Cut bool
	// Tip is set when the whole text shows on hover or focus (FullTextTip).
	Tip bool
	// Colour is the text's colour.
	Colour color.RGBA
	// Size is its face's em size in pixels.
	Size float64
	// Scrolls is set for text in a region that scrolls, which may lie
	// partly outside its clip: the learner scrolls to read it.
	Scrolls bool
	// Covered is set for text that a menu or overlay drawn after it hides
	// on purpose (Cover): what lies under an open menu.
	Covered bool
}

// coverRecorded marks the texts recorded so far whose ink lies under r
// Covered.
func coverRecorded(r ui.Rect) {
	if recording == nil {
		return
	}
	for i := range *recording {
		if d := &(*recording)[i]; d.Ink.Overlaps(r) {
			d.Covered = true
		}
	}
}

// Outside reports that the text's ink runs outside its box or its clip by
// more than a pixel (a rounding), so part of it is hidden or spills
// over its neighbours.
func (d Drawn) Outside() bool {
	out := func(in, box ui.Rect) bool {
		// A glyph box placed on whole pixels may overhang by a pixel
		// (its ascent includes space above the tallest letters).
		const slack = 1
		return in.X < box.X-slack || in.Y < box.Y-slack || in.MaxX() > box.MaxX()+slack || in.MaxY() > box.MaxY()+slack
	}
	return out(d.Ink, d.Box) || !d.Scrolls && out(d.Ink, d.Clip)
}

// Unreadable reports that part of the text cannot be read: cut without
// its whole text on hover, drawn outside its box, or ending in an
// ellipsis its caller put there (so the draw functions cannot offer the
// rest).
func (d Drawn) Unreadable() bool {
	return d.Cut && !d.Tip || d.Outside() || !d.Cut && strings.HasSuffix(d.Text, ui.Ellipsis)
}

var (
	recording *[]Drawn
	// scrolling is set while a region that scrolls is drawn (InScroller).
	scrolling bool
)

// Record starts keeping every string the text functions draw; stop ends
// it and returns them in drawing order. For tests.
func Record() (stop func() []Drawn) {
	var got []Drawn
	recording = &got
	return func() []Drawn {
		recording = nil
		return got
	}
}

// InScroller draws with fn a region whose content scrolls, so text that
// lies partly outside its clip is read by scrolling, not lost.
func InScroller(fn func()) {
	was := scrolling
	scrolling = true
	defer func() { scrolling = was }()
	fn()
}

// record keeps d, if a test records, with its clip and scroll state.
func record(d Drawn, clip image.Rectangle) {
	if recording == nil {
		return
	}
	if d.Full == "" {
		d.Full = d.Text
	}
	if d.Box == (ui.Rect{}) {
		d.Box = d.Ink
	}
	d.Clip = ui.Rect{X: float64(clip.Min.X), Y: float64(clip.Min.Y), W: float64(clip.Dx()), H: float64(clip.Dy())}
	d.Scrolls = d.Scrolls || scrolling
	*recording = append(*recording, d)
}

// rgba is c as the RGBA the theme spells colours in.
func rgba(c color.Color) color.RGBA { return color.RGBAModel.Convert(c).(color.RGBA) }
