package ebitest

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

// Shot saves img as name.png in the directory LEASELAB_SHOTS names, when
// it is set: a screen a test reaches, to look at.
func Shot(t testing.TB, img *ebiten.Image, name string) {
	t.Helper()
	dir := os.Getenv("LEASELAB_SHOTS")
	if dir == "" {
		return
	}
	draw.Flush()
	b := img.Bounds()
	rgba := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	img.ReadPixels(rgba.Pix)
	f, err := os.Create(filepath.Join(dir, name+".png"))
	require.NoError(t, err)
	require.NoError(t, png.Encode(f, rgba))
	require.NoError(t, f.Close())
}

// Unreadable lists, one a line, every string of drawn (what screen name
// drew, draw.Record) that cannot be read in full: cut with no tip, or
// drawn outside its box.
func Unreadable(name string, drawn []draw.Drawn) []string {
	var out []string
	for _, d := range drawn {
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
		out = append(out, fmt.Sprintf("%s: %q (whole: %q): %s", name, d.Text, d.Full, why))
	}
	return out
}
