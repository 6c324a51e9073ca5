package game

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/core/permalink"
	"leaselab/game/place"
	"leaselab/game/sandbox"
	"leaselab/game/setup"
)

// A sandbox run the learner built and played has a link; opened in
// another lab (another browser, after a reload), it is the same setup, the
// same actions and the same world at the same play head.
func TestASandboxRunsLinkReopensTheSameRun(t *testing.T) {
	a := NewApp(nil)
	sb, err := a.OpenSandbox("zookeeper")
	require.NoError(t, err)
	f := sb.Setup().Fields[0]
	for _, fl := range sb.Setup().Fields {
		if fl.Name == "ttl" {
			f = fl
		}
	}
	require.Equal(t, "ttl", f.Name)
	sb.Edit(func(m *setup.Setup) { m.Set(f, 14) })
	require.NoError(t, sb.Start())
	sb.Run.Lab.Advance(2 * time.Second)
	require.NoError(t, sb.Run.Lab.Do(core.Pause("A", 20*time.Second)))
	sb.Run.Lab.Advance(25 * time.Second)

	link, ok, err := a.CurrentLink()
	require.True(t, ok, "a sandbox run on screen has a link")
	require.NoError(t, err)
	assert.Equal(t, permalink.LinkSandbox, link.Kind)
	assert.Equal(t, []permalink.Param{{Key: "ttl", Value: "14s"}}, link.Params, "only the change travels")

	b := NewApp(nil)
	run, err := b.OpenLink(link.Fragment())
	require.NoError(t, err)
	other, ok := b.top().(*sandbox.Scene)
	require.True(t, ok, "the link opens the sandbox")
	assert.Same(t, other.Run, run)
	assert.Equal(t, sb.Setup().Config, other.Setup().Config, "the same setup")
	assert.Equal(t, "zookeeper", other.Setup().Preset)
	assert.Equal(t, sb.Run.Lab.Log(), run.Lab.Log(), "the same actions")
	assert.Equal(t, 2*time.Second, run.Lab.Now(), "the play head at the last action")
	assert.Contains(t, run.Lab.Lesson.Intro, "This run came from a shared link: its one action is replayed on ZooKeeper.")
	run.Lab.Advance(sb.Run.Lab.Now() - run.Lab.Now())
	assert.Equal(t, sb.Run.Lab.Sim().Trace.Hash(), run.Lab.Sim().Trace.Hash(), "the same world")
}

// A bad sandbox link opens nothing and leaves the screen as it was.
func TestABadSandboxLinkKeepsTheScreen(t *testing.T) {
	a := NewApp(nil)
	sc, err := a.OpenID("fenced-writes")
	require.NoError(t, err)
	bad := permalink.RunLink{Kind: permalink.LinkSandbox, Name: permalink.SandboxDefault, Params: []permalink.Param{{Key: "procs", Value: "99"}}}
	_, err = a.OpenLink(bad.Encode())
	assert.ErrorContains(t, err, "the sandbox refuses this setup")
	assert.Same(t, sc, a.top())
}

// A lesson's world carried into the sandbox says why it has no link
// instead of sharing one that would open something else.
func TestALessonWorldInTheSandboxSaysWhyItHasNoLink(t *testing.T) {
	a := NewApp(nil)
	sc, err := a.OpenID("fenced-writes")
	require.NoError(t, err)
	a.openInSandbox(sc)
	_, ok, err := a.CurrentLink()
	assert.True(t, ok)
	assert.ErrorContains(t, err, "share the run from the lesson")
}

// The sandbox's setup has no run, so no link (the page writes none in the
// address, and a reload opens the sandbox); the run started from it has
// one, and going back to the setup drops it. The page asks the game this,
// never the screen's name.
func TestOnlyASandboxRunOnShowHasALink(t *testing.T) {
	r := newAppRig(t)
	r.click("sandbox")
	_, ok, _ := r.a.CurrentLink()
	assert.False(t, ok, "the setup has no link")
	r.click("start")
	link, ok, err := r.a.CurrentLink()
	require.True(t, ok, "the run has a link")
	require.NoError(t, err)
	assert.NoError(t, link.Check())
	r.click("menu")
	require.Equal(t, place.Sandbox, r.a.Inspect().Place.Kind, "back on the setup")
	_, ok, _ = r.a.CurrentLink()
	assert.False(t, ok, "back on the setup: no link")
}
