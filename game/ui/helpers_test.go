package ui

import "unicode/utf8"

// mono measures text as if every character were 10 pixels wide.
func mono(s string) float64 { return float64(utf8.RuneCountInString(s)) * 10 }

// Input builders for tests: one tick each.

func hover(x, y float64) *Input { return &Input{Cursor: Point{x, y}} }

func mouseDown(x, y float64) *Input {
	return &Input{Cursor: Point{x, y}, MouseDown: true, MouseJustDown: true}
}

func mouseHeld(x, y float64) *Input { return &Input{Cursor: Point{x, y}, MouseDown: true} }

func mouseUp(x, y float64) *Input { return &Input{Cursor: Point{x, y}, MouseJustUp: true} }

func keys(intents ...Intent) *Input {
	return &Input{Cursor: Point{-1000, -1000}, Keys: KeysOf(intents...)}
}

func touch(x, y float64, down, up bool) *Input {
	return &Input{Cursor: Point{-1000, -1000}, Touches: []Touch{{ID: 1, Pos: Point{x, y}, JustDown: down, JustUp: up}}}
}
