package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestDesktopScreenshot builds the desktop program and runs the
// fenced-writes lesson in a real window under Xvfb: the solution plays for
// 200 frames at 16x from just before the takeover, and the screenshot it
// saves must show the player.
func TestDesktopScreenshot(t *testing.T) {
	xvfb, err := exec.LookPath("xvfb-run")
	if err != nil {
		t.Fatal("install xvfb-run: apt-get install -y xvfb xauth")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("go is not on PATH")
	}
	root := repoRoot(t)
	bin := filepath.Join(t.TempDir(), "leaselab")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, goBin, "build", "-o", bin, "./cmd/leaselab")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/leaselab: %v\n%s\n(Linux needs: apt-get install -y libgl1-mesa-dev libxcursor-dev libxi-dev libxinerama-dev libxrandr-dev libxxf86vm-dev)", err, out)
	}

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
