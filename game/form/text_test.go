package form

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"leaselab/core"
	"leaselab/lessons"
)

func TestTheRunIsDescribedInALine(t *testing.T) {
	assert.Equal(t, "Your run: no actions yet.", RunText(nil))
	pause := core.At(4*time.Second, core.Pause("A", 20*time.Second))
	assert.Equal(t, "Your run: 1 action (pause A at 4 s for 20 s).", RunText(core.ActionLog{pause}))
	crash := core.At(1500*time.Millisecond, core.Crash("B"))
	assert.Equal(t, "Your run: 2 actions, the first crash B at 1.5 s.", RunText(core.ActionLog{pause, crash}), "first in time, not in the log")
}

func TestAResultReadsPartByPart(t *testing.T) {
	r := lessons.Result{Parts: []lessons.Feedback{{Part: "TTL", OK: true, Why: "long enough"}, {Part: "fencing", Why: "missing"}}, Figures: []string{"worst gap 3 s"}}
	assert.Equal(t, "Right, TTL: long enough", PartText(r.Parts[0]))
	assert.Equal(t, "Wrong, fencing: missing", PartText(r.Parts[1]))
	assert.Equal(t, []string{"TTL: long enough", "", "fencing: missing", "", "worst gap 3 s"}, ResultParagraphs(r))
	assert.Equal(t, "actions", Plural(2, "action", "actions"))
	assert.Equal(t, "action", Plural(1, "action", "actions"))
}
