package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"boot.leaselab/progress"
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

// runWithoutDisplay runs the desktop program bin with args where there is
// no display (DISPLAY unset, as over SSH or in a container) and returns what
// it printed and its exit code. The config directory is a temporary one, so
// a run never touches the learner's real progress.
func runWithoutDisplay(ctx context.Context, t *testing.T, bin string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.CommandContext(ctx, bin, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "XDG_CONFIG_HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err, "leaselab %v", args)
	}
	return string(out), code
}

// TestDesktopWithoutDisplay runs the desktop program where there is no
// display: --help prints the usage and exits 0, and anything that needs a
// window says plainly that it needs a display and how to get one, and exits
// 2 — never a GLFW stack trace.
func TestDesktopWithoutDisplay(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin := buildDesktop(ctx, t)
	run := func(args ...string) (string, int) { return runWithoutDisplay(ctx, t, bin, args...) }
	for _, args := range [][]string{{"--help"}, {"-h"}} {
		out, code := run(args...)
		assert.Equal(t, 0, code, "leaselab %v exits 0", args)
		assert.Contains(t, out, "usage: leaselab [flags]", "leaselab %v", args)
		assert.Contains(t, out, "--lesson", "the usage lists the flags")
		assert.NotContains(t, out, "goroutine", "no stack trace")
	}
	for _, args := range [][]string{{}, {"--lesson", "fenced-writes"}} {
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

// TestDesktopMovesProgressWithoutDisplay: --export-progress and
// --import-progress only read and write files, so they work where there is
// no display (issue 30): the learner carries progress off a server or out of
// a container with the same messages and exit codes as at a desktop.
// Progress for a lesson this LeaseLab does not have is left out, and said
// so; a FIFO to import is refused at once; saved progress that cannot be
// read is not exported, and left as it was.
func TestDesktopMovesProgressWithoutDisplay(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin := buildDesktop(ctx, t)
	dir := t.TempDir()
	run := func(args ...string) (string, int) { return runWithoutDisplay(ctx, t, bin, args...) }

	saved := progress.New()
	saved.SetLesson("fenced-writes", progress.Lesson{Completed: true, GoalsMet: []string{"stale-write-rejected"}})
	saved.SetLesson("no-such-lesson", progress.Lesson{Completed: true})
	saved.RecordAttempt("no-fencing", true, true)
	data, err := progress.Encode(saved)
	require.NoError(t, err)
	here := filepath.Join(dir, "here.json")
	require.NoError(t, os.WriteFile(here, data, 0o600))

	file := filepath.Join(dir, "carried.json")
	out, code := run("--progress", here, "--export-progress", file)
	assert.Equal(t, 0, code, "export without a display: %s", out)
	assert.Contains(t, out, "progress written to "+file)
	assert.Contains(t, out, `"no-such-lesson"`, "the lesson LeaseLab does not have is named")
	assert.Contains(t, out, "left out", "... and said to be left out")
	assert.NotContains(t, out, "no display")
	exported, err := os.ReadFile(file)
	require.NoError(t, err, "the export wrote the file")
	carried, err := progress.Decode(exported)
	require.NoError(t, err, "the export is progress")
	assert.True(t, carried.Lesson("fenced-writes").Completed, "the completed lesson is carried")
	assert.True(t, carried.Exercise("no-fencing").Passed, "the passed exercise is carried")
	assert.NotContains(t, carried.Lessons, "no-such-lesson", "the unknown lesson is not")

	there := filepath.Join(dir, "there.json")
	out, code = run("--progress", there, "--import-progress", file)
	assert.Equal(t, 0, code, "import without a display: %s", out)
	assert.Contains(t, out, "progress imported from "+file+": 1 lessons and 1 exercises recorded here now")
	imported, err := os.ReadFile(there)
	require.NoError(t, err, "the import saved the progress")
	merged, err := progress.Decode(imported)
	require.NoError(t, err)
	assert.True(t, merged.Lesson("fenced-writes").Completed, "the carried lesson is saved here")

	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	fifoCtx, fifoCancel := context.WithTimeout(ctx, 30*time.Second)
	defer fifoCancel()
	out, code = runWithoutDisplay(fifoCtx, t, bin, "--progress", there, "--import-progress", fifo)
	assert.Equal(t, 2, code, "a FIFO is refused at once, not waited on: %s", out)
	assert.Contains(t, out, "not a regular file")
	after, err := os.ReadFile(there)
	require.NoError(t, err)
	assert.Equal(t, imported, after, "the refused import leaves the saved progress as it was")

	damaged := filepath.Join(dir, "damaged.json")
	require.NoError(t, os.WriteFile(damaged, []byte(`{"version": 1, "lessons": {`), 0o600))
	out, code = run("--progress", damaged, "--export-progress", filepath.Join(dir, "none.json"))
	assert.Equal(t, 2, code, "damaged saved progress is not exported: %s", out)
	assert.Contains(t, out, "could not be read", "... and the learner is told so")
	assert.NoFileExists(t, filepath.Join(dir, "none.json"), "nothing is written in its place")
	left, err := os.ReadFile(damaged)
	require.NoError(t, err)
	assert.Equal(t, `{"version": 1, "lessons": {`, string(left), "the damaged progress is left as it was")

	out, code = run("--export-progress", file, "--import-progress", file)
	assert.Equal(t, 2, code, "both at once is bad input")
	assert.Contains(t, out, "give --export-progress or --import-progress, not both")
}

// TestDesktopRefusesFlagsThatDoNotGoTogether: flags that exclude each
// other, or need another, are refused before a window opens, each with
// its one line and exit 2 (cmd/leaselab's main checks them in this
// order).
func TestDesktopRefusesFlagsThatDoNotGoTogether(t *testing.T) {
	xvfb, err := exec.LookPath("xvfb-run")
	if err != nil {
		t.Fatal("install xvfb-run: apt-get install -y xvfb xauth")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin := buildDesktop(ctx, t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--screenshot", "x.png"}, "leaselab: --screenshot needs --frames N"},
		{[]string{"--preset", "etcd", "--lesson", "fenced-writes"}, "leaselab: --lesson, --exercise or --load and the sandbox flags exclude each other"},
		{[]string{"--preset", "nomad", "--check"}, `leaselab: unknown preset "nomad" (known: `},
		{[]string{"--lesson", "fenced-writes", "--exercise", "no-fencing"}, "leaselab: give one of --lesson, --exercise and --load"},
		{[]string{"--load", "abc", "--solution"}, "leaselab: --load opens the linked run; drop --solution"},
		{[]string{"--check"}, "leaselab: --check needs --exercise"},
		{[]string{"--exercise", "nowhere"}, `leaselab: unknown exercise "nowhere"`},
		{[]string{"--lesson", "nowhere"}, `leaselab: unknown lesson "nowhere"`},
	} {
		run := exec.CommandContext(ctx, xvfb, append([]string{"-a", bin, "--progress", filepath.Join(t.TempDir(), "progress.json")}, tc.args...)...)
		run.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir())
		out, err := run.CombinedOutput()
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, "leaselab %v must be refused: %s", tc.args, out)
		assert.Equal(t, 2, exit.ExitCode(), "leaselab %v", tc.args)
		assert.Contains(t, string(out), tc.want, "leaselab %v", tc.args)
		assert.NotContains(t, string(out), "goroutine", "leaselab %v: no stack trace", tc.args)
	}
}
