package game

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTheAnnouncerSaysEveryKeyLineAndThrottlesTheRest runs random
// streams of lines at random speeds through the announcer and checks its
// promises: every key line is said, in order; run announcements are at
// least an interval apart; and every other line is either said or
// counted among those passed over.
func TestTheAnnouncerSaysEveryKeyLineAndThrottlesTheRest(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 7))
		a := Announcer{Interval: DefaultInterval}
		var keys, said []string
		others, accounted := 0, 0
		var lastSaid time.Duration
		spoke := false
		now := time.Duration(0)
		for tick := range 400 {
			now += time.Duration(5+rng.IntN(60)) * time.Millisecond
			for range rng.IntN(3) {
				if rng.IntN(4) == 0 {
					s := "key " + string(rune('a'+tick%26))
					keys = append(keys, s)
					a.Line(s, true)
				} else {
					others++
					a.Line("other", false)
				}
			}
			if s := a.Flush(now); s != "" {
				if spoke {
					require.GreaterOrEqual(t, now-lastSaid, DefaultInterval, "seed %d: announcements too close", seed)
				}
				spoke, lastSaid = true, now
				said = append(said, s)
				accounted += strings.Count(s, "other") + countPassed(s)
			}
		}
		for i := 0; i < 100; i++ { // let what waits be said
			now += DefaultInterval
			if s := a.Flush(now); s != "" {
				said = append(said, s)
				accounted += strings.Count(s, "other") + countPassed(s)
			}
		}
		all := strings.Join(said, " | ")
		at := 0
		for _, k := range keys {
			i := strings.Index(all[at:], k)
			require.GreaterOrEqualf(t, i, 0, "seed %d: key line %q was never said, or out of order", seed, k)
			at += i + len(k)
		}
		assert.Equal(t, others, accounted, "seed %d: every other line said or counted", seed)
	}
}

// countPassed reads "(N more in the list …)".
func countPassed(s string) int {
	i := strings.LastIndex(s, " (")
	if i < 0 || !strings.HasSuffix(s, " more in the list of what happened)") {
		return 0
	}
	n := 0
	for _, r := range s[i+2:] {
		if r < '0' || r > '9' {
			break
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// TestAFocusMoveIsSaidAtOnce: focus is said on the next flush whatever
// the throttle.
func TestAFocusMoveIsSaidAtOnce(t *testing.T) {
	a := Announcer{Interval: time.Hour}
	a.Line("first", false)
	assert.Equal(t, "first", a.Flush(0))
	a.Line("second", false)
	assert.Empty(t, a.Flush(time.Second), "throttled")
	a.Now("Canvas: Play")
	assert.Equal(t, "Canvas: Play", a.Flush(time.Second))
}

// TestANewScreenIsOneAnnouncement: a new screen drops what was waiting
// (the old screen's lines, the new one's narration so far), is said at
// once, and the run's next line waits an interval after it.
func TestANewScreenIsOneAnnouncement(t *testing.T) {
	a := Announcer{Interval: DefaultInterval}
	a.Line("B acquired the lock", true)
	a.Line("A renewed", false)
	a.Screen("Lesson: The paused leader and fenced writes")
	assert.Equal(t, "Lesson: The paused leader and fenced writes", a.Flush(10*time.Second), "said at once, alone")
	a.Line("Playing at 1x", true)
	assert.Equal(t, "", a.Flush(10*time.Second+DefaultInterval/2), "the next line waits")
	assert.Equal(t, "Playing at 1x", a.Flush(10*time.Second+DefaultInterval))
}

// TestLinesJoinAsSentences: lines said together read as sentences, with
// one full stop between them, never two.
func TestLinesJoinAsSentences(t *testing.T) {
	a := Announcer{Interval: DefaultInterval}
	a.Line("Reduced quality to keep up.", true)
	a.Line("A acquired the lock", true)
	a.Line("Goal met: B took over", true)
	assert.Equal(t, "Reduced quality to keep up. A acquired the lock. Goal met: B took over", a.Flush(time.Second))
}
