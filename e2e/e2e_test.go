// Package e2e holds LeaseLab's end-to-end tests: the browser build in
// headless Chromium and the desktop build under Xvfb. They need built assets
// and system packages, so `make test-browser` and `make test-desktop` run
// them after building; a missing tool fails the test with the command that
// installs it, because a skipped end-to-end test proves nothing.
package e2e

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// repoRoot is the directory holding go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test directory")
		}
		dir = parent
	}
}

// saveArtifact writes data to artifacts/name in the repository.
func saveArtifact(t *testing.T, name string, data []byte) string {
	t.Helper()
	dir := filepath.Join(repoRoot(t), "artifacts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkNotBlank decodes a PNG and fails unless it has at least minColours
// distinct colours and no single colour covers more than maxShare of it: a
// blank, black or single-panel screen fails both.
func checkNotBlank(t *testing.T, name string, data []byte, minColours int, maxShare float64) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: not a PNG: %v", name, err)
	}
	counts := map[[4]uint32]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			counts[[4]uint32{r, g, bl, a}]++
		}
	}
	most := 0
	for _, n := range counts {
		most = max(most, n)
	}
	share := float64(most) / float64(b.Dx()*b.Dy())
	t.Logf("%s: %dx%d, %d distinct colours, commonest covers %.0f%%", name, b.Dx(), b.Dy(), len(counts), share*100)
	if len(counts) < minColours {
		t.Errorf("%s looks blank: %d distinct colours, want at least %d", name, len(counts), minColours)
	}
	if share > maxShare {
		t.Errorf("%s looks blank: one colour covers %.0f%% of it", name, share*100)
	}
	return img
}
