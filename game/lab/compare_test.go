package lab

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/lessons"
)

// TestTheComparisonsChecklistDescribesTheRunsOnScreen: with fencing off
// the invariant breaks at the stale write, and the checklist says so
// only once the play head has passed it; with fencing on it holds.
func TestTheComparisonsChecklistDescribesTheRunsOnScreen(t *testing.T) {
	l, err := lessons.Find("fenced-writes")
	require.NoError(t, err)
	src, err := New(l, 1)
	require.NoError(t, err)
	src.Seek(4 * time.Second)
	require.NoError(t, src.Do(core.Pause("A", 20*time.Second)))
	c, err := NewComparison(src, l.Search)
	require.NoError(t, err)
	require.True(t, c.Broken[0], "fencing off breaks: %s", c.Verdicts[0])
	at := PairClock(c.Runs)
	at.Apply(SeekTo(1 * time.Second))
	early := c.AtPlayHead()
	assert.True(t, early[0].Holds, "not broken yet at 1 s: %+v", early[0])
	at.Apply(SeekTo(at.Length()))
	late := c.AtPlayHead()
	assert.False(t, late[0].Holds, "broken by the end: %+v", late[0])
	// Said as what broke, the invariant's name quoted: "broken at t=13s:
	// no stale write accepted" read as a contradiction.
	name := "“" + l.Search.Invariant.Name + "”"
	assert.Equal(t, "Fencing off", late[0].Note)
	assert.Regexp(t, `^broke `+name+` at \d+(\.\d+)?s$`, late[0].Text)
	assert.True(t, late[1].Holds, "fencing on holds: %+v", late[1])
	assert.Equal(t, "Fencing on", late[1].Note)
	assert.Equal(t, name+" holds so far", late[1].Text)
}
