// Command fontsubset writes the lab's fonts, game/draw/fonts/*.ttf: the Go
// fonts (from golang.org/x/image at the version go.mod names) cut down to the
// characters the lab can show, without hinting instructions.
//
//	go run ./internal/tools/fontsubset   # needs pyftsubset: apt-get install fonttools
//
// The three whole fonts were 473 kB of the browser build (216 kB gzip); the
// subsets are 37 kB. The lab draws with hinting off (game/draw/face.go), so the
// hinting bytecode, most of each font, is never run. The Go fonts have no
// kerning tables, so nothing else is lost. A test in game/draw checks that
// every string the lab shows has a glyph in these subsets: a character added
// to a lesson that falls outside unicodes fails it, and is added here.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
)

// unicodes is what the lab's text uses: printable ASCII, Latin-1's signs
// and punctuation (the micro sign of Go's "µs" durations among them, × and
// ÷, no accented letters), dashes, quotes, bullet and ellipsis, the
// comparisons and a box-drawing rule. The glyph test lists any character of
// a new string that falls outside it.
const unicodes = "U+0020-007E,U+00A0-00BF,U+00D7,U+00F7,U+2013-2026,U+2212,U+2264-2265,U+2500"

func main() {
	out := filepath.Join("game", "draw", "fonts")
	if len(os.Args) > 1 {
		out = os.Args[1]
	}
	tmp, err := os.MkdirTemp("", "fontsubset")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(tmp)
	for name, ttf := range map[string][]byte{"regular": goregular.TTF, "bold": gobold.TTF, "mono": gomono.TTF} {
		src := filepath.Join(tmp, name+".ttf")
		if err := os.WriteFile(src, ttf, 0o644); err != nil {
			fail(err)
		}
		cmd := exec.Command("pyftsubset", src, "--unicodes="+unicodes, "--no-hinting",
			"--output-file="+filepath.Join(out, name+".ttf"))
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			fail(fmt.Errorf("pyftsubset %s: %w", name, err))
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "fontsubset:", err)
	os.Exit(1)
}
