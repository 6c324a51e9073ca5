package core

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// Action is one thing a learner (or a lesson's solution, or the explorer)
// does to the world. Actions are plain values; applied at a virtual time
// through an ActionLog, they make a run reproducible.
type Action struct {
	// Do names the action (see Verb): pause, resume, crash, restart,
	// partition, heal, write, release, expire, set-ttl, fencing,
	// idempotency, delete, put, delay, clock-jump.
	Do Verb `json:"do"`
	// Proc is the process or worker acted on (or the first end of a link).
	Proc string `json:"proc,omitempty"`
	// Peer is the other end of a link (partition, heal), or the one
	// destination a delay holds (none: every destination).
	Peer string `json:"peer,omitempty"`
	// For is a pause's or a delay's length.
	For Duration `json:"for,omitempty"`
	// TTL is the new TTL for set-ttl.
	TTL Duration `json:"ttl,omitempty"`
	// Value is a write's value or a key's value; Key a coordinator key.
	Value string `json:"value,omitempty"`
	Key   string `json:"key,omitempty"`
	// Label marks a write for display ("late").
	Label string `json:"label,omitempty"`
	// Token overrides the token a write carries (0: the process's own).
	Token int64 `json:"token,omitempty"`
	// On switches fencing or idempotency; OneWay makes a partition one-way.
	On     bool `json:"on,omitempty"`
	OneWay bool `json:"one_way,omitempty"`
}

// Verb is what an action does. It reads and writes JSON (and permalinks)
// as its plain name, so logs from before it was typed still load.
type Verb string

// The verbs, in permalink order (see ActionKinds).
const (
	VerbPause       Verb = "pause"
	VerbResume      Verb = "resume"
	VerbCrash       Verb = "crash"
	VerbRestart     Verb = "restart"
	VerbPartition   Verb = "partition"
	VerbHeal        Verb = "heal"
	VerbWrite       Verb = "write"
	VerbRelease     Verb = "release"
	VerbExpire      Verb = "expire"
	VerbSetTTL      Verb = "set-ttl"
	VerbFencing     Verb = "fencing"
	VerbIdempotency Verb = "idempotency"
	VerbDelete      Verb = "delete"
	VerbPut         Verb = "put"
	VerbDelay       Verb = "delay"
	// VerbClockJump moves a Redis node's wall clock For ahead (Redlock).
	VerbClockJump Verb = "clock-jump"
	// VerbSlowDisk makes a coordinator member's disk sync take For.
	VerbSlowDisk Verb = "slow-disk"
	// VerbRead reads the owner of the lock Key from the member Proc:
	// linearizable if On, serializable (its own state, at once) if not.
	VerbRead Verb = "read"
	// VerbFix deploys a fix named by Value to an etcd process's client
	// (see etcd_fix.go): a new session when the old one ends, re-listing
	// the contenders after a reconnect, jittered retries, renewals on a
	// task of their own.
	VerbFix Verb = "fix"
)

// Constructors for the actions front ends and tests build most.

// Pause stops proc for d (stop-the-world).
func Pause(proc string, d time.Duration) Action {
	return Action{Do: VerbPause, Proc: proc, For: Duration(d)}
}

// Resume wakes a paused proc.
func Resume(proc string) Action { return Action{Do: VerbResume, Proc: proc} }

// Crash stops proc until a Restart.
func Crash(proc string) Action { return Action{Do: VerbCrash, Proc: proc} }

// Restart brings a crashed proc back with nothing in memory.
func Restart(proc string) Action { return Action{Do: VerbRestart, Proc: proc} }

// Partition cuts the link between proc and peer, both ways.
func Partition(proc, peer string) Action { return Action{Do: VerbPartition, Proc: proc, Peer: peer} }

// Heal restores the link between proc and peer.
func Heal(proc, peer string) Action { return Action{Do: VerbHeal, Proc: proc, Peer: peer} }

// Write makes proc write value now with its own token.
func Write(proc, value string) Action { return Action{Do: VerbWrite, Proc: proc, Value: value} }

// Release makes proc give its lock up cleanly: its session is revoked,
// which deletes its key without arming any lock-delay.
func Release(proc string) Action { return Action{Do: VerbRelease, Proc: proc} }

// Expire ends proc's lease now, at the coordinator.
func Expire(proc string) Action { return Action{Do: VerbExpire, Proc: proc} }

// SetTTL gives proc's next session the TTL ttl.
func SetTTL(proc string, ttl time.Duration) Action {
	return Action{Do: VerbSetTTL, Proc: proc, TTL: Duration(ttl)}
}

// Fencing switches the store's token check.
func Fencing(on bool) Action { return Action{Do: VerbFencing, On: on} }

// Idempotency switches the job queue's idempotency-key check.
func Idempotency(on bool) Action { return Action{Do: VerbIdempotency, On: on} }

