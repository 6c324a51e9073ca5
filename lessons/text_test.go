package lessons

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// learnerText is every sentence a learner reads in lessons and exercises.
func learnerText() map[string]string {
	out := map[string]string{}
	for _, l := range All() {
		out[l.ID+" intro"] = strings.Join(l.Intro, " ")
		out[l.ID+" recap"] = l.Recap
		out[l.ID+" hints"] = strings.Join(l.Hints, " ")
		for _, g := range l.Goals {
			out[l.ID+" goal "+g.ID] = g.Text + " " + g.Proved
		}
	}
	for _, e := range Exercises() {
		out[e.ID+" brief"] = e.Title + " " + strings.Join(e.Brief, " ")
		out[e.ID+" worked"] = strings.Join(e.Worked, " ")
		out[e.ID+" hints"] = strings.Join(e.Hints, " ")
		out[e.ID+" key points"] = strings.Join(e.KeyPoints, " ")
		out[e.ID+" format"] = e.Format
		for _, q := range e.Questions {
			out[e.ID+" question "+q.ID] = q.Text
		}
		if e.Lab != nil {
			out[e.ID+" lab"] = strings.Join(e.Lab.Intro, " ") + strings.Join(e.Lab.Hints, " ")
		}
	}
	return out
}

// TestLearnerTextNeverMentionsTheSeed: the learner has never heard of the
// curriculum's source document; rules and examples are named for what they
// are (defect 9: "the seed's rule", "the seed's Example 2").
func TestLearnerTextNeverMentionsTheSeed(t *testing.T) {
	for where, text := range learnerText() {
		low := strings.ToLower(text)
		assert.NotContains(t, low, "the seed's", where)
		assert.NotContains(t, low, "from the seed", where)
	}
}

// TestEveryExerciseHasAHintLadder: three rungs, a nudge to the key step.
func TestEveryExerciseHasAHintLadder(t *testing.T) {
	for _, e := range Exercises() {
		assert.Len(t, e.Hints, 3, e.ID)
	}
}

// TestEveryExerciseHasKeyPoints: the checklist a written defence is
// compared with.
func TestEveryExerciseHasKeyPoints(t *testing.T) {
	for _, e := range Exercises() {
		assert.GreaterOrEqual(t, len(e.KeyPoints), 3, e.ID)
	}
}

// TestTimesPrintAsTheirMilliseconds: every time the feedback prints reads
// as its whole milliseconds, never as a float's binary remainder (finding
// 8: a 3.986 s failover printed as "3.9859999999999998 s").
func TestTimesPrintAsTheirMilliseconds(t *testing.T) {
	assert.Equal(t, "3.986 s", secs(3986*time.Millisecond))
	assert.Equal(t, "3.986 s", instant(3986*time.Millisecond+700*time.Microsecond))
	assert.Equal(t, "60 s", secs(60*time.Second))
	for ms := int64(0); ms <= 200000; ms++ {
		d := time.Duration(ms) * time.Millisecond
		want := strconv.FormatInt(ms/1000, 10)
		if ms%1000 != 0 {
			want += strings.TrimRight(fmt.Sprintf(".%03d", ms%1000), "0")
		}
		if !assert.Equal(t, want+" s", secs(d)) || !assert.Equal(t, want+" s", instant(d+999*time.Microsecond)) {
			return
		}
	}
}
