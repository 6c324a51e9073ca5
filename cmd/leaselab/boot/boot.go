// Package boot defines the desktop program's flags and reads them before
// Ebitengine starts, and does there what needs no window.
//
// Ebitengine connects to the display in a package init and panics there
// when there is none (no DISPLAY over SSH, in a container, in CI). A flag
// handler in main runs too late: `leaselab --help` would print a GLFW
// stack trace instead of the usage. Go initialises packages one at a time,
// always taking the first package, in import-path order, whose imports are
// all initialised (The Go Programming Language Specification, "Package
// initialization"). This package's path "boot.leaselab" sorts before
// "github.com/hajimehoshi/ebiten/...", and so do the paths of everything
// it imports outside the standard library (boot.leaselab/progress,
// boot.leaselab/inputfile, boot.leaselab/lessonids, all in this module);
// the standard library packages they import are initialised before
// Ebitengine's ui package can be (nearly all are its imports too; compare
// go list -deps of both): so this init runs first. The desktop program's test TestDesktopWithoutDisplay (e2e/) runs
// it without a display and fails if that stops being true.
//
// The init parses the command line: --help prints the usage and exits 0, a
// bad flag exits 2. --export-progress and --import-progress only read and
// write files, so they are done here, display or not, and the program
// exits. Anything else without a display is told plainly that the program
// needs one, and exits 2.
package boot

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
)

// The desktop program's flags, on flag.CommandLine, parsed by init.
var (
	Frames         = flag.Int64("frames", 0, "exit after drawing `N` frames (with --screenshot, save the last)")
	Screenshot     = flag.String("screenshot", "", "write the screen as PNG to `path` after --frames frames")
	Width          = flag.Int("width", 1280, "window width in device-independent pixels")
	Height         = flag.Int("height", 800, "window height in device-independent pixels")
	ReducedMotion  = flag.Bool("reduced-motion", false, "replace decorative animation with instant changes")
	Lesson         = flag.String("lesson", "", "open lesson `ID` at once instead of the menu")
	Solution       = flag.Bool("solution", false, "with --lesson: load the lesson's solution; with --exercise: fill in the model answer (once an answer of your own was checked)")
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
	Announce       = flag.String("announce", "", "write what a screen reader is told (the screen, the focused control, the narration), an announcement a line, to `file` (- for standard output)")
	ExportProgress = flag.String("export-progress", "", "write the learner's progress to `file` (to carry to another machine) and exit")
	ImportProgress = flag.String("import-progress", "", "merge the progress in `file` (from --export-progress or the browser's export) into this machine's, and exit")
)

const usageHead = `leaselab: the LeaseLab lessons in a window, offline.

usage: leaselab [flags]
  leaselab                                   the menu
  leaselab --lesson fenced-writes            a lesson (labctl lessons lists them)
  leaselab --exercise no-fencing --solution  an exercise with its model answer, after an attempt
  leaselab --preset etcd --start             a sandbox preset's run

flags:
`

func init() {
	flag.Usage = usage
	flag.Parse() // --help: usage, exit 0; a bad flag: exit 2
	if *ExportProgress != "" || *ImportProgress != "" {
		os.Exit(transferProgress(ProgressStore(*Progress), *ExportProgress, *ImportProgress, os.Stdout, os.Stderr))
	}
	if !hasDisplay(runtime.GOOS, os.Getenv) {
		fmt.Fprint(os.Stderr, NoDisplay)
		os.Exit(2)
	}
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
