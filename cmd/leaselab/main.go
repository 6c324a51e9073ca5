// Command leaselab is the desktop LeaseLab: the same lessons as the browser
// build, in a window, offline.
//
//	leaselab                                   # play
//	leaselab --frames 30 --screenshot out.png  # draw 30 frames, save, exit
//	leaselab --progress /tmp/p.json            # keep progress there instead
//	leaselab --sandbox --preset kubernetes     # the sandbox's setup panel
//	leaselab --preset etcd --start --seek 90s  # a preset's run, at 90 s
//	leaselab --exercise no-fencing --solution  # an exercise, model answer filled in
//	leaselab --exercise compaction-ttl --check # ... and checked at once
//	leaselab --load AUwN...                    # open a shared run (a permalink)
//	leaselab --export-progress p.json          # write progress to a file, exit
//	leaselab --import-progress p.json          # merge a progress file in, exit
//
// An exercise's "Share my answer" writes share-ID.txt beside the progress
// file (labctl exercise ID --verify FILE grades it again).
//
// The sandbox's exports (trace as JSON Lines, Mermaid diagram) are written
// to the working directory, or to --export-dir.
//
// Progress is kept in <user config dir>/leaselab/progress.json (on Linux
// ~/.config/leaselab/progress.json) unless --progress says otherwise.
package main

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game"
	"leaselab/game/lesson"
	"leaselab/game/place"
	"leaselab/lessons"

	"boot.leaselab"
	"boot.leaselab/sharefile"
)

func main() {
	// The flags live in package boot, which parses them before Ebitengine
	// starts (so --help works without a display) and has already done
	// --export-progress and --import-progress, and exited.
	if *boot.Screenshot != "" && *boot.Frames <= 0 {
		die("--screenshot needs --frames N")
	}
	// The window's title names the screen on show, as the browser's page
	// title does, so a window list (or a screen reader) tells where the
	// learner is.
	title := "LeaseLab"
	say, err := announcer(*boot.Announce)
	if err != nil {
		die(err)
	}
	opts := options(&title, say)
	app := newApp()
	if *boot.Sandbox || *boot.Preset != "" || *boot.Start {
		if *boot.Lesson != "" || *boot.Exercise != "" || *boot.Load != "" {
			die("--lesson, --exercise or --load and the sandbox flags exclude each other")
		}
		if err := openSandbox(app, *boot.Preset, *boot.Start, *boot.Seek, *boot.Play, *boot.Speed); err != nil {
			die(err)
		}
	}
	checkOpenFlags()
	if *boot.Exercise != "" {
		openExercise(app)
	}
	if *boot.Lesson != "" || *boot.Load != "" {
		openLesson(app)
	}
	g := game.New(app, opts)

	ebiten.SetWindowTitle(title)
	ebiten.SetWindowSize(*boot.Width, *boot.Height)
	ebiten.SetWindowSizeLimits(640, 400, -1, -1)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	if err := ebiten.RunGame(g); err != nil {
		fmt.Fprintln(os.Stderr, "leaselab:", err)
		os.Exit(1)
	}
}

// die says what is wrong with the flags and exits 2.
func die(what any) {
	fmt.Fprintln(os.Stderr, "leaselab:", what)
	os.Exit(2)
}

// options are the game's options from the flags; the window's title
// follows the screen on show.
// say hears each update's scene for a screen reader (see announcer).
func options(title *string, say func(game.SceneInfo)) game.Options {
	opts := game.Options{
		ReducedMotion: *boot.ReducedMotion, WrapFocus: true, CaptureFrame: *boot.Frames,
		OneTickPerFrame: true, SleepWhenIdle: true,
	}
	opts.OnUpdate = func(s game.Snapshot) {
		if t := place.Title(s.Scene.Mirror.Title); t != *title {
			*title = t
			ebiten.SetWindowTitle(t)
		}
		say(s.Scene)
	}
	if path := *boot.Screenshot; path != "" {
		opts.OnCapture = func(img *image.RGBA) error { return writePNG(path, img) }
	}
	return opts
}

