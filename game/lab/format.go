package lab

import (
	"fmt"
	"strconv"
	"time"
)

// The front end's ways of writing a duration, in one place (an instant of
// the run is written as the trace writes it, core.FormatTime).

// Seconds is a length in seconds, to the millisecond and without
// trailing zeros, for menus, captions and sentences: "20 s", "5.5 s",
// "4.419 s".
func Seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Round(time.Millisecond).Seconds(), 'f', -1, 64) + " s"
}

// Tenths is a time as the systems' stories write it, to a tenth of a
// second: "13.3 s", "20 s".
func Tenths(d time.Duration) string { return Seconds(d.Round(100 * time.Millisecond)) }

// ClockTime is the play head as the player's clock shows it:
// "t = 12.500 s".
func ClockTime(d time.Duration) string { return fmt.Sprintf("t = %.3f s", d.Seconds()) }