// Delay holds what proc sends for d.
func Delay(proc string, d time.Duration) Action {
	return Action{Do: VerbDelay, Proc: proc, For: Duration(d)}
}

// Timed is an action applied at a virtual time.
type Timed struct {
	At Duration `json:"at"`
	Action
}

// ActionLog is an ordered list of timed actions.
type ActionLog []Timed

// Duration is a time.Duration that reads and writes JSON as "1.5s".
type Duration time.Duration

// MarshalJSON writes the duration as a Go duration string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads "1.5s" or a number of milliseconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("bad duration %q: %w", s, err)
		}
		*d = Duration(v)
		return nil
	}
	var ms int64
	if err := json.Unmarshal(b, &ms); err != nil {
		return fmt.Errorf("bad duration %s: want a string like \"1.5s\" or milliseconds", b)
	}
	v, err := MulDuration(time.Millisecond, ms)
	if err != nil {
		return fmt.Errorf("bad duration %d ms: %w", ms, err)
	}
	*d = Duration(v)
	return nil
}

// At is a convenience constructor for a timed action.
func At(t time.Duration, a Action) Timed { return Timed{At: Duration(t), Action: a} }

// Sorted returns the log ordered by time; actions at the same time keep
// their order.
func (l ActionLog) Sorted() ActionLog {
	out := append(ActionLog(nil), l...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].At < out[j].At })
	return out
}

// Before returns the actions strictly before t (scrubbing and forking cut
// the log there and re-simulate).
func (l ActionLog) Before(t time.Duration) ActionLog {
	var out ActionLog
	for _, a := range l {
		if time.Duration(a.At) < t {
			out = append(out, a)
		}
	}
	return out
}

// String renders the action in a readable form: "pause A for 30s".
func (a Action) String() string {
	switch a.Do {
	case "pause":
		return fmt.Sprintf("pause %s for %s", a.Proc, time.Duration(a.For))
	case "partition":
		if a.OneWay {
			return fmt.Sprintf("cut %s -> %s", a.Proc, a.Peer)
		}
		return fmt.Sprintf("cut %s <-> %s", a.Proc, a.Peer)
	case "heal":
		return fmt.Sprintf("heal %s <-> %s", a.Proc, a.Peer)
	case "write":
		s := fmt.Sprintf("%s writes %q", a.Proc, a.Value)
		if a.Token != 0 {
			s += fmt.Sprintf(" with token %d", a.Token)
		}
		return s
	case "set-ttl":
		return fmt.Sprintf("set TTL of %s to %s", a.Proc, time.Duration(a.TTL))
	case "fencing", "idempotency":
		return fmt.Sprintf("%s %s", a.Do, map[bool]string{true: "on", false: "off"}[a.On])
	case "delete":
		return fmt.Sprintf("%s deletes %s", a.Proc, a.Key)
	case "put":
		return fmt.Sprintf("%s puts %s=%s", a.Proc, a.Key, a.Value)
	case "expire":
		return "expire the lease of " + a.Proc + " now"
	case "clock-jump":
		return fmt.Sprintf("%s's clock jumps %s ahead", a.Proc, time.Duration(a.For))
	case VerbSlowDisk:
		return fmt.Sprintf("%s's disk syncs take %s", a.Proc, time.Duration(a.For))
	case VerbRead:
		how := "serializable"
		if a.On {
			how = "linearizable"
		}
		return fmt.Sprintf("read who holds %s from %s (%s)", a.Key, a.Proc, how)
	case "fix":
		return fmt.Sprintf("fix %s: %s", a.Proc, FixName(a.Value).Label())
	case "delay":
		if a.Peer != "" {
			return fmt.Sprintf("delay what %s sends to %s for %s", a.Proc, a.Peer, time.Duration(a.For))
		}
		return fmt.Sprintf("delay what %s sends for %s", a.Proc, time.Duration(a.For))
	}
	return string(a.Do) + " " + a.Proc
}

// ActionKinds lists every verb, for validation and help text. Permalinks
// store an action as its index here: only append.
var ActionKinds = []Verb{VerbPause, VerbResume, VerbCrash, VerbRestart, VerbPartition, VerbHeal, VerbWrite, VerbRelease,
	VerbExpire, VerbSetTTL, VerbFencing, VerbIdempotency, VerbDelete, VerbPut, VerbDelay, VerbClockJump, VerbSlowDisk, VerbRead, VerbFix}

// Known reports whether v is one of ActionKinds.
func (v Verb) Known() bool { return slices.Contains(ActionKinds, v) }

// verbNames is ActionKinds as one readable list.
func verbNames() string {
	names := make([]string, len(ActionKinds))
	for i, v := range ActionKinds {
		names[i] = string(v)
	}
	return strings.Join(names, ", ")
}

