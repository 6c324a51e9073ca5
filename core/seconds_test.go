package core

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A length is written to the millisecond, as its decimal digits: never
// the float noise of d.Seconds() (1.118 s printed as 1.1179999999999999).
func TestSecondsWritesEveryMillisecondExactly(t *testing.T) {
	assert.Equal(t, "20 s", Seconds(20*time.Second))
	assert.Equal(t, "5.5 s", Seconds(5500*time.Millisecond))
	assert.Equal(t, "1.118 s", Seconds(1118*time.Millisecond))
	assert.Equal(t, "0.001 s", Seconds(1400*time.Microsecond), "rounded to the millisecond")
	for ms := int64(0); ms < 200000; ms++ {
		want := fmt.Sprintf("%d.%03d", ms/1000, ms%1000)
		for want[len(want)-1] == '0' {
			want = want[:len(want)-1]
		}
		if want[len(want)-1] == '.' {
			want = want[:len(want)-1]
		}
		if got := Seconds(time.Duration(ms) * time.Millisecond); got != want+" s" {
			assert.Equal(t, want+" s", got, "%d ms", ms)
			return
		}
	}
}

// A limit or a refusal says its length in the largest whole unit, and
// never rounds what the learner gave.
func TestSpanWritesLimitsInTheirOwnUnit(t *testing.T) {
	for d, want := range map[time.Duration]string{
		time.Hour:                    "1 h",
		10 * time.Minute:             "10 min",
		90 * time.Second:             "90 s",
		1500 * time.Millisecond:      "1.5 s",
		5 * time.Millisecond:         "5 ms",
		500 * time.Microsecond:       "500µs",
		1500500 * time.Microsecond:   "1.5005s",
		0:                            "0 s",
		-2 * time.Second:             "-2 s",
		61*time.Minute + time.Second: "3661 s",
	} {
		assert.Equal(t, want, Span(d), "%v", time.Duration(d))
	}
}
