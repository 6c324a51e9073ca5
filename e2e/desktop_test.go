package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDesktopScreenshot builds the desktop program and runs the
// fenced-writes lesson in a real window under Xvfb: the solution plays for
// 200 frames at 16x from just before the takeover (as far as the wall
// clock takes it in those frames: to the end, under software drawing),
// and the screenshot it saves must show the player.
func TestDesktopScreenshot(t *testing.T) {
	xvfb, err := exec.LookPath("xvfb-run")
	if err != nil {
		t.Fatal("install xvfb-run: apt-get install -y xvfb xauth")
	}
	root := repoRoot(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin := buildDesktop(ctx, t)

	shot := filepath.Join(root, "artifacts", "desktop.png")
	if err := os.MkdirAll(filepath.Dir(shot), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Remove(shot)
	start := time.Now()
	// Progress goes to a file of the test's own (--progress); the config
	// directory is a temporary one too, and must stay empty, so a test run
	// never touches the learner's real progress.
	config := t.TempDir()
	run := exec.CommandContext(ctx, xvfb, "-a", "-s", "-screen 0 1920x1080x24",
		bin, "--lesson", "fenced-writes", "--solution", "--seek", "8s", "--play", "--speed", "16",
		"--frames", "200", "--screenshot", shot, "--width", "1280", "--height", "800",
		"--progress", filepath.Join(t.TempDir(), "progress.json"))
	run.Env = append(os.Environ(), "XDG_CONFIG_HOME="+config)
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("leaselab under Xvfb: %v\n%s", err, out)
	}
	if entries, _ := os.ReadDir(config); len(entries) > 0 {
		t.Errorf("leaselab --progress wrote to the config directory: %v", entries)
	}
	t.Logf("200 frames of the lesson under Xvfb in %d ms (software rendering)", time.Since(start).Milliseconds())
	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	t.Logf("screenshot: %s", shot)
	img := checkNotBlank(t, "desktop screenshot", data, 64, 0.8)
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 800 {
		t.Errorf("screenshot is %dx%d, want the 1280x800 window", b.Dx(), b.Dy())
	}
}

// buildDesktop builds cmd/leaselab into a temporary directory.
func buildDesktop(ctx context.Context, t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	require.NoError(t, err, "go is not on PATH")
	bin := filepath.Join(t.TempDir(), "leaselab")
	build := exec.CommandContext(ctx, goBin, "build", "-o", bin, "./cmd/leaselab")
	build.Dir = repoRoot(t)
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build ./cmd/leaselab:\n%s\n(Linux needs: apt-get install -y libgl1-mesa-dev libxcursor-dev libxi-dev libxinerama-dev libxrandr-dev libxxf86vm-dev)", out)
	return bin
}

// TestDesktopWithoutDisplay runs the desktop program where there is no
// display (DISPLAY unset, as over SSH or in a container): --help prints the
// usage and exits 0, and anything else says plainly that a window needs a
// display and how to get one, and exits 2 — never a GLFW stack trace.
func TestDesktopWithoutDisplay(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin := buildDesktop(ctx, t)
	run := func(args ...string) (string, int) {
		cmd := exec.CommandContext(ctx, bin, args...)
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "DISPLAY=") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		out, err := cmd.CombinedOutput()
		code := 0
		if exit, ok := err.(*exec.ExitError); ok {
			code = exit.ExitCode()
		} else {
			require.NoError(t, err, "leaselab %v", args)
		}
		return string(out), code
	}
	for _, args := range [][]string{{"--help"}, {"-h"}} {
		out, code := run(args...)
		assert.Equal(t, 0, code, "leaselab %v exits 0", args)
		assert.Contains(t, out, "usage: leaselab [flags]", "leaselab %v", args)
		assert.Contains(t, out, "--lesson", "the usage lists the flags")
		assert.NotContains(t, out, "goroutine", "no stack trace")
	}
	for _, args := range [][]string{{}, {"--lesson", "fenced-writes"}, {"--export-progress", filepath.Join(t.TempDir(), "p.json")}} {
		out, code := run(args...)
		assert.Equal(t, 2, code, "leaselab %v without a display", args)
		assert.Contains(t, out, "no display", "leaselab %v says why", args)
		assert.Contains(t, out, "xvfb-run -a leaselab", "... and how to run it anyway")
		assert.NotContains(t, out, "panic", "leaselab %v", args)
	}
	out, code := run("--no-such-flag")
	assert.Equal(t, 2, code, "a bad flag is bad input")
	assert.Contains(t, out, "flag provided but not defined: -no-such-flag")
}
