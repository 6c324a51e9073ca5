package draw

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/stretchr/testify/assert"

	"leaselab/game/ui"
)

// canvas is an image the tests draw on and read back.
type canvas struct {
	img  *ebiten.Image
	w, h int
}

func newCanvas(w, h int) *canvas { return &canvas{ebiten.NewImage(w, h), w, h} }

// pixels reads the canvas after handing Ebitengine the shapes still in
// the batch, as the end of every frame does.
func (c *canvas) pixels() []byte {
	Flush()
	pix := make([]byte, 4*c.w*c.h)
	c.img.ReadPixels(pix)
	return pix
}

func (c *canvas) at(x, y int) color.RGBA {
	pix := c.pixels()
	i := 4 * (y*c.w + x)
	return color.RGBA{pix[i], pix[i+1], pix[i+2], pix[i+3]}
}

// inked counts painted pixels inside r and outside r.
func (c *canvas) inked(r image.Rectangle) (inside, outside int) {
	pix := c.pixels()
	for y := 0; y < c.h; y++ {
		for x := 0; x < c.w; x++ {
			if pix[4*(y*c.w+x)+3] == 0 {
				continue
			}
			if (image.Point{x, y}).In(r) {
				inside++
			} else {
				outside++
			}
		}
	}
	return
}

func near(a, b color.RGBA) bool {
	d := func(x, y uint8) bool { return math.Abs(float64(x)-float64(y)) <= 8 }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B) && d(a.A, b.A)
}

func TestFillRoundRectRoundsCorners(t *testing.T) {
	c := newCanvas(100, 60)
	FillRoundRect(c.img, ui.Rect{X: 10, Y: 10, W: 80, H: 40}, 12, Dark.Accent)
	if got := c.at(50, 30); !near(got, Dark.Accent) {
		t.Errorf("centre %v, want %v", got, Dark.Accent)
	}
	if got := c.at(11, 11); got.A != 0 {
		t.Errorf("corner painted %v: not rounded", got)
	}
	if got := c.at(5, 30); got.A != 0 {
		t.Errorf("outside painted %v", got)
	}
}

func TestRingShowsFractionFromTwelveClockwise(t *testing.T) {
	c := newCanvas(100, 100)
	track := color.RGBA{0x40, 0x40, 0x40, 0xff}
	Ring(c.img, ui.Point{X: 50, Y: 50}, 40, 6, 0.25, track, Dark.Truth)
	at := func(deg float64) color.RGBA {
		rad := (deg - 90) * math.Pi / 180
		return c.at(int(math.Round(50+40*math.Cos(rad))), int(math.Round(50+40*math.Sin(rad))))
	}
	if got := at(45); !near(got, Dark.Truth) {
		t.Errorf("45° into a quarter ring: %v, want the arc colour", got)
	}
	if got := at(180); !near(got, track) {
		t.Errorf("bottom of a quarter ring: %v, want the track", got)
	}
	if got := at(300); !near(got, track) {
		t.Errorf("300°: %v, want the track (the arc runs clockwise)", got)
	}
}

func TestAcceptedAndRejectedDifferInShape(t *testing.T) {
	// Colour is never the only signal: with one colour, ✓ and ✗ still differ.
	check, cross := newCanvas(40, 40), newCanvas(40, 40)
	CheckMark(check.img, ui.Point{X: 20, Y: 20}, 30, 3, color.White)
	CrossMark(cross.img, ui.Point{X: 20, Y: 20}, 30, 3, color.White)
	a, _ := check.inked(image.Rect(0, 0, 40, 40))
	b, _ := cross.inked(image.Rect(0, 0, 40, 40))
	if a == 0 || b == 0 || bytes.Equal(check.pixels(), cross.pixels()) {
		t.Fatalf("marks: check %d px, cross %d px, identical=%v", a, b, bytes.Equal(check.pixels(), cross.pixels()))
	}
	// The ✗ crosses the centre; the ✓ does not reach the top-left corner.
	if cross.at(20, 20).A == 0 {
		t.Error("cross has no ink at its centre")
	}
	if check.at(9, 9).A != 0 {
		t.Error("check has ink in its top-left corner")
	}
}

func TestArrowHasAHead(t *testing.T) {
	c := newCanvas(100, 40)
	Arrow(c.img, ui.Point{X: 5, Y: 20}, ui.Point{X: 95, Y: 20}, 2, 12, color.White)
	if c.at(85, 16).A == 0 || c.at(20, 16).A != 0 {
		t.Error("the head should be wider than the shaft, and only at the tip")
	}
	Arrow(c.img, ui.Point{X: 5, Y: 5}, ui.Point{X: 5, Y: 5}, 2, 12, color.White) // no length: no panic
}

