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

// Actor is one process or worker the learner can select in the world: an
// index into WorldView.Procs or WorldView.Workers (the other is -1); or,
// with Node set (both -1), one of a Redlock world's Redis nodes; or, with
// Member set (both -1), one of the coordinator's cluster members.
type Actor struct {
	Name   string
	Proc   int
	Worker int
	Node   string
	Member string
}

// ClockJump is how far a Redis node's clock jumps ahead at the learner's
// word: past any Redlock expiry the lab's worlds use, so every key the
// node holds ends at once.
const ClockJump = 30 * time.Second

// Index is the actor's position among its kind (process or worker).
func (a Actor) Index() int { return max(a.Proc, a.Worker) }

// Choice is one entry of an actor's action menu: the action it performs,
// or, with NextToken, the menu's own "pick another token" step.
type Choice struct {
	ID     string // region name suffix: action:<ID>
	Label  string
	Action core.Action
	Key    ui.Intent // its shortcut; 0 for none
	// NextToken picks the next token for "write with token" and keeps the
	// menu open, instead of acting.
	NextToken bool
}

// TTLChoices are the TTLs the set-ttl menu offers: the troubleshooting fix
// (16 s covers 2 x 5.5 s renewals, etcd's cadence at that TTL, + a 5 s
// stall) and the leases fix (30 s covers 2 x 10 s + a 9 s pause).
var TTLChoices = []time.Duration{16 * time.Second, 30 * time.Second}

// actorState is what the menu needs to know about an actor.
type actorState struct {
	name                 string
	paused, crashed, cut bool
	lease                bool // the coordinator holds a live lease for it
	worker               bool
}

func stateOf(v WorldView, a Actor) actorState {
	if a.Proc >= 0 {
		p := v.Procs[a.Proc]
		return actorState{name: p.Name, paused: p.Paused, crashed: p.Crashed, cut: p.Cut, lease: p.TruthLeft > 0}
	}
	wk := v.Workers[a.Worker]
	return actorState{name: wk.Name, paused: wk.Paused, crashed: wk.Crashed, cut: wk.Cut, lease: !wk.Crashed, worker: true}
}

// ChoicesFor lists what the learner may do to actor a in world v of lesson
// l now: the lesson's controls decide which verbs, the actor's state which
// of each pair (pause or resume), and token is what "write with token"
// sends.
func ChoicesFor(l *lessons.Lesson, v WorldView, a Actor, token int64) []Choice {
	switch {
	case a.Node != "":
		return nodeChoices(l, v, a)
	case a.Member != "":
		return memberChoices(l, v, a)
	}
	c := choosing{l: l, v: v, a: a, st: stateOf(v, a), pauseFor: v.PauseFor, token: token}
	if c.pauseFor <= 0 {
		c.pauseFor = l.PauseFor
	}
	var out []Choice
	for _, k := range processChoices {
		if slices.Contains(l.Controls, k.ctl) {
			out = k.add(&c, out)
		}
	}
	return out
}

// choosing is what a process's choices are made from: the lesson, the
// world, the actor and its state, the pause's length and the token a
// write with a chosen token carries.
type choosing struct {
	l        *lessons.Lesson
	v        WorldView
	a        Actor
	st       actorState
	pauseFor time.Duration
	token    int64
}

// processChoices are a process's choices by the control that allows them,
// in the order its menu lists them.
var processChoices = []struct {
	ctl lessons.Control
	add func(c *choosing, out []Choice) []Choice
}{
	{lessons.CtlPause, (*choosing).pause},
	{lessons.CtlCrash, (*choosing).crash},
	{lessons.CtlPartition, (*choosing).partition},
	{lessons.CtlDelay, (*choosing).delay},
	{lessons.CtlExpire, (*choosing).expire},
	{lessons.CtlWrite, (*choosing).write},
	{lessons.CtlSetTTL, (*choosing).setTTL},
	{lessons.CtlFix, (*choosing).fix},
	{lessons.CtlDelete, (*choosing).delete},
	{lessons.CtlPut, (*choosing).put},
}

