// Package boot defines the desktop program's flags and reads them before
// Ebitengine starts.
//
// Ebitengine connects to the display in a package init and panics there
// when there is none (no DISPLAY over SSH, in a container, in CI). A flag
// handler in main runs too late: `leaselab --help` would print a GLFW
// stack trace instead of the usage. Go initialises packages one at a time,
// always taking the first package, in import-path order, whose imports are
// all initialised (The Go Programming Language Specification, "Package
// initialization"). This package imports only flag, fmt, os, runtime and
// strings, which Ebitengine's ui package imports too, and its path
// "boot.leaselab" sorts before "github.com/hajimehoshi/ebiten/...": so its
// init runs first. Without a display it parses the command line itself:
// --help prints the usage and exits 0, a bad flag exits 2, and anything
// else is told plainly that the program needs a display, and exits 2.
package boot

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
)

// The desktop program's flags, on flag.CommandLine; main calls flag.Parse.
var (
	Frames         = flag.Int64("frames", 0, "exit after drawing `N` frames (with --screenshot, save the last)")
	Screenshot     = flag.String("screenshot", "", "write the screen as PNG to `path` after --frames frames")
	Width          = flag.Int("width", 1280, "window width in device-independent pixels")
	Height         = flag.Int("height", 800, "window height in device-independent pixels")
	ReducedMotion  = flag.Bool("reduced-motion", false, "replace decorative animation with instant changes")
	Lesson         = flag.String("lesson", "", "open lesson `ID` at once instead of the menu")
	Solution       = flag.Bool("solution", false, "with --lesson: load the lesson's solution; with --exercise: fill in the model answer")
	Exercise       = flag.String("exercise", "", "open exercise `ID` at once instead of the menu")
	Check          = flag.Bool("check", false, "with --exercise: check the answer at once")
	Seek           = flag.Duration("seek", 0, "with --lesson: move the play head to `T` (e.g. 30s)")
	Play           = flag.Bool("play", false, "with --lesson: start playing")
	Speed          = flag.Float64("speed", 1, "with --lesson: playback speed, 0.25 to 64")
	Load           = flag.String("load", "", "open the run in permalink `LINK` (the text after #run=, or a whole URL)")
	Progress       = flag.String("progress", "", "keep the learner's progress in the JSON file at `path` (default: the user config dir)")
	Sandbox        = flag.Bool("sandbox", false, "open the sandbox's setup panel instead of the menu")
	Preset         = flag.String("preset", "", "open the sandbox with preset `NAME` (labctl presets lists them)")
	Start          = flag.Bool("start", false, "with --sandbox or --preset: start the run at once (--seek, --play and --speed apply)")
	ExportDir      = flag.String("export-dir", ".", "write the sandbox's exports to `dir`")
	ExportProgress = flag.String("export-progress", "", "write the learner's progress to `file` (to carry to another machine) and exit")
	ImportProgress = flag.String("import-progress", "", "merge the progress in `file` (from --export-progress or the browser's export) into this machine's, and exit")
)

const usageHead = `leaselab: the LeaseLab lessons in a window, offline.

usage: leaselab [flags]
  leaselab                                   the menu
  leaselab --lesson fenced-writes            a lesson (labctl lessons lists them)
  leaselab --exercise no-fencing --solution  an exercise with its model answer
  leaselab --preset etcd --start             a sandbox preset's run

flags:
`

func init() {
	flag.Usage = usage
	if hasDisplay(runtime.GOOS, os.Getenv) {
		return
	}
	flag.Parse() // --help: usage, exit 0; a bad flag: exit 2
	fmt.Fprint(os.Stderr, NoDisplay)
	os.Exit(2)
}

func usage() {
	fmt.Fprint(flag.CommandLine.Output(), usageHead)
	flag.PrintDefaults()
}

// hasDisplay says whether Ebitengine can open a window: on X11 systems it
// needs DISPLAY (Wayland sessions set it for XWayland); macOS, Windows and
// the browser always have one.
func hasDisplay(goos string, getenv func(string) string) bool {
	switch goos {
	case "linux", "freebsd", "netbsd", "openbsd", "dragonfly":
		return strings.TrimSpace(getenv("DISPLAY")) != ""
	}
	return true
}

// NoDisplay is what the program says when it cannot open a window.
const NoDisplay = `leaselab: there is no display to open a window on (DISPLAY is not set).
  In a desktop session run it from a terminal there; on a server run it under
  a virtual display: xvfb-run -a leaselab ...   (apt-get install -y xvfb xauth)
  labctl runs the same lessons and exercises in a terminal: labctl help
  leaselab --help lists the flags.
`