// newApp is the app on the progress file, exporting into --export-dir.
func newApp() *game.App {
	store := boot.ProgressStore(*boot.Progress)
	app := game.NewApp(store)
	exportDir := *boot.ExportDir
	app.Export = func(name string, data []byte) (string, error) { return writeExport(exportDir, name, data) }
	// A shared answer is a file beside the progress file (the desktop has
	// no address to put its link in, nor a clipboard Ebitengine offers).
	app.ShareAnswer = func(ex *lessons.Exercise, s lessons.Share) (string, string, error) {
		_, where, err := sharefile.Write(store, exportDir, ex.ID, s.Link())
		return s.Link(), where, err
	}
	return app
}

// checkOpenFlags refuses --lesson, --exercise and --load together, and
// --solution or --check where they do not apply.
func checkOpenFlags() {
	if n := btoi(*boot.Lesson != "") + btoi(*boot.Exercise != "") + btoi(*boot.Load != ""); n > 1 {
		die("give one of --lesson, --exercise and --load")
	}
	switch {
	case *boot.Load != "" && *boot.Solution:
		// The solution would replace the linked run.
		die("--load opens the linked run; drop --solution")
	case *boot.Check && *boot.Exercise == "":
		die("--check needs --exercise")
	}
}

// openExercise opens --exercise, with its model answer (--solution) or
// its check started (--check).
func openExercise(app *game.App) {
	sc, err := app.OpenExerciseID(*boot.Exercise)
	if err != nil {
		die(err)
	}
	if *boot.Solution {
		if err := sc.OpenModelAnswer(); err != nil {
			die(err)
		}
	}
	if *boot.Check {
		sc.StartCheck()
	}
}

// openLesson opens --lesson or the run --load links to, at --seek, with
// --speed and --play.
func openLesson(app *game.App) {
	var sc *lesson.Scene
	var err error
	if *boot.Load != "" {
		sc, err = app.OpenLink(*boot.Load)
	} else {
		sc, err = app.OpenID(*boot.Lesson)
	}
	if err != nil {
		die(err)
	}
	if *boot.Solution {
		sc.ShowSolution()
	}
	if *boot.Load == "" || *boot.Seek > 0 {
		sc.Seek(*boot.Seek) // a link opens at its last action
	}
	if err := sc.SetSpeed(*boot.Speed); err != nil {
		die(err)
	}
	sc.Play(*boot.Play)
}

// openSandbox shows the sandbox with preset and, with start, runs it.
func openSandbox(app *game.App, preset string, start bool, seek time.Duration, play bool, speed float64) error {
	sb, err := app.OpenSandbox(preset)
	if err != nil {
		return err
	}
	if !start {
		return nil
	}
	if err := sb.Start(); err != nil {
		return err
	}
	sb.Run.Seek(seek)
	if err := sb.Run.SetSpeed(speed); err != nil {
		return err
	}
	sb.Run.Play(play)
	return nil
}

// announcer returns what hears each update's scene and writes what a
// screen reader is told to path, a line each (- for standard output;
// "" for nowhere).
func announcer(path string) (func(game.SceneInfo), error) {
	if path == "" {
		return func(game.SceneInfo) {}, nil
	}
	out := os.Stdout
	if path != "-" {
		f, err := os.Create(path)
		if err != nil {
			return nil, fmt.Errorf("--announce: %w", err)
		}
		out = f // kept open while the program runs, each line written at once
	}
	v, start := game.NewVoice(), time.Now()
	var mu sync.Mutex
	say := func() {
		if line := v.Say(time.Since(start)); line != "" {
			fmt.Fprintln(out, line)
		}
	}
	// What waits for its turn is said on time though the idle window runs
	// no update until the next input.
	go func() {
		for range time.Tick(200 * time.Millisecond) {
			mu.Lock()
			say()
			mu.Unlock()
		}
	}()
	return func(s game.SceneInfo) {
		mu.Lock()
		defer mu.Unlock()
		v.Hear(s)
		say()
	}, nil
}

// writeExport writes a sandbox export into dir and says where it went.
func writeExport(dir, name string, data []byte) (string, error) {
	path, err := filepath.Abs(filepath.Join(dir, name))
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return "", err
	}
	return "to " + path, nil
}

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