func (c *choosing) pause(out []Choice) []Choice {
	st := c.st
	switch {
	case st.crashed:
		return out
	case st.paused:
		return append(out, Choice{ID: "resume", Label: ui.WithKey("Resume", ui.IntentPauseProc), Action: core.Resume(st.name), Key: ui.IntentPauseProc})
	}
	return append(out, Choice{ID: "pause", Label: ui.WithKey("Pause "+core.Seconds(c.pauseFor), ui.IntentPauseProc), Action: core.Pause(st.name, c.pauseFor), Key: ui.IntentPauseProc})
}

func (c *choosing) crash(out []Choice) []Choice {
	if c.st.crashed {
		return append(out, Choice{ID: "restart", Label: ui.WithKey("Restart", ui.IntentCrashProc), Action: core.Restart(c.st.name), Key: ui.IntentCrashProc})
	}
	return append(out, Choice{ID: "crash", Label: ui.WithKey("Crash", ui.IntentCrashProc), Action: core.Crash(c.st.name), Key: ui.IntentCrashProc})
}

func (c *choosing) partition(out []Choice) []Choice {
	st, v := c.st, c.v
	if len(v.Redis) > 0 && c.a.Proc >= 0 {
		// A Redlock client has no coordinator link to cut: it talks to
		// every Redis node, so each link is its own choice.
		cut := v.Procs[c.a.Proc].CutFrom
		for i, r := range v.Redis {
			ch := Choice{ID: "partition:" + r.Name, Label: "Cut link to " + r.Name, Action: core.Partition(st.name, r.Name)}
			if slices.Contains(cut, r.Name) {
				ch = Choice{ID: "heal:" + r.Name, Label: "Heal link to " + r.Name, Action: core.Heal(st.name, r.Name)}
			}
			if i == 0 {
				ch.Label, ch.Key = ui.WithKey(ch.Label, ui.IntentCutLink), ui.IntentCutLink
			}
			out = append(out, ch)
		}
		return out
	}
	if st.cut {
		return append(out, Choice{ID: "heal", Label: ui.WithKey("Heal link", ui.IntentCutLink), Action: core.Heal(st.name, core.CoordinatorName), Key: ui.IntentCutLink})
	}
	return append(out, Choice{ID: "partition", Label: ui.WithKey("Cut link to coordinator", ui.IntentCutLink), Action: core.Partition(st.name, core.CoordinatorName), Key: ui.IntentCutLink})
}

func (c *choosing) delay(out []Choice) []Choice {
	if c.st.crashed {
		return out
	}
	return append(out, Choice{ID: "delay", Label: fmt.Sprintf("Hold what it sends %s", core.Seconds(c.pauseFor)), Action: core.Delay(c.st.name, c.pauseFor)})
}

func (c *choosing) expire(out []Choice) []Choice {
	if !c.st.lease {
		return out
	}
	return append(out, Choice{ID: "expire", Label: ui.WithKey("Expire lease now", ui.IntentExpire), Action: core.Expire(c.st.name), Key: ui.IntentExpire})
}

func (c *choosing) write(out []Choice) []Choice {
	st, token := c.st, c.token
	if st.crashed || st.worker {
		return out
	}
	value, label := "from "+st.name+" again", ""
	if st.paused {
		value, label = "late "+st.name, "late"
	}
	return append(out,
		Choice{ID: "write", Label: ui.WithKey("Write now, own token", ui.IntentWrite), Action: core.Action{Do: core.VerbWrite, Proc: st.name, Value: value, Label: label}, Key: ui.IntentWrite},
		Choice{ID: "write-token", Label: ui.WithKey(fmt.Sprintf("Write with token %d", token), ui.IntentWriteTok), Action: core.Action{Do: core.VerbWrite, Proc: st.name, Value: value, Label: label, Token: token}, Key: ui.IntentWriteTok},
		Choice{ID: "token-next", Label: fmt.Sprintf("Pick another token (now %d)", token), NextToken: true})
}

func (c *choosing) setTTL(out []Choice) []Choice {
	if c.st.crashed {
		return out
	}
	for i, ttl := range TTLChoices {
		ch := Choice{ID: "set-ttl:" + core.Seconds(ttl), Label: fmt.Sprintf("Set TTL %s, next session", core.Seconds(ttl)), Action: core.SetTTL(c.st.name, ttl)}
		if i == 0 {
			ch.Label, ch.Key = ui.WithKey(ch.Label, ui.IntentSetTTL), ui.IntentSetTTL
		}
		out = append(out, ch)
	}
	return out
}

