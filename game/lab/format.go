package lab

import (
	"fmt"
	"time"

	"leaselab/core"
)

// The front end's own ways of writing a duration, in one place. A length
// is written as every sentence of the lab writes it, core.Seconds; an
// instant of the run as the trace writes it, core.FormatTime.

// Tenths is a time as the systems' stories write it, to a tenth of a
// second: "13.3 s", "20 s".
func Tenths(d time.Duration) string { return core.Seconds(d.Round(100 * time.Millisecond)) }

// ClockTime is the play head as the player's clock shows it:
// "t = 12.500 s".
func ClockTime(d time.Duration) string { return fmt.Sprintf("t = %.3f s", d.Seconds()) }
