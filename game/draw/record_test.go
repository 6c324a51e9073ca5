package draw

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/game/ui"
)

// The recorder tells text that fits from text cut without a way to read
// it: the clipping test of every screen rests on these verdicts.
func TestRecordTellsCutTextFromTextThatFits(t *testing.T) {
	c := newCanvas(400, 200)
	s := NewStyle(1)
	long := "a sentence far too long to fit in a box this narrow"
	stop := Record()
	TextIn(c.img, "fits", s.Body(), ui.Rect{X: 10, Y: 10, W: 200, H: 30}, AlignStart, s.Theme.Text)
	TextIn(c.img, long, s.Body(), ui.Rect{X: 10, Y: 50, W: 80, H: 30}, AlignStart, s.Theme.Text)
	TextInTip(c.img, long, s.Body(), ui.Rect{X: 10, Y: 90, W: 80, H: 30}, AlignStart, s.Theme.Text)
	TextIn(c.img, "cut by its caller"+ui.Ellipsis, s.Body(), ui.Rect{X: 10, Y: 130, W: 300, H: 30}, AlignStart, s.Theme.Text)
	Paragraph(c.img, long, s.Body(), ui.Rect{X: 200, Y: 10, W: 100, H: 30}, s.Theme.Text)
	TextAligned(c.img, "past the edge", s.Body(), 390, 100, AlignStart, AlignCenter, s.Theme.Text)
	got := stop()
	require.Len(t, got, 7, "four TextIns, the one Paragraph line that fits and its lost rest, one TextAligned")

	assert.False(t, got[0].Unreadable(), "text that fits")
	assert.True(t, got[1].Cut && !got[1].Tip && got[1].Unreadable(), "cut with no tip: %+v", got[1])
	assert.Equal(t, long, got[1].Full)
	assert.True(t, got[2].Cut && got[2].Tip && !got[2].Unreadable(), "cut, whole on hover: %+v", got[2])
	assert.True(t, got[3].Unreadable(), "an ellipsis the caller put in hides the rest from the draw functions")
	assert.False(t, got[4].Unreadable(), "a paragraph's line that fits")
	assert.True(t, got[5].Cut && got[5].Unreadable(), "a paragraph's lines that do not fit are lost: %+v", got[5])
	assert.True(t, got[6].Outside() && got[6].Unreadable(), "text past the image's edge: %+v", got[6])

	stop = Record()
	InScroller(func() {
		TextAligned(c.img, "scrolled half out", s.Body(), 10, 195, AlignStart, AlignStart, s.Theme.Text)
	})
	got = stop()
	require.Len(t, got, 1)
	assert.False(t, got[0].Unreadable(), "text in a region that scrolls is read by scrolling")
}

// A text drawn cut with TextInTip shows whole in a tooltip once the
// pointer has rested on it, or the focus ring has stayed around it, for
// the tooltip's delay; elsewhere nothing shows.
func TestFullTextTipShowsTheWholeText(t *testing.T) {
	c := newCanvas(600, 300)
	s := NewStyle(1)
	long := "Who wakes up: predecessor watches, herds and etcd's fair queue"
	box := ui.Rect{X: 10, Y: 10, W: 120, H: 24}
	EndFrame() // what other tests drew is not on this screen
	TextInTip(c.img, long, s.Body(), box, AlignStart, s.Theme.Text)
	TextIn(c.img, "short", s.Body(), ui.Rect{X: 10, Y: 60, W: 120, H: 24}, AlignStart, s.Theme.Text)
	EndFrame()
	require.Equal(t, []FullText{{Box: box, Text: long}}, CutTexts())

	var tip FullTextTip
	rest := func(at ui.Point, ticks int) {
		for range ticks {
			in := ui.Input{Cursor: at, Scale: 1, WindowW: 600, WindowH: 300}
			tip.Update(&in, 30)
		}
	}
	rest(ui.Point{X: 50, Y: 72}, 40)
	assert.False(t, tip.Visible(), "no tip over text that fits")
	rest(box.Center(), 20)
	assert.False(t, tip.Visible(), "not before the delay")
	rest(box.Center(), 20)
	require.True(t, tip.Visible(), "after resting on the cut text")
	assert.Equal(t, long, tip.Text())

	stop := Record()
	s.FullTextTip(c.img, &tip, ui.Rect{W: 600, H: 300})
	drawn := stop()
	require.NotEmpty(t, drawn)
	for _, d := range drawn {
		assert.False(t, d.Unreadable(), "the tip itself is readable: %+v", d)
	}
	assert.Equal(t, long, drawn[0].Text, "on one line, where it fits")

	// By keyboard: the focus ring around the cut text, pointer elsewhere.
	TextInTip(c.img, long, s.Body(), box, AlignStart, s.Theme.Text)
	s.FocusRing(c.img, box, 4)
	EndFrame()
	tip = FullTextTip{}
	rest(ui.Point{X: 500, Y: 250}, 40)
	assert.True(t, tip.Visible(), "focus on the cut text shows it whole")
}

// A menu or overlay drawn over a cut text hides it from the tip too.
func TestCoverHidesTheCutTextsUnderIt(t *testing.T) {
	c := newCanvas(300, 100)
	s := NewStyle(1)
	EndFrame()
	under, beside := ui.Rect{X: 10, Y: 10, W: 40, H: 20}, ui.Rect{X: 200, Y: 10, W: 40, H: 20}
	TextInTip(c.img, "a label far too long for its box", s.Body(), under, AlignStart, s.Theme.Text)
	TextInTip(c.img, "another label far too long", s.Body(), beside, AlignStart, s.Theme.Text)
	Cover(ui.Rect{X: 0, Y: 0, W: 100, H: 100})
	EndFrame()
	require.Len(t, CutTexts(), 1)
	assert.Equal(t, beside, CutTexts()[0].Box)
}
