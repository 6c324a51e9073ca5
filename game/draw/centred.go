package draw

import "leaselab/game/ui"

// CentredLines is r shrunk to the height of text wrapped in it, centred.
func CentredLines(r ui.Rect, s string, face *Face) ui.Rect {
	h := float64(len(Wrap(s, r.W, face))) * LineHeight(face)
	if h < r.H {
		r.Y += (r.H - h) / 2
		r.H = h
	}
	return r
}
