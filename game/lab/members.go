package lab

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"leaselab/core"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// A coordinator of several members (core/cluster.go): the world view shows
// each member (who leads, in which term, what it has applied, whether it
// is in the quorum, what cuts it off) and each is an actor the learner
// can crash, pause, cut off, slow down or read from.

// SlowDisk is the fsync time "slow disk" gives a member: the lesson's
// slow disk, enough to see an acquisition wait for the quorum's disks.
const SlowDisk = 300 * time.Millisecond

// MemberView is one member of the coordinator's cluster as the world view
// draws it.
type MemberView struct {
	Name            string
	Leader          bool // it leads now, with its quorum
	Crashed, Paused bool
	// CutClients: clients cannot reach it; CutPeers: it is cut off from
	// every other member (CutFrom names the members it is cut from).
	CutClients, CutPeers bool
	CutFrom              []string
	// InQuorum: it reaches the leader, which has its quorum: what it is
	// sent can be committed.
	InQuorum bool
	Applied  int64 // the revision it has applied (its commit index)
	Disk     time.Duration
	Clients  []string // the clients that talk to it
}

// SlowDisk reports whether the member's disk syncs are slower than a
// healthy member's.
func (m MemberView) SlowDisk() bool { return m.Disk > core.DefaultDiskSync }

// addMembers adds the coordinator's members, its term and its leader.
func (lb *Lab) addMembers(v *WorldView) {
	s := lb.world.Sim
	states := s.Coord.MemberStates()
	if len(states) == 0 {
		return
	}
	v.LeaderName, v.Term = s.Coord.Leader()
	for _, st := range states {
		m := MemberView{Name: st.Name, Leader: st.Leader, Crashed: st.Crashed, Paused: st.Paused,
			CutClients: st.CutClients, InQuorum: st.InQuorum, Applied: st.Applied, Disk: st.DiskSync,
			Clients: st.ClientsOn}
		for _, o := range states {
			if o.Name != st.Name && (s.Net.Cut(st.Name, o.Name) || s.Net.Cut(o.Name, st.Name)) {
				m.CutFrom = append(m.CutFrom, o.Name)
			}
		}
		m.CutPeers = len(m.CutFrom) == len(states)-1
		v.Members = append(v.Members, m)
	}
}

// Member returns the member called name, and false if there is none.
func (v WorldView) Member(name string) (MemberView, bool) {
	i := slices.IndexFunc(v.Members, func(m MemberView) bool { return m.Name == name })
	if i < 0 {
		return MemberView{}, false
	}
	return v.Members[i], true
}

// QuorumSize is how many members a majority is (0 with no cluster).
func (v WorldView) QuorumSize() int {
	if len(v.Members) == 0 {
		return 0
	}
	return len(v.Members)/2 + 1
}

// LeaderLine says in a line who leads the coordinator: "member-3 leads
// (term 3)", or that none does and so nothing expires.
func (v WorldView) LeaderLine() string {
	if v.LeaderName != "" {
		return fmt.Sprintf("%s leads (term %d)", v.LeaderName, v.Term)
	}
	return fmt.Sprintf("no leader (term %d): nothing is committed, nothing expires", v.Term)
}

// MemberState says member m's state in a few words: "leader, term 3,
// revision 12 applied", "crashed", "follower out of the quorum, cut off
// from its peers, revision 9 applied, clients B".
func (v WorldView) MemberState(m MemberView) string {
	s := v.MemberRole(m)
	if m.Crashed {
		return s
	}
	s += fmt.Sprintf(", revision %d applied", m.Applied)
	if len(m.Clients) > 0 {
		s += ", clients " + strings.Join(m.Clients, ", ")
	}
	return s
}

