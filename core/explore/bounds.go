package explore

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"leaselab/core"
)

// Bounds is the space of fault schedules: up to MaxFaults faults, each of
// one of Kinds on one of Procs, starting on the grid From, From+Step, ...
// below To; a pause lasts MinLen, MinLen+LenStep, ... up to MaxLen. Every
// run is observed until Horizon.
type Bounds struct {
	Procs          []string
	Kinds          []string
	From, To, Step time.Duration
	MinLen, MaxLen time.Duration
	LenStep        time.Duration
	MaxFaults      int
	Horizon        time.Duration
	// Settle, if positive, ends each run Settle after its last fault ends
	// (a pause's resume, a crash) instead of at Horizon: a narrower bound
	// that makes a large search affordable. It is part of what a "no
	// violation" verdict covers.
	Settle time.Duration
	_      struct{}
}

// Errors of bad bounds.
var ErrBounds = errors.New("bad bounds")

// Limits of a search a learner can ask for. A grid past them would not
// finish in any sitting (a simulated schedule costs about 0.1 to 1 ms), and
// a start grid finer than MaxStarts would need per-start bookkeeping that
// no longer fits in memory.
const (
	MaxSchedules = 1e9
	MaxStarts    = 1 << 20
	// MaxFaultLen is the longest pause or delay: no run is observed
	// longer (see Validate's horizon limit), so a longer one changes
	// nothing, and keeping lengths small keeps their loops from wrapping.
	MaxFaultLen = time.Hour
)

// Validate rejects bounds that describe no schedule, an endless one, or
// more than a search can run (see MaxSchedules and MaxStarts).
func (b Bounds) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrBounds, fmt.Sprintf(format, a...))
	}
	switch {
	case len(b.Procs) == 0:
		return bad("no process to fault")
	case len(b.Kinds) == 0:
		return bad("no fault kind (want %s)", strings.Join(FaultKinds, ", "))
	case b.Step <= 0 || b.From < 0 || b.To <= b.From:
		return bad("start grid [%s, %s) step %s is empty", b.From, b.To, b.Step)
	case b.Step > time.Hour:
		return bad("start step %s is longer than an hour (the longest horizon)", b.Step)
	case b.MaxFaults < 1 || b.MaxFaults > 3:
		return bad("at most 1 to 3 faults, got %d", b.MaxFaults)
	case b.Horizon < b.To:
		return bad("horizon %s ends before the last fault start %s", b.Horizon, b.To)
	case b.Horizon > time.Hour:
		return bad("horizon %s is longer than an hour", b.Horizon)
	case b.Settle < 0:
		return bad("settle %s is negative", b.Settle)
	}
	if d := firstRepeat(b.Procs); d != "" {
		return bad("process %q is listed twice", d)
	}
	if d := firstRepeat(b.Kinds); d != "" {
		return bad("fault kind %q is listed twice", d)
	}
	for _, k := range b.Kinds {
		if !slices.Contains(FaultKinds, k) {
			return bad("unknown fault kind %q (want %s)", k, strings.Join(FaultKinds, ", "))
		}
		if lasts(k) && (b.LenStep <= 0 || b.MinLen <= 0 || b.MaxLen < b.MinLen) {
			return bad("%s lengths [%s, %s] step %s are empty", k, b.MinLen, b.MaxLen, b.LenStep)
		}
		if lasts(k) && (b.MaxLen > MaxFaultLen || b.LenStep > MaxFaultLen) {
			return bad("%s lengths up to %s step %s: neither may be longer than %s (no run is observed longer)", k, b.MaxLen, b.LenStep, MaxFaultLen)
		}
	}
	if n := gridPoints(b.From, b.To, b.Step); n > MaxStarts {
		return bad("the start grid has %d points; the limit is %d: use a coarser step", n, MaxStarts)
	}
	if n := b.Count(); n > MaxSchedules {
		return bad("%.3g schedules; the limit is %.0e: narrow the grid", n, float64(MaxSchedules))
	}
	return nil
}

// firstRepeat returns the first value listed twice in vs, or "".
func firstRepeat(vs []string) string {
	for i, v := range vs {
		if slices.Contains(vs[:i], v) {
			return v
		}
	}
	return ""
}

// End returns when a run of faults stops being observed.
func (b Bounds) End(faults []Fault) time.Duration {
	if b.Settle <= 0 || len(faults) == 0 {
		return b.Horizon
	}
	last := time.Duration(0)
	for _, f := range faults {
		last = max(last, f.At+f.For)
	}
	return min(b.Horizon, last+b.Settle)
}

// starts and lens are only called on valid bounds, whose grids are small
// (MaxStarts, MaxFaultLen), so the int conversions cannot wrap.
func (b Bounds) starts() int { return int(gridPoints(b.From, b.To, b.Step)) }

func (b Bounds) lens() int {
	if !slices.ContainsFunc(b.Kinds, lasts) || b.LenStep <= 0 || b.MaxLen < b.MinLen {
		return 0
	}
	return int((b.MaxLen-b.MinLen)/b.LenStep) + 1
}

// choices is how many single faults start at one grid point (in floating
// point: Count is also asked of bounds being validated, which may be huge).
func (b Bounds) choices() float64 {
	per := 0.0
	for _, k := range b.Kinds {
		if lasts(k) {
			per += float64(b.lens())
		} else {
			per++
		}
	}
	return float64(len(b.Procs)) * per
}

// Count returns how many schedules exhaustive search runs: for each k up to
// MaxFaults, the k-fault schedules whose starts do not decrease.
func (b Bounds) Count() float64 {
	total := 0.0
	for k := 1; k <= b.MaxFaults; k++ {
		total += multisets(float64(gridPoints(b.From, b.To, b.Step)), k) * pow(b.choices(), k)
	}
	return total
}

// multisets counts non-decreasing sequences of length k over n values.
func multisets(n float64, k int) float64 {
	r := 1.0
	for i := 0; i < k; i++ {
		r = r * (n + float64(i)) / float64(i+1)
	}
	return r
}

func pow(x float64, k int) float64 {
	r := 1.0
	for range k {
		r *= x
	}
	return r
}

func (b Bounds) String() string {
	var s strings.Builder
	fmt.Fprintf(&s, "up to %d %s of %s", b.MaxFaults, plural(b.MaxFaults, "fault", "faults"), strings.Join(b.Procs, ", "))
	fmt.Fprintf(&s, " (%s) starting %s to %s every %s", strings.Join(b.Kinds, ", "), core.FormatTime(b.From), core.FormatTime(b.To), core.FormatTime(b.Step))
	if b.lens() > 0 {
		var what []string
		for _, k := range b.Kinds {
			if lasts(k) {
				what = append(what, k+"s")
			}
		}
		fmt.Fprintf(&s, ", %s %s to %s every %s", strings.Join(what, " and "), core.FormatTime(b.MinLen), core.FormatTime(b.MaxLen), core.FormatTime(b.LenStep))
	}
	if b.Settle > 0 {
		fmt.Fprintf(&s, ", each run observed until %s after its last fault ends (at most %s)", core.FormatTime(b.Settle), core.FormatTime(b.Horizon))
	} else {
		fmt.Fprintf(&s, ", each run observed until %s", core.FormatTime(b.Horizon))
	}
	return s.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// gridPoints returns how many points from, from+step, ... lie below to
// (from < to, step > 0), computed without the overflow of
// (to - from + step - 1) / step when step is near the largest duration.
func gridPoints(from, to, step time.Duration) int64 {
	span := int64(to - from)
	n := span / int64(step)
	if span%int64(step) != 0 {
		n++
	}
	return n
}
