package lab

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/lessons"
)

// clusterLab is lesson 14 (three coordinator members) at t = 0.
func clusterLab(t *testing.T) *Lab {
	t.Helper()
	l, err := lessons.Find("coordinator-cluster")
	require.NoError(t, err)
	lb, err := New(l, 1)
	require.NoError(t, err)
	return lb
}

// memberMenu is the action menu of coordinator member name in lb's world.
func memberMenu(lb *Lab, name string) []Choice {
	return ChoicesFor(lb.Lesson, lb.World(), Actor{Name: name, Proc: -1, Worker: -1, Member: name}, 3)
}

// doChoice applies the choice id of member name's menu, failing if the
// menu does not offer it.
func doChoice(t *testing.T, lb *Lab, name, id string) {
	t.Helper()
	for _, c := range memberMenu(lb, name) {
		if c.ID == id {
			require.NoError(t, lb.Do(c.Action), "%s: %s", name, id)
			return
		}
	}
	require.Failf(t, "no such choice", "%s's menu lacks %q: %v", name, id, ids(memberMenu(lb, name)))
}

func TestTheWorldViewShowsEveryMemberAndWhoLeads(t *testing.T) {
	lb := clusterLab(t)
	lb.Advance(time.Second)
	v := lb.World()
	require.Len(t, v.Members, 3)
	assert.Equal(t, []string{"member-1", "member-2", "member-3"}, []string{v.Members[0].Name, v.Members[1].Name, v.Members[2].Name})
	assert.Equal(t, "member-1", v.LeaderName)
	assert.Positive(t, v.Term)
	assert.Equal(t, 2, v.QuorumSize())
	for _, m := range v.Members {
		assert.True(t, m.InQuorum, "%s is in the quorum of a healthy cluster", m.Name)
		assert.Equal(t, v.Rev, m.Applied, "%s has applied every revision", m.Name)
		assert.Equal(t, m.Name == "member-1", m.Leader)
	}
	assert.Equal(t, []string{"A"}, v.Members[0].Clients, "A talks to member-1")

	// A one-member coordinator has no members to show.
	assert.Empty(t, fenced(t).World().Members)
}

func TestAMembersMenuOffersEachVerbInTheMembersState(t *testing.T) {
	lb := clusterLab(t)
	lb.Advance(time.Second)
	assert.Equal(t, []string{"crash", "pause", "partition:peers", "partition:clients", "disk-slow", "read", "read-linearizable"},
		ids(memberMenu(lb, "member-2")))

	doChoice(t, lb, "member-2", "disk-slow")
	doChoice(t, lb, "member-2", "partition:peers")
	doChoice(t, lb, "member-2", "partition:clients")
	m, _ := lb.World().Member("member-2")
	assert.True(t, m.SlowDisk())
	assert.True(t, m.CutPeers)
	assert.True(t, m.CutClients)
	assert.False(t, m.InQuorum, "a member cut off from its peers is out of the quorum")
	assert.Equal(t, []string{"crash", "pause", "heal:peers", "heal:clients", "disk-normal", "read", "read-linearizable"},
		ids(memberMenu(lb, "member-2")))

	doChoice(t, lb, "member-3", "pause")
	assert.Equal(t, []string{"crash", "resume", "partition:peers", "partition:clients", "disk-slow"}, ids(memberMenu(lb, "member-3")),
		"a paused member answers no read")
	doChoice(t, lb, "member-1", "crash")
	assert.Equal(t, []string{"restart", "partition:peers", "partition:clients", "disk-slow"}, ids(memberMenu(lb, "member-1")),
		"a crashed member can be restarted, not paused or read from")

	restart := memberMenu(lb, "member-1")
	for _, c := range memberMenu(lb, "member-2") {
		if c.ID == "read-linearizable" {
			assert.Equal(t, core.Action{Do: core.VerbRead, Proc: "member-2", Key: "locks/leader", On: true}, c.Action)
		}
	}
	assert.Equal(t, "Restart (X)", restart[0].Label)
}

func TestAMembersMenuOffersOnlyWhatTheLessonAllows(t *testing.T) {
	lb := clusterLab(t)
	lb.Advance(time.Second)
	only := *lb.Lesson
	only.Controls = []lessons.Control{lessons.CtlCrash, lessons.CtlRead}
	got := ChoicesFor(&only, lb.World(), Actor{Name: "member-1", Proc: -1, Worker: -1, Member: "member-1"}, 3)
	assert.Equal(t, []string{"crash", "read", "read-linearizable"}, ids(got))
	assert.Empty(t, ChoicesFor(&only, lb.World(), Actor{Name: "member-9", Proc: -1, Worker: -1, Member: "member-9"}, 3), "no such member")
}