// MemberRole is MemberState without what changes with every write (its
// revision) or request (its clients): what a listener is told of when it
// changes.
func (v WorldView) MemberRole(m MemberView) string {
	var parts []string
	switch {
	case m.Crashed:
		return "crashed"
	case m.Leader:
		parts = append(parts, fmt.Sprintf("leader, term %d", v.Term))
	case m.InQuorum:
		parts = append(parts, "follower in the quorum")
	default:
		parts = append(parts, "out of the quorum")
	}
	if m.Paused {
		parts = append(parts, "paused")
	}
	switch {
	case m.CutPeers:
		parts = append(parts, "cut off from its peers")
	case len(m.CutFrom) > 0:
		parts = append(parts, "cut off from "+strings.Join(m.CutFrom, " and "))
	}
	if m.CutClients {
		parts = append(parts, "cut off from its clients")
	}
	if m.SlowDisk() {
		parts = append(parts, "slow disk ("+core.Span(m.Disk)+" syncs)")
	}
	return strings.Join(parts, ", ")
}

// memberSummary is the world summary's lines for the cluster: who leads,
// then each member; and the key sentences a listener is told of.
func (v WorldView) memberSummary() (lines, key []string) {
	if len(v.Members) == 0 {
		return nil, nil
	}
	lead := "Coordinator: " + v.LeaderLine()
	lines, key = append(lines, lead), append(key, lead)
	for _, m := range v.Members {
		lines = append(lines, m.Name+": "+v.MemberState(m))
		key = append(key, m.Name+": "+v.MemberRole(m))
	}
	return lines, key
}

// memberChoices is a coordinator member's menu, each verb offered only
// where the lesson's controls allow it: crash or restart it, pause or
// resume it, cut it off from its peers or its clients (or heal that),
// give it a slow disk (or a healthy one back), and read from it who holds
// the lock, serializable (its own state, at once) or linearizable
// (through the leader).
func memberChoices(l *lessons.Lesson, v WorldView, a Actor) []Choice {
	m, ok := v.Member(a.Member)
	if !ok {
		return nil
	}
	allows := func(c lessons.Control) bool { return slices.Contains(l.Controls, c) }
	pauseFor := v.PauseFor
	if pauseFor <= 0 {
		pauseFor = l.PauseFor
	}
	name := m.Name
	var out []Choice
	if allows(lessons.CtlCrash) {
		if m.Crashed {
			out = append(out, Choice{ID: "restart", Label: ui.WithKey("Restart", ui.IntentCrashProc), Action: core.Restart(name), Key: ui.IntentCrashProc})
		} else {
			out = append(out, Choice{ID: "crash", Label: ui.WithKey("Crash", ui.IntentCrashProc), Action: core.Crash(name), Key: ui.IntentCrashProc})
		}
	}
	if allows(lessons.CtlPause) && !m.Crashed && pauseFor > 0 {
		if m.Paused {
			out = append(out, Choice{ID: "resume", Label: ui.WithKey("Resume", ui.IntentPauseProc), Action: core.Resume(name), Key: ui.IntentPauseProc})
		} else {
			out = append(out, Choice{ID: "pause", Label: ui.WithKey("Pause "+core.Seconds(pauseFor), ui.IntentPauseProc), Action: core.Pause(name, pauseFor), Key: ui.IntentPauseProc})
		}
	}
	if allows(lessons.CtlPartition) {
		if m.CutPeers {
			out = append(out, Choice{ID: "heal:peers", Label: ui.WithKey("Heal its links to its peers", ui.IntentCutLink), Action: core.Heal(name, core.PeersOf), Key: ui.IntentCutLink})
		} else {
			out = append(out, Choice{ID: "partition:peers", Label: ui.WithKey("Cut off from its peers", ui.IntentCutLink), Action: core.Partition(name, core.PeersOf), Key: ui.IntentCutLink})
		}
		if m.CutClients {
			out = append(out, Choice{ID: "heal:clients", Label: "Let its clients reach it again", Action: core.Heal(name, core.ClientsOf)})
		} else {
			out = append(out, Choice{ID: "partition:clients", Label: "Cut off from its clients", Action: core.Partition(name, core.ClientsOf)})
		}
	}
	if allows(lessons.CtlSlowDisk) {
		if m.SlowDisk() {
			out = append(out, Choice{ID: "disk-normal", Label: fmt.Sprintf("Healthy disk again (%s syncs)", core.Span(core.DefaultDiskSync)),
				Action: core.Action{Do: core.VerbSlowDisk, Proc: name, For: core.Duration(core.DefaultDiskSync)}})
		} else {
			out = append(out, Choice{ID: "disk-slow", Label: fmt.Sprintf("Slow disk (%s syncs)", core.Span(SlowDisk)),
				Action: core.Action{Do: core.VerbSlowDisk, Proc: name, For: core.Duration(SlowDisk)}})
		}
	}
	if lock := v.Lock.Name; allows(lessons.CtlRead) && lock != "" && !m.Crashed && !m.Paused {
		out = append(out,
			Choice{ID: "read", Label: "Read who holds the lock (serializable)", Action: core.Action{Do: core.VerbRead, Proc: name, Key: lock}},
			Choice{ID: "read-linearizable", Label: "Read who holds the lock (linearizable)", Action: core.Action{Do: core.VerbRead, Proc: name, Key: lock, On: true}})
	}
	return out
}