// Validate checks an action without applying it.
func (a Action) Validate() error {
	switch {
	case !a.Do.Known():
		return fmt.Errorf("unknown action %q (want one of %s)", a.Do, verbNames())
	case (a.Do == "pause" || a.Do == "delay" || a.Do == "clock-jump" || a.Do == VerbSlowDisk) && a.For <= 0:
		return fmt.Errorf("%s %s: length must be positive, got %s", a.Do, a.Proc, time.Duration(a.For))
	case a.Do == "set-ttl" && a.TTL < Duration(MinPeriod):
		return fmt.Errorf("set-ttl %s: TTL must be at least %s, got %s", a.Proc, MinPeriod, time.Duration(a.TTL))
	case (a.Do == "partition" || a.Do == "heal") && (a.Proc == "" || a.Peer == ""):
		return fmt.Errorf("%s needs both ends of the link (proc and peer)", a.Do)
	case a.Token < 0:
		return fmt.Errorf("write token must not be negative, got %d", a.Token)
	case a.Do == VerbRead && (a.Proc == "" || a.Key == ""):
		return fmt.Errorf("read needs a member (proc) and a lock (key)")
	case a.Do == VerbSlowDisk && a.For > Duration(time.Minute):
		return fmt.Errorf("slow-disk %s: a disk sync of at most 1m0s, got %s", a.Proc, time.Duration(a.For))
	case a.Do == VerbFix && !FixName(a.Value).Known():
		return fmt.Errorf("fix %s: unknown fix %q (want one of %s)", a.Proc, a.Value, fixNames())
	}
	return nil
}

// Schedule queues every action of the log at its time. Actions at the same
// instant apply in log order, after every other event due then.
func (s *Sim) Schedule(log ActionLog) {
	for _, t := range log.Sorted() {
		s.ScheduleAction(time.Duration(t.At), t.Action)
	}
}

// ScheduleAction queues one action at t (not before now). A front end
// applying a learner's click does ScheduleAction(Now(), a) then
// RunUntil(Now()): the same order a replay of the log produces.
func (s *Sim) ScheduleAction(t time.Duration, a Action) {
	s.atLate(t, task{kind: evAction, act: &a})
}

// Apply performs an action now. A bad action is traced and returned as an
// error; it never panics and never changes the world.
func (s *Sim) Apply(a Action) error {
	// A learner's action (or the script's) is a root: nothing in the world
	// caused it. Its direct effects (a pause, a cut) are recorded just
	// before it and are roots too (Trace.Root names the action); what they
	// set going later is caused by them.
	s.Trace.cause, s.Trace.also, s.Trace.caused = 0, 0, false
	var later []int32
	s.applying, s.Trace.inAction = &later, true
	err := s.apply(a)
	s.applying, s.Trace.inAction = nil, false
	s.Trace.cause = 0
	if err != nil {
		s.actionErr = append(s.actionErr, err)
		s.Trace.add(s.now, "learner", KindActionError, S(FDo, string(a.Do)), S(FWhy, err.Error()))
		return err
	}
	s.Trace.add(s.now, "learner", KindAction, S(FDo, string(a.Do)), S(FText, a.String()))
	// What the action set going before it recorded anything (a put, a
	// release) is caused by the action.
	for _, slot := range later {
		s.tasks[slot].cause = s.Trace.cause
	}
	return nil
}

func (s *Sim) apply(a Action) error {
	if err := a.Validate(); err != nil {
		return err
	}
	if i := s.Coord.memberIndex(a.Proc); i >= 0 {
		return s.Coord.memberAct(i, a)
	}
	if s.Coord.memberIndex(a.Peer) >= 0 {
		return fmt.Errorf("%s: a member is cut off from its clients as a whole: %s %s %s", a.Do, a.Do, a.Peer, ClientsOf)
	}
	if a.Do == VerbSlowDisk || a.Do == VerbRead {
		return fmt.Errorf("%s: %q is not a member of the coordinator (this world's coordinator has %d)", a.Do, a.Proc, len(s.Coord.Members()))
	}
	if r := s.RedisNode(a.Proc); r != nil && (a.Do == "crash" || a.Do == "restart" || a.Do == "clock-jump") {
		return r.act(a)
	} else if a.Do == "clock-jump" {
		return fmt.Errorf("clock-jump: %q is not a Redis node (only Redlock's servers keep expiry by their wall clock)", a.Proc)
	}
	switch a.Do {
	case "partition", "heal", "delay", "fencing", "idempotency":
		return s.applyToWorld(a)
	}
	p := s.Process(a.Proc)
	var w *ShardWorker
	for _, x := range s.workers {
		if p == nil && x.cfg.Name == a.Proc {
			w = x
		}
	}
	if p == nil && w == nil {
		return fmt.Errorf("%s: no process or worker named %q", a.Do, a.Proc)
	}
	return s.applyToNode(a, p, w)
}