// solved is lesson 14 with its solution played to t.
func solved(t *testing.T, at time.Duration) *Lab {
	t.Helper()
	lb := clusterLab(t)
	lb.LoadSolution()
	lb.Advance(at)
	return lb
}

func TestTheNarrationTellsTheClusterInPlainWords(t *testing.T) {
	lb := solved(t, 70*time.Second)
	var text strings.Builder
	for _, l := range lb.Narration() {
		text.WriteString(core.FormatTime(l.At) + " " + l.Text + "\n")
	}
	for _, want := range []string{
		"member-2's disk syncs take 300 ms now",
		"member-1 crashed",
		"member-3 leads now (term 3)",
		"the new leader gave A's lease a whole TTL again: it now ends at 9.9 s",
		"member-2 gave up on B's keepalive: it had no leader for too long (the client's error: \"etcdserver: no leader\")",
		"member-2 answered a serializable read: B holds the lock (stale: that was so at revision 5",
		"member-2 could not answer your linearizable read: no leader committed it within 7 s",
		"no leader: member-3 cannot reach a majority of members and steps down; nothing expires",
		"A now talks to member-3",
		"member-3 froze for 3 s",
		"member-3 runs again",
	} {
		assert.Contains(t, text.String(), want)
	}
	assert.NotContains(t, text.String(), "member.refuse", "no event is told by its kind")
}

func TestWhyTracesANewLeadersRearmBackToTheCrash(t *testing.T) {
	lb := solved(t, 5*time.Second)
	tr := lb.Sim().Trace
	rearm := tr.Filter(core.KindLeaseRearm)
	require.NotEmpty(t, rearm)
	w, ok := lb.WhyOf(rearm[0].Seq)
	require.True(t, ok)
	assert.Contains(t, w.Steps[0].Text, "the new leader gave")
	assert.Contains(t, w.Root, "crash member-1", "the rearm goes back to the leader member's crash")
	var steps []string
	for _, s := range w.Steps {
		steps = append(steps, s.Text)
	}
	assert.Contains(t, strings.Join(steps, "\n"), "member-3 leads now", "the election is a step of the chain")

	// Why? at the play head explains the latest key event: the election.
	now, ok := lb.WhyNow()
	require.True(t, ok)
	assert.Contains(t, now.Steps[0].Text, "leads now")
}

func TestTheWorldSummarySaysWhoLeadsAndWhoIsCutOff(t *testing.T) {
	lb := solved(t, 2*time.Second)
	before := lb.World().Summary()
	assert.Contains(t, before.Lines, "Coordinator: member-1 leads (term 2)")
	assert.Contains(t, before.Key, "member-2: follower in the quorum, slow disk (300 ms syncs)")

	lb.Advance(23 * time.Second) // 25 s: member-2 cut off from its peers since 20 s
	s := lb.World().Summary()
	assert.Contains(t, s.Lines, "Coordinator: member-3 leads (term 3)")
	assert.Contains(t, s.Key, "member-2: out of the quorum, cut off from its peers, slow disk (300 ms syncs)")
	changed := strings.Join(s.Changed(before), "\n")
	assert.Contains(t, changed, "member-3 leads", "a new leader is told")
	assert.Contains(t, changed, "member-1: follower in the quorum", "so is the crashed member's return")

	lb.Advance(20 * time.Second) // 45 s: member-1 and member-2 down
	s = lb.World().Summary()
	assert.Contains(t, s.Lines, "Coordinator: no leader (term 3): nothing is committed, nothing expires")
	assert.Contains(t, s.Lines, "member-1: crashed")
}

func TestTheTimelineMarksLeaderChangesAndTheLanesRunThroughThem(t *testing.T) {
	lb := solved(t, 70*time.Second)
	tl := lb.Timeline()
	require.GreaterOrEqual(t, len(tl.Leaders), 6)
	assert.Equal(t, "member-1 leads, term 2", tl.Leaders[0].Label())
	assert.Equal(t, "member-3 leads, term 3", tl.Leaders[1].Label())
	assert.InDelta(t, 3.943, tl.Leaders[1].At.Seconds(), 0.001)
	var none bool
	for _, m := range tl.Leaders {
		none = none || m.Label() == "no leader"
	}
	assert.True(t, none, "the quorum's loss is marked")

	// A's lease outlives the failover at 3.9 s: its truth span runs on,
	// unbroken, to the expiry at 10 s.
	a := tl.Lanes[tl.LaneOf("A")]
	require.NotEmpty(t, a.Truth)
	assert.Less(t, a.Truth[0].From, time.Second)
	assert.Equal(t, 10*time.Second, a.Truth[0].To)
}
