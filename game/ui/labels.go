package ui

// PlaceLabels decides which of a chart's labels to draw so that none
// collides: labels[i] is shown when it lies inside bounds and overlaps
// neither an obstacle (a mark, a pill: what the labels are drawn beside)
// nor a label shown before it. Earlier labels win, so a chart lists its
// labels in the order it wants them kept (the timeline: by time). A
// dropped label's text must be readable elsewhere (the timeline's are
// the store's decisions, each in the panel's event list).
func PlaceLabels(labels, obstacles []Rect, bounds Rect) []bool {
	shown := make([]bool, len(labels))
	var placed []Rect
	for i, l := range labels {
		if !l.Within(bounds) || overlapsAny(l, obstacles) || overlapsAny(l, placed) {
			continue
		}
		shown[i] = true
		placed = append(placed, l)
	}
	return shown
}

func overlapsAny(r Rect, others []Rect) bool {
	for _, o := range others {
		if r.Overlaps(o) {
			return true
		}
	}
	return false
}