// narrateMember is the narration of a cluster event ("" for one of
// another kind, or too fine to tell).
func narrateMember(e *core.Event) string {
	switch e.Kind {
	case core.KindMember:
		switch st := e.State(); st {
		case "paused":
			return fmt.Sprintf("%s froze for %s: it neither votes nor answers", e.Actor, core.Seconds(e.For()))
		case "resumed":
			return e.Actor + " runs again"
		case "crashed", "restarted":
			return e.Actor + " " + st
		default:
			return e.Actor + " is " + st
		}
	case core.KindLeader:
		return fmt.Sprintf("%s leads now (term %d)", e.Actor, e.Term())
	case core.KindNoLeader:
		if strings.HasPrefix(e.Why(), "the leader cannot reach") {
			return fmt.Sprintf("no leader: %s cannot reach a majority of members and steps down; nothing expires until a new leader is elected", e.Actor)
		}
		return fmt.Sprintf("no leader: nothing expires (%s)", e.Why())
	case core.KindLeaseRearm:
		return fmt.Sprintf("the new leader gave %s's lease a whole TTL again: it now ends at %.1f s", e.Owner(), e.Expiry().Seconds())
	case core.KindRefused:
		if e.Who() == "learner" {
			return "" // the read's own answer says it
		}
		return fmt.Sprintf("%s gave up on %s's %s: %s", e.Actor, e.Who(), requestWords(e.Msg()), PlainWhy(e.Why()))
	case core.KindRead:
		return readWords(e)
	case core.KindClientMember:
		return fmt.Sprintf("%s now talks to %s", e.Actor, e.Member())
	case core.KindSetting:
		if e.Name() == "disk sync" {
			return fmt.Sprintf("%s's disk syncs take %s now", e.Actor, core.Span(e.Amount()))
		}
	}
	return ""
}

// readWords says a member's answer to a read of the lock's owner.
func readWords(e *core.Event) string {
	how := e.How()
	switch e.Result() {
	case "current":
		return fmt.Sprintf("%s answered a %s read: %s holds the lock (current, revision %d)", e.Actor, how, e.Owner(), e.Rev())
	case "stale":
		return fmt.Sprintf("%s answered a %s read: %s holds the lock (stale: that was so at revision %d, and the lock has changed hands since)", e.Actor, how, e.Owner(), e.Rev())
	}
	return fmt.Sprintf("%s could not answer your %s read: %s", e.Actor, how, PlainWhy(e.Result()))
}

// requestWords names a request by its message, in a learner's words.
func requestWords(msg string) string {
	switch msg {
	case "LeaseKeepAlive":
		return "keepalive"
	case "Acquire":
		return "lock request"
	case "LeaseGrant":
		return "lease request"
	case "CheckLock":
		return "lock check"
	case "LeaseRevoke":
		return "lease revoke"
	}
	return msg + " request"
}
