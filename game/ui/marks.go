package ui

// Runs splits marks at xs (in order along one lane) into runs: each run
// the marks [From, To] whose neighbours are less than gap apart, so that
// drawn one by one their ink would run together into a blob. A mark with
// room either side is a run of one.
func Runs(xs []float64, gap float64) []Run {
	var out []Run
	for i, x := range xs {
		if n := len(out); n > 0 && x-xs[out[n-1].To] < gap {
			out[n-1].To = i
			continue
		}
		out = append(out, Run{From: i, To: i})
	}
	return out
}

// Run is a run of marks, from index From to To inclusive.
type Run struct{ From, To int }

// Len is how many marks the run holds.
func (r Run) Len() int { return r.To - r.From + 1 }
