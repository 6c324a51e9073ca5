// Command leaselab is the desktop LeaseLab: the same lessons as the browser
// build, in a window, offline.
//
//	leaselab                                   # play
//	leaselab --frames 30 --screenshot out.png  # draw 30 frames, save, exit
//	leaselab --progress /tmp/p.json            # keep progress there instead
//	leaselab --load AUwN...                    # open a shared run (a permalink)
//
// Progress is kept in <user config dir>/leaselab/progress.json (on Linux
// ~/.config/leaselab/progress.json) unless --progress says otherwise.
package main

import (
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"

	"github.com/hajimehoshi/ebiten/v2"

	"leaselab/game"
	"leaselab/game/progress"
)

func main() {
	frames := flag.Int64("frames", 0, "exit after drawing `N` frames (with --screenshot, save the last)")
	screenshot := flag.String("screenshot", "", "write the screen as PNG to `path` after --frames frames")
	width := flag.Int("width", 1280, "window width in device-independent pixels")
	height := flag.Int("height", 800, "window height in device-independent pixels")
	reducedMotion := flag.Bool("reduced-motion", false, "replace decorative animation with instant changes")
	lesson := flag.String("lesson", "", "open lesson `ID` at once instead of the menu")
	solution := flag.Bool("solution", false, "with --lesson: load the lesson's solution")
	seek := flag.Duration("seek", 0, "with --lesson: move the play head to `T` (e.g. 30s)")
	play := flag.Bool("play", false, "with --lesson: start playing")
	speed := flag.Float64("speed", 1, "with --lesson: playback speed, 0.25 to 64")
	load := flag.String("load", "", "open the run in permalink `LINK` (the text after #run=, or a whole URL)")
	progressPath := flag.String("progress", "", "keep the learner's progress in the JSON file at `path` (default: the user config dir)")
	flag.Parse()
	if *screenshot != "" && *frames <= 0 {
		fmt.Fprintln(os.Stderr, "leaselab: --screenshot needs --frames N")
		os.Exit(2)
	}

	opts := game.Options{
		ReducedMotion: *reducedMotion, WrapFocus: true, CaptureFrame: *frames,
	}
	if *screenshot != "" {
		opts.OnCapture = func(img *image.RGBA) error { return writePNG(*screenshot, img) }
	}
	app := game.NewApp(progressStore(*progressPath))
	if *load != "" && *lesson != "" {
		fmt.Fprintln(os.Stderr, "leaselab: --load and --lesson both choose the lesson; give one")
		os.Exit(2)
	}
	if *lesson != "" || *load != "" {
		var sc *game.LessonScene
		var err error
		if *load != "" {
			sc, err = app.OpenLink(*load)
		} else {
			sc, err = app.OpenID(*lesson)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "leaselab:", err)
			os.Exit(2)
		}
		if *solution {
			sc.ShowSolution()
		}
		if *load == "" || *seek > 0 {
			sc.Seek(*seek) // a link opens at its last action
		}
		if err := sc.SetSpeed(*speed); err != nil {
			fmt.Fprintln(os.Stderr, "leaselab:", err)
			os.Exit(2)
		}
		sc.Play(*play)
	}
	g := game.New(app, opts)

	ebiten.SetWindowTitle("LeaseLab")
	ebiten.SetWindowSize(*width, *height)
	ebiten.SetWindowSizeLimits(640, 400, -1, -1)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	if err := ebiten.RunGame(g); err != nil {
		fmt.Fprintln(os.Stderr, "leaselab:", err)
		os.Exit(1)
	}
}

// progressStore is the file store at path, or at the default path. Without
// a config directory (no $HOME) progress lives in memory, and the game shows
// why through the store's notice.
func progressStore(path string) progress.Store {
	if path == "" {
		p, err := progress.DefaultPath()
		if err != nil {
			return progress.NewMemStore(nil, "LeaseLab found no folder to save progress in ("+err.Error()+
				"), so it will last only until you quit. Start it with --progress FILE to choose one.")
		}
		path = p
	}
	return progress.NewFileStore(path)
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