// Every widget draws inside its rect (plus the focus ring's margin) and
// nowhere else, in every state.
func TestWidgetsStayInTheirRects(t *testing.T) {
	s := NewStyle(1)
	r := ui.Rect{X: 40, Y: 30, W: 160, H: 44}
	focus := 6 // the focus ring sits 3 px outside, 2 px wide
	bounds := image.Rect(int(r.X)-focus, int(r.Y)-focus, int(r.MaxX())+focus, int(r.MaxY())+focus)
	long := strings.Repeat("a very long label ", 5)
	widgets := map[string]func(dst *ebiten.Image){
		"button": func(dst *ebiten.Image) {
			b := &ui.Button{Rect: r, Label: long}
			b.SetFocus(ui.FocusVisible)
			s.Button(dst, b)
		},
		"icon button": func(dst *ebiten.Image) {
			for _, icon := range []ui.Icon{ui.IconPlay, ui.IconPause, ui.IconStep, ui.IconFork, ui.IconHint} {
				s.Button(dst, &ui.Button{Rect: r, Icon: icon})
			}
		},
		"disabled button": func(dst *ebiten.Image) {
			s.Button(dst, &ui.Button{Rect: r, Label: "Hint", Icon: ui.IconHint, Disabled: true})
		},
		"toggle": func(dst *ebiten.Image) {
			tg := &ui.Toggle{Rect: r, Label: long, On: true}
			tg.SetFocus(ui.FocusVisible)
			s.Toggle(dst, tg)
		},
		"slider": func(dst *ebiten.Image) {
			sl := &ui.Slider{Rect: r, Max: 5, Step: 1, Value: 5}
			sl.SetFocus(ui.FocusVisible)
			s.Slider(dst, sl)
		},
		"text panel": func(dst *ebiten.Image) {
			p := &ui.TextPanel{Rect: r, Gutter: 10}
			face := s.Body()
			p.SetMeasure(Measure(face), LineHeight(face))
			p.SetText(strings.Repeat("Leases expire; tokens only grow. ", 20))
			p.SetScroll(7)
			p.SetFocus(ui.FocusVisible)
			s.TextPanel(dst, p, face)
		},
		"checklist": func(dst *ebiten.Image) {
			header, rows := r.CutTop(14, 0)
			a, b := rows.SplitV(0.5)
			s.Checklist(dst, "Goals", header, []ui.Rect{a, b}, []Goal{{Text: long, Met: true}, {Text: long}, {Text: "no row"}})
		},
		"paragraph": func(dst *ebiten.Image) { Paragraph(dst, strings.Repeat("word ", 200), s.Small(), r, Dark.Text) },
		"text in":   func(dst *ebiten.Image) { TextIn(dst, long, s.Label(), r, 0, Dark.Text) },
	}
	for name, draw := range widgets {
		c := newCanvas(240, 110)
		draw(c.img)
		in, out := c.inked(bounds)
		if in == 0 {
			t.Errorf("%s drew nothing", name)
		}
		if out != 0 {
			t.Errorf("%s drew %d pixels outside its rect", name, out)
		}
	}
}

func TestButtonStatesLookDifferent(t *testing.T) {
	s := NewStyle(1)
	r := ui.Rect{X: 10, Y: 10, W: 100, H: 40}
	states := map[string]func() *ui.Button{
		"idle": func() *ui.Button { return &ui.Button{Rect: r, Label: "Fork"} },
		"hover": func() *ui.Button {
			b := &ui.Button{Rect: r, Label: "Fork"}
			b.Update(&ui.Input{Cursor: ui.Point{X: 50, Y: 30}})
			return b
		},
		"pressed": func() *ui.Button {
			b := &ui.Button{Rect: r, Label: "Fork"}
			b.Update(&ui.Input{Cursor: ui.Point{X: 50, Y: 30}, MouseDown: true, MouseJustDown: true})
			return b
		},
		"focused": func() *ui.Button {
			b := &ui.Button{Rect: r, Label: "Fork"}
			b.SetFocus(ui.FocusVisible)
			return b
		},
		"disabled": func() *ui.Button { return &ui.Button{Rect: r, Label: "Fork", Disabled: true} },
	}
	seen := map[string]string{}
	for name, mk := range states {
		c := newCanvas(120, 60)
		s.Button(c.img, mk())
		key := string(c.pixels())
		if other, ok := seen[key]; ok {
			t.Errorf("%s looks the same as %s", name, other)
		}
		seen[key] = name
	}
}

func TestTooltipDrawsOnlyWhenVisible(t *testing.T) {
	s := NewStyle(1)
	win := ui.Rect{W: 240, H: 110}
	tip := &ui.Tooltip{Text: "Step to the next event", Delay: 1}
	anchor := ui.Rect{X: 200, Y: 80, W: 30, H: 20}
	c := newCanvas(240, 110)
	tip.Update(&ui.Input{Cursor: ui.Point{X: 210, Y: 90}}, anchor, false)
	s.Tooltip(c.img, tip, win)
	if in, _ := c.inked(image.Rect(0, 0, 240, 110)); in != 0 {
		t.Fatal("tooltip drawn before its delay")
	}
	tip.Update(&ui.Input{Cursor: ui.Point{X: 210, Y: 90}}, anchor, false)
	s.Tooltip(c.img, tip, win)
	if in, _ := c.inked(image.Rect(0, 0, 240, 110)); in == 0 {
		t.Fatal("visible tooltip not drawn")
	}
}

