package scenetest

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/stretchr/testify/require"

	"leaselab/game/draw"
	"leaselab/game/ui"
)

// Shot is what one screen drew: every string, for the checks below.
type Shot struct {
	Name  string
	Drawn []draw.Drawn
}

// Draw paints a w×h frame with paint and keeps every string drawn,
// saving the frame under LEASELAB_SHOTS (if set) as name.png, to look at.
func Draw(t *testing.T, name string, w, h int, paint func(*ebiten.Image)) Shot {
	t.Helper()
	img := ebiten.NewImage(w, h)
	defer img.Deallocate()
	img.Fill(draw.Dark.Background)
	stop := draw.Record()
	paint(img)
	draw.Flush()
	drawn := stop()
	draw.EndFrame()
	if dir := os.Getenv("LEASELAB_SHOTS"); dir != "" {
		rgba := image.NewRGBA(image.Rect(0, 0, w, h))
		img.ReadPixels(rgba.Pix)
		f, err := os.Create(filepath.Join(dir, name+".png"))
		require.NoError(t, err)
		require.NoError(t, png.Encode(f, rgba))
		require.NoError(t, f.Close())
	}
	return Shot{Name: name, Drawn: drawn}
}

// Offenders lists, one a line, every string on the screen that cannot be
// read in full: cut with no tip, or drawn outside its box.
func (s Shot) Offenders() []string {
	var out []string
	for _, d := range s.Drawn {
		if !d.Unreadable() {
			continue
		}
		why := "cut, no tip"
		switch {
		case !d.Cut && strings.HasSuffix(d.Text, ui.Ellipsis):
			why = "ellipsis put in by its caller"
		case d.Outside():
			why = fmt.Sprintf("outside its box %v (ink %v, clip %v)", d.Box, d.Ink, d.Clip)
		}
		out = append(out, fmt.Sprintf("%s: %q (whole: %q): %s", s.Name, d.Text, d.Full, why))
	}
	return out
}

// Ellipsised lists, one a line, the strings on the screen cut with an
// ellipsis: readable whole only on hover, which touch and a glance do not
// give (issue 29). A shorter wording chosen to fit (draw.ShortInTip) is
// not one.
func (s Shot) Ellipsised() []string {
	var out []string
	for _, d := range s.Drawn {
		if strings.Contains(d.Text, ui.Ellipsis) {
			out = append(out, fmt.Sprintf("%s: %q (whole: %q)", s.Name, d.Text, d.Full))
		}
	}
	return out
}

// Overlapping lists, one a line, the pairs of strings on the screen whose
// ink overlaps by more than a few pixels each way: one drawn over the
// other (a state badge over the store's card, the world's heading under a
// button), so neither reads. A text under a menu or notice drawn over it
// on purpose (draw.Cover) is not one.
func (s Shot) Overlapping() []string {
	var out []string
	const slack = 4
	for i, a := range s.Drawn {
		for _, b := range s.Drawn[i+1:] {
			if strings.TrimSpace(a.Text) == "" || strings.TrimSpace(b.Text) == "" || a.Covered || b.Covered {
				continue
			}
			x := min(a.Ink.MaxX(), b.Ink.MaxX()) - max(a.Ink.X, b.Ink.X)
			y := min(a.Ink.MaxY(), b.Ink.MaxY()) - max(a.Ink.Y, b.Ink.Y)
			if x > slack && y > slack {
				out = append(out, fmt.Sprintf("%s: %q over %q", s.Name, a.Text, b.Text))
			}
		}
	}
	return out
}
