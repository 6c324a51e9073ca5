package e2e

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// desktopWindow is the desktop program running in a window on an Xvfb
// display of its own, driven with xdotool.
type desktopWindow struct {
	ctx     context.Context
	display string // ":N"
	pid     int
	window  string // the X window id
}

// openDesktop starts Xvfb (on a free display it picks itself) and the
// desktop program bin in a 1280x800 window on it, with a progress file and
// a config directory of the test's own, and args after those.
func openDesktop(ctx context.Context, t *testing.T, bin string, args ...string) *desktopWindow {
	t.Helper()
	xvfb, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Fatal("install Xvfb: apt-get install -y xvfb")
	}
	if _, err := exec.LookPath("xdotool"); err != nil {
		t.Fatal("install xdotool: apt-get install -y xdotool")
	}
	r, w, err := os.Pipe()
	require.NoError(t, err)
	x := exec.CommandContext(ctx, xvfb, "-displayfd", "3", "-screen", "0", "1920x1080x24", "-nolisten", "tcp")
	x.ExtraFiles = []*os.File{w}
	require.NoError(t, x.Start(), "Xvfb")
	w.Close()
	t.Cleanup(func() { _ = x.Process.Kill(); _ = x.Wait() })
	line, err := bufio.NewReader(r).ReadString('\n')
	r.Close()
	require.NoError(t, err, "Xvfb says which display it took")
	d := &desktopWindow{ctx: ctx, display: ":" + strings.TrimSpace(line)}

	dir := t.TempDir()
	run := exec.CommandContext(ctx, bin, append([]string{"--progress", filepath.Join(dir, "progress.json"), "--width", "1280", "--height", "800"}, args...)...)
	run.Env = append(os.Environ(), "DISPLAY="+d.display, "XDG_CONFIG_HOME="+dir)
	out, err := os.Create(filepath.Join(dir, "output"))
	require.NoError(t, err)
	run.Stdout, run.Stderr = out, out
	require.NoError(t, run.Start(), "leaselab")
	t.Cleanup(func() {
		_ = run.Process.Kill()
		_ = run.Wait()
		if t.Failed() {
			said, _ := os.ReadFile(out.Name())
			t.Logf("leaselab said:\n%s", said)
		}
	})
	d.pid = run.Process.Pid
	d.window = strings.TrimSpace(d.xdotool(t, "search", "--sync", "--name", "LeaseLab"))
	require.NotEmpty(t, d.window, "the LeaseLab window")
	d.window = strings.Fields(d.window)[0]
	return d
}

// xdotool runs xdotool on the window's display and returns what it printed.
func (d *desktopWindow) xdotool(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(d.ctx, "xdotool", args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+d.display)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "xdotool %v: %s", args, out)
	return string(out)
}

// title is the window's title: the screen on show.
func (d *desktopWindow) title(t *testing.T) string {
	return strings.TrimSpace(d.xdotool(t, "getwindowname", d.window))
}

// untilTitle waits for the window's title to satisfy ok, and returns it.
func (d *desktopWindow) untilTitle(t *testing.T, what string, wait time.Duration, ok func(string) bool) (string, bool) {
	t.Helper()
	var title string
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if title = d.title(t); ok(title) {
			return title, true
		}
	}
	t.Logf("%s: the title is still %q after %v", what, title, wait)
	return title, false
}

// cpu is the CPU time the program has used.
func (d *desktopWindow) cpu(t *testing.T) time.Duration {
	t.Helper()
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", d.pid))
	require.NoError(t, err)
	// The fields after the command's name, which is in parentheses:
	// utime and stime are the 14th and 15th of the line, in clock ticks
	// (100 a second on Linux).
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
	utime, err := strconv.ParseInt(f[11], 10, 64)
	require.NoError(t, err)
	stime, err := strconv.ParseInt(f[12], 10, 64)
	require.NoError(t, err)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// settle waits until the program has gone idle (no input for a while, and
// nothing moving): under a tenth of a core for two seconds in a row.
func (d *desktopWindow) settle(t *testing.T) {
	t.Helper()
	quiet := 0
	last := d.cpu(t)
	for deadline := time.Now().Add(2 * time.Minute); quiet < 2; {
		require.True(t, time.Now().Before(deadline), "the idle desktop never stopped using the CPU")
		time.Sleep(time.Second)
		now := d.cpu(t)
		if now-last < 100*time.Millisecond {
			quiet++
		} else {
			quiet = 0
		}
		last = now
	}
}

// A click whose press and release reach the window at once (xdotool
// mousedown 1 mouseup 1, nothing between them) counts on the idle desktop:
// the lab left at rest still sees it, though it waits cheaply between
// frames. So does a key pressed and released at once. (While idle,
// Ebitengine's lowest-power mode waited for events with GLFW's sticky
// buttons and keys off: when the press and release came in the same wait,
// the polled button was never seen down, and the click was lost, four
// times in six.) Three times over, from rest: the menu's first lesson is
// clicked, and Esc goes back; the window's title names the screen on show.
func TestDesktopAnInstantClickOnTheIdleMenuCounts(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	d := openDesktop(ctx, t, buildDesktop(ctx, t))
	const menu, lesson = "LeaseLab: lessons", "Leases: acquire, renew, expire – LeaseLab"
	require.Equal(t, menu, d.title(t), "the menu")

	// The menu's first lesson, at 1280x800: its row spans x 24-628 and
	// y 155-192 (see the desktop shot of the menu).
	d.xdotool(t, "mousemove", "--window", d.window, "300", "173")
	// settle waits until the window is at rest (under a tenth of a core,
	// two seconds running), the state whose waits lost clicks. How little
	// it uses there is a figure with a target (at most 5 % of a core),
	// measured by make bench (internal/tools/idlecpu) on a quiet machine,
	// not here: a test run shares the machine, and CI saw 8 % once.
	d.settle(t)

	for round := 1; round <= 3; round++ {
		d.settle(t)
		d.xdotool(t, "mousedown", "1", "mouseup", "1")
		title, ok := d.untilTitle(t, "the instant click", 10*time.Second, func(s string) bool { return s != menu })
		if !ok {
			d.xdotool(t, "mousedown", "1", "sleep", "0.3", "mouseup", "1")
			slow, _ := d.untilTitle(t, "a slow click", 10*time.Second, func(s string) bool { return s != menu })
			t.Fatalf("round %d: the instant click on the first lesson was lost (a click held 0.3 s at the same point opened %q)", round, slow)
		}
		require.Equal(t, lesson, title, "round %d: the click opened the first lesson", round)

		d.settle(t)
		d.xdotool(t, "key", "--delay", "0", "Escape")
		_, ok = d.untilTitle(t, "Esc pressed and released at once", 10*time.Second, func(s string) bool { return s == menu })
		require.True(t, ok, "round %d: Esc, pressed and released at once on the idle lesson, goes back to the menu", round)
	}
}