func (c *choosing) fix(out []Choice) []Choice {
	if c.a.Proc < 0 || c.st.crashed {
		return out
	}
	for _, f := range core.Fixes {
		if !slices.Contains(c.v.Procs[c.a.Proc].Deployed, f) {
			out = append(out, Choice{ID: "fix:" + string(f), Label: "Fix: " + f.Label(), Action: core.Fix(c.st.name, f)})
		}
	}
	return out
}

func (c *choosing) delete(out []Choice) []Choice {
	if c.st.crashed {
		return out
	}
	for i, key := range Deletable(c.v, c.st.name) {
		ch := Choice{ID: fmt.Sprintf("delete:%d", i), Label: "Delete " + key, Action: core.Action{Do: core.VerbDelete, Proc: c.st.name, Key: key}}
		if i == 0 {
			ch.ID, ch.Label, ch.Key = "delete", ui.WithKey(ch.Label, ui.IntentDelete), ui.IntentDelete
		}
		out = append(out, ch)
	}
	return out
}

func (c *choosing) put(out []Choice) []Choice {
	if c.st.crashed {
		return out
	}
	if key := StatusKey(c.v); key != "" {
		value := fmt.Sprintf("%s on host-%d, running since %s", c.st.name, c.a.Index()+1, core.FormatTime(c.v.Now))
		out = append(out, Choice{ID: "put", Label: ui.WithKey("Put "+key, ui.IntentPut), Action: core.Action{Do: core.VerbPut, Proc: c.st.name, Key: key, Value: value}, Key: ui.IntentPut})
	}
	return out
}

// NextToken is the token after t that "pick another token" moves to: 1 to
// 9, round.
func NextToken(t int64) int64 { return t%9 + 1 }

// Deletable lists coordinator keys someone other than name holds that
// name might try to delete: other locks' holder keys, then the first shard
// key held by another worker.
func Deletable(v WorldView, name string) []string {
	var out []string
	for _, g := range v.Groups {
		if g.Lock.Key != "" && g.Lock.Holder != name {
			out = append(out, g.Lock.Key)
		}
	}
	for i, owner := range v.Shards {
		if owner >= 0 && v.Workers[owner].Name != name {
			out = append(out, fmt.Sprintf("stream/shard-%03d", i))
			break
		}
	}
	return out
}

// StatusKey is where a lock's owner publishes its status: next to the
// first lock ("migrations/leader" -> "migrations/status").
func StatusKey(v WorldView) string {
	if len(v.Groups) == 0 {
		return ""
	}
	lock := v.Groups[0].Lock.Name
	i := strings.LastIndex(lock, "/")
	if i < 0 {
		return ""
	}
	return lock[:i] + "/status"
}

// nodeChoices is a Redis node's menu: crash or restart it, and (in the
// sandbox) jump its wall clock ahead, which ends its keys early: the two
// faults Redlock cannot see coming.
func nodeChoices(l *lessons.Lesson, v WorldView, a Actor) []Choice {
	allows := func(c lessons.Control) bool { return slices.Contains(l.Controls, c) }
	i := slices.IndexFunc(v.Redis, func(r RedisView) bool { return r.Name == a.Node })
	if i < 0 {
		return nil
	}
	var out []Choice
	down := v.Redis[i].Down
	if allows(lessons.CtlCrash) {
		if down {
			out = append(out, Choice{ID: "restart", Label: ui.WithKey("Restart, with no keys", ui.IntentCrashProc), Action: core.Restart(a.Node), Key: ui.IntentCrashProc})
		} else {
			out = append(out, Choice{ID: "crash", Label: ui.WithKey("Crash", ui.IntentCrashProc), Action: core.Crash(a.Node), Key: ui.IntentCrashProc})
		}
	}
	if allows(lessons.CtlClockJump) && !down {
		out = append(out, Choice{ID: "clock-jump", Label: "Clock jumps " + core.Seconds(ClockJump) + " ahead",
			Action: core.Action{Do: core.VerbClockJump, Proc: a.Node, For: core.Duration(ClockJump)}})
	}
	return out
}

// DescribeNode says in a few words what a Redis node holds now.
func DescribeNode(r RedisView) string {
	switch {
	case r.Down:
		return "down"
	case r.Owner == "":
		return "holds no key for the lock"
	}
	return fmt.Sprintf("holds %s's key, %s of PX left", r.Owner, core.Seconds(r.Left))
}