func TestVerdictMarks(t *testing.T) {
	s := NewStyle(1)
	ok, no := newCanvas(30, 30), newCanvas(30, 30)
	s.Verdict(ok.img, ui.Point{X: 15, Y: 15}, 24, true)
	s.Verdict(no.img, ui.Point{X: 15, Y: 15}, 24, false)
	if !near(ok.at(15, 4), Dark.Accept) || !near(no.at(15, 4), Dark.Reject) {
		t.Errorf("disc colours %v %v", ok.at(15, 4), no.at(15, 4))
	}
}

func TestFontsAreCachedPerKindAndSize(t *testing.T) {
	f := SharedFonts()
	if f != SharedFonts() {
		t.Fatal("SharedFonts is not shared")
	}
	if f.Face(Regular, 15) != f.Face(Regular, 15.01) {
		t.Error("nearly equal sizes should share a face")
	}
	if f.Face(Regular, 15) == f.Face(Bold, 15) || f.Face(Regular, 15) == f.Face(Regular, 16) {
		t.Error("different kinds or sizes share a face")
	}
	m := Measure(f.Face(Mono, 10))
	if m("ab") <= m("a") || m("") != 0 {
		t.Error("Measure is not increasing")
	}
	if m("iii") != m("WWW") {
		t.Error("mono face is not monospaced")
	}
	if lh := LineHeight(f.Face(Regular, 20)); lh < 24 {
		t.Errorf("line height %v is too tight for 20 px text", lh)
	}
}

// Shapes go to Ebitengine in batches, and whatever comes between keeps
// its place: a later shape covers an earlier one, a background fill wipes
// what was painted before it, and a shape with a winding rule (a polygon)
// lands between the batched shapes drawn before and after it.
func TestBatchedShapesKeepTheirOrder(t *testing.T) {
	red, blue, green := color.RGBA{255, 0, 0, 255}, color.RGBA{0, 0, 255, 255}, color.RGBA{0, 255, 0, 255}
	c := newCanvas(40, 40)
	FillRect(c.img, ui.Rect{X: 0, Y: 0, W: 40, H: 40}, red)
	FillRect(c.img, ui.Rect{X: 10, Y: 10, W: 20, H: 20}, blue)
	assert.Equal(t, blue, c.at(20, 20), "the later shape is on top")
	assert.Equal(t, red, c.at(2, 2))

	FillRect(c.img, ui.Rect{X: 0, Y: 0, W: 40, H: 40}, red)
	Background(c.img, color.RGBA{0, 0, 0, 255})
	assert.Equal(t, color.RGBA{0, 0, 0, 255}, c.at(20, 20), "a background fill comes after the shapes before it")

	FillRect(c.img, ui.Rect{X: 0, Y: 0, W: 40, H: 40}, red)
	Polygon(c.img, green, ui.Point{X: 0, Y: 0}, ui.Point{X: 40, Y: 0}, ui.Point{X: 40, Y: 40}, ui.Point{X: 0, Y: 40})
	FillRect(c.img, ui.Rect{X: 10, Y: 10, W: 20, H: 20}, blue)
	assert.Equal(t, green, c.at(2, 2), "the polygon covers the rectangle before it")
	assert.Equal(t, blue, c.at(20, 20), "and the rectangle after it covers the polygon")
}

// Danger is drawn as danger: a warning disc with an exclamation mark,
// neither the accepted tick's colour nor its shape.
func TestDangerIsAWarningDiscNotATick(t *testing.T) {
	s := NewStyle(1)
	danger, tick := newCanvas(40, 40), newCanvas(40, 40)
	s.Danger(danger.img, ui.Point{X: 20, Y: 20}, 30)
	s.Verdict(tick.img, ui.Point{X: 20, Y: 20}, 30, true)
	rgba := func(c color.Color) color.RGBA {
		r, g, b, a := c.RGBA()
		return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
	}
	assert.True(t, near(danger.at(8, 20), rgba(s.Theme.Warning)), "the disc is the warning colour: %v", danger.at(8, 20))
	assert.False(t, near(danger.at(8, 20), rgba(s.Theme.Accept)), "not the accepted green")
	assert.True(t, near(danger.at(20, 14), rgba(s.Theme.Background)), "the exclamation's stroke at the top of the centre: %v", danger.at(20, 14))
	assert.True(t, near(danger.at(20, 27), rgba(s.Theme.Background)), "and its dot below")
	assert.False(t, bytes.Equal(danger.pixels(), tick.pixels()))
}