// applyToWorld applies an action on links and resources.
func (s *Sim) applyToWorld(a Action) error {
	switch a.Do {
	case "partition", "heal":
		if s.actors[a.Proc] == nil || s.actors[a.Peer] == nil {
			return fmt.Errorf("%s: unknown actor %q or %q", a.Do, a.Proc, a.Peer)
		}
		if a.Do == "partition" {
			s.Net.Partition(a.Proc, a.Peer, a.OneWay)
		} else {
			s.Net.Heal(a.Proc, a.Peer)
		}
	case "delay":
		if s.actors[a.Proc] == nil || a.Peer != "" && s.actors[a.Peer] == nil {
			return fmt.Errorf("delay: unknown actor %q or %q", a.Proc, a.Peer)
		}
		s.Net.Hold(a.Proc, a.Peer, time.Duration(a.For))
	case "fencing":
		if s.Register == nil && s.Offsets == nil {
			return fmt.Errorf("fencing: this world has no fenced resource")
		}
		if s.Register != nil {
			s.Register.Fencing = a.On
		}
		if s.Offsets != nil {
			s.Offsets.Fencing = a.On
		}
		s.Trace.add(s.now, "learner", KindSetting, S(FName, "fencing"), S(FValue, onOff(a.On)))
	case "idempotency":
		if s.Queue == nil {
			return fmt.Errorf("idempotency: this world has no job queue")
		}
		s.Queue.Idempotency = a.On
		s.Trace.add(s.now, "learner", KindSetting, S(FName, "idempotency"), S(FValue, onOff(a.On)))
	}
	return nil
}

// applyToNode applies an action on process p or shard worker w (one of
// them is set).
func (s *Sim) applyToNode(a Action, p *Process, w *ShardWorker) error {
	var n *node
	if p != nil {
		n = &p.node
	} else {
		n = &w.node
	}
	switch a.Do {
	case "pause":
		if n.crashed {
			return fmt.Errorf("pause: %s is crashed", a.Proc)
		}
		n.pause(time.Duration(a.For))
	case "resume":
		n.resume()
	case "crash":
		if p != nil {
			p.crash()
		} else {
			w.crash()
		}
	case "restart":
		if p != nil {
			p.restart()
		} else {
			w.restart()
		}
	case "write", "release", "fix":
		return s.applyToProcess(a, p)
	case "expire":
		var id LeaseID
		if p != nil {
			id = p.lease
		} else {
			id = w.session
		}
		if id == 0 || s.Coord.leases[id] == nil {
			return fmt.Errorf("expire: %s holds no live lease", a.Proc)
		}
		s.Coord.Revoke(id, true, "expired by the learner")
	case "set-ttl":
		return s.setTTL(a, p, w)
	case "delete":
		n.run(&task{fn: fnDelete, act: &a})
	case "put":
		n.run(&task{fn: fnPut, act: &a})
	}
	return nil
}

// applyToProcess applies what only a lock-contending process does.
func (s *Sim) applyToProcess(a Action, p *Process) error {
	if p == nil {
		return fmt.Errorf("%s: %q is not a lock-holding process", a.Do, a.Proc)
	}
	switch a.Do {
	case "write":
		// The application decides to write on its own thread: if the
		// process is paused, the decision waits for the resume.
		p.run(&task{fn: fnWrite, act: &a})
	case "release":
		p.run(&task{fn: fnRelease})
	case "fix":
		if !p.takesFixes() {
			return fmt.Errorf("fix: %q is not an etcd client process", a.Proc)
		}
		p.applyFix(FixName(a.Value))
	}
	return nil
}

// setTTL gives p's (or w's) next session the TTL: a lease keeps the TTL it
// was granted with, so the new TTL (and its TTL/3 renew period) applies
// from the next session.
func (s *Sim) setTTL(a Action, p *Process, w *ShardWorker) error {
	if p != nil {
		if p.cfg.Recipe == RecipeEtcd {
			if err := CheckEtcdTTL(a.TTL.D()); err != nil {
				return fmt.Errorf("set-ttl %s: %w", a.Proc, err)
			}
		}
		// etcd's KeepAlive client (renew 0) keeps its TTL/3 cadence; a
		// client with its own timer renews every TTL/3 of the new TTL.
		p.cfg.TTL = time.Duration(a.TTL)
		if p.cfg.RenewEvery > 0 {
			p.cfg.RenewEvery = time.Duration(a.TTL) / 3
		}
	} else {
		w.cfg.TTL, w.cfg.RenewEvery = time.Duration(a.TTL), time.Duration(a.TTL)/3
	}
	s.Trace.add(s.now, a.Proc, KindSetting, S(FName, "ttl"), D(FMs, time.Duration(a.TTL)))
	return nil
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
