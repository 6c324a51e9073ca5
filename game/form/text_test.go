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
	assert.Equal(t, "TTL: right. long enough", PartText(r.Parts[0]))
	assert.Equal(t, "fencing: wrong. missing", PartText(r.Parts[1]))
	unjudged := lessons.Feedback{Part: "Your failover estimate", Why: `Not checked: "Lease TTL" is not answered.`}
	assert.Equal(t, `Your failover estimate: not checked. "Lease TTL" is not answered.`, PartText(unjudged))
	assert.Equal(t, "Design: not checked. Renewing every 5 s lapses.", PartText(lessons.Feedback{Part: "Design", Why: "Not checked: renewing every 5 s lapses."}))
	assert.Equal(t, "Cause: not answered. Say why.", PartText(lessons.Feedback{Part: "Cause", Why: "Not answered. Say why."}))
	assert.Equal(t, "Cause: right. The lock held.", PartText(lessons.Feedback{Part: "Cause", OK: true, Why: "Right: the lock held."}))
	assert.Equal(t, "Cause: wrong. Right: is not a mark here.", PartText(lessons.Feedback{Part: "Cause", Why: "Right: is not a mark here."}), "a mark is stripped only where it agrees")
	assert.Equal(t, []string{"TTL: long enough", "", "fencing: missing", "", "worst gap 3 s"}, ResultParagraphs(r))
	assert.Equal(t, "actions", Plural(2, "action", "actions"))
	assert.Equal(t, "action", Plural(1, "action", "actions"))
}
