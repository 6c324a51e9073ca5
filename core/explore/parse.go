package explore

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// BoundsSyntax documents ParseBounds for help texts.
const BoundsSyntax = `comma-separated key=value, each optional (defaults are the target's):
  procs=A+B          processes or workers to fault
  kinds=pause+crash  fault kinds: pause, crash, delay (hold what it sends)
  start=0s..30s/100ms  fault starts: from (inclusive) .. to (exclusive) / step
  len=100ms..30s/100ms pause and delay lengths: min .. max (inclusive) / step
  faults=1           at most this many faults (1 to 3)
  horizon=60s        observe every run until then
  settle=10s         or only until this long after its last fault ends`

// ParseBounds applies a bounds string (see BoundsSyntax) to base.
func ParseBounds(s string, base Bounds) (Bounds, error) {
	b := base
	b.Procs = append([]string(nil), base.Procs...)
	b.Kinds = append([]string(nil), base.Kinds...)
	if strings.TrimSpace(s) == "" {
		return b, b.Validate()
	}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || v == "" {
			return base, fmt.Errorf("%w: %q is not key=value", ErrBounds, part)
		}
		var err error
		switch k {
		case "procs":
			b.Procs = strings.Split(v, "+")
		case "kinds":
			b.Kinds = strings.Split(v, "+")
		case "start":
			b.From, b.To, b.Step, err = parseRange(v)
		case "len":
			b.MinLen, b.MaxLen, b.LenStep, err = parseRange(v)
		case "faults":
			b.MaxFaults, err = strconv.Atoi(v)
		case "horizon":
			b.Horizon, err = time.ParseDuration(v)
		case "settle":
			b.Settle, err = time.ParseDuration(v)
		default:
			return base, fmt.Errorf("%w: unknown key %q (want procs, kinds, start, len, faults, horizon or settle)", ErrBounds, k)
		}
		if err != nil {
			return base, fmt.Errorf("%w: %s=%s: %v", ErrBounds, k, v, err)
		}
	}
	if err := b.Validate(); err != nil {
		return base, err
	}
	return b, nil
}

// parseRange reads "from..to/step".
func parseRange(v string) (from, to, step time.Duration, err error) {
	span, st, ok := strings.Cut(v, "/")
	a, z, ok2 := strings.Cut(span, "..")
	if !ok || !ok2 {
		return 0, 0, 0, fmt.Errorf("want from..to/step, e.g. 0s..30s/100ms")
	}
	if strings.HasPrefix(z, ".") {
		// "0s...1s" would read as 0 s to .1 s: a third dot is a typo,
		// not a decimal point.
		return 0, 0, 0, fmt.Errorf("%q has three dots: want two between from and to, e.g. 0s..1s", span)
	}
	if from, err = time.ParseDuration(a); err != nil {
		return
	}
	if to, err = time.ParseDuration(z); err != nil {
		return
	}
	step, err = time.ParseDuration(st)
	return
}
