// Package setup is the sandbox's setup panel as a model, free of
// Ebitengine: the configuration being built, the preset it started from,
// one field per parameter (a slider or a choice, with its validation
// message), the run's title and introduction. The sandbox scene lays the
// fields out, draws them and feeds them input.
package setup

import (
	"fmt"
	"strings"
	"time"

	"leaselab/core"
	"leaselab/core/sandbox"
	"leaselab/game/lab"
)

// Setup is the configuration the panel shows and the fields that edit it.
type Setup struct {
	Config  sandbox.Config
	Preset  string // the preset the setup started from
	Changed bool   // a field was changed since
	Fields  []*Field
	Errs    []sandbox.FieldError // the configuration's problems, by field
	// Played is the learner's actions in the last run, replayed by Run
	// (a new preset drops them).
	Played core.ActionLog
	// Shared: the setup and Played came from a shared link, not from this
	// learner's last run.
	Shared bool

	slowDelay time.Duration // the delay a newly slowed link gets
}

// New returns the default setup, checked.
func New() *Setup {
	s := &Setup{slowDelay: time.Second, Config: sandbox.Default()}
	s.Fields = fields(&s.slowDelay)
	s.Check()
	return s
}

// UsePreset loads a preset.
func (s *Setup) UsePreset(name string) error {
	p, err := sandbox.FindPreset(name)
	if err != nil {
		return err
	}
	s.Config, s.Preset, s.Changed, s.Played, s.Shared = p.Open(), p.Name, false, nil, false
	s.Config.Names = append([]string(nil), p.Config.Names...)
	s.Config.Links = append([]sandbox.LinkConfig(nil), p.Config.Links...)
	s.Check()
	return nil
}

// Set gives field f the value v, marking the setup changed when it
// changes the configuration.
func (s *Setup) Set(f *Field, v float64) {
	before := f.Get(&s.Config)
	f.Set(&s.Config, v)
	if f.Get(&s.Config) != before {
		s.Changed = true
	}
}

// Next steps choice field f to its next choice.
func (s *Setup) Next(f *Field) {
	s.Set(f, float64((int(f.Get(&s.Config))+1)%len(f.Choices(&s.Config))))
}

// Check validates the configuration and hands each field its messages.
func (s *Setup) Check() {
	s.Errs = s.Config.Validate()
	byID := map[string][]string{}
	for _, e := range s.Errs {
		id := e.Field
		if id == sandbox.FieldFirstToken {
			id = sandbox.FieldTokenSource
		}
		byID[id] = append(byID[id], e.Msg)
	}
	for _, f := range s.Fields {
		f.Err = ""
		if f.ShowErr {
			f.Err = strings.Join(byID[f.ID], "; ")
		}
		if f.Choices == nil && !f.Slider.Dragging() {
			f.Slider.SetValue(f.Get(&s.Config))
		}
		na := !f.Applies(&s.Config)
		f.Slider.Disabled, f.Button.Disabled = na, na
		f.Button.Label = f.Value(&s.Config)
	}
}

// Hidden reports whether field i gives its cell up to the field it shares
// it with (SharesCell): of the two, the one that applies is shown, and
// the first when neither does.
func (s *Setup) Hidden(i int) bool {
	f := s.Fields[i]
	if f.SharesCell && i > 0 {
		return !f.Applies(&s.Config)
	}
	return i+1 < len(s.Fields) && s.Fields[i+1].SharesCell && s.Fields[i+1].Applies(&s.Config)
}

// Title is the run's title: the preset's, marked when changed.
func (s *Setup) Title() string {
	p, err := sandbox.FindPreset(s.Preset)
	switch {
	case err != nil:
		return "Sandbox: your setup"
	case s.Changed:
		return "Sandbox: " + p.Name + ", changed"
	}
	return "Sandbox: " + p.Name
}

// Intro is the run's text: where the numbers come from and what to do.
func (s *Setup) Intro() []string {
	var out []string
	if p, err := sandbox.FindPreset(s.Preset); err == nil {
		line := "Preset " + p.Name + ": " + p.Source + "."
		if s.Changed {
			line += " You changed some of its parameters."
		}
		out = append(out, line)
	}
	if n := len(s.Played); n > 0 {
		what := fmt.Sprintf("The %d actions you took in the last run are", n)
		if n == 1 {
			what = "The action you took in the last run is"
		}
		if s.Shared {
			what = fmt.Sprintf("This run came from a shared link: its %d actions are", n)
			if n == 1 {
				what = "This run came from a shared link: its one action is"
			}
		}
		out = append(out, what+" replayed on "+s.Config.System.Title()+".")
	}
	pol := s.Config.PolicyVerdict()
	return append(out,
		Summary(s.Config),
		core.Capitalise(pol.Explanation)+".",
		"Click a process (or press 1-9) to pause it for 20 s, crash it, cut its link, hold what it sends or expire its lease; T switches fencing. "+
			"The invariants below say which hold at the play head and when each first broke. "+
			"Export the run as a JSON Lines trace or a Mermaid sequence diagram with the buttons at the bottom.")
}

// Summary describes a configuration in one paragraph.
func Summary(c sandbox.Config) string {
	var b strings.Builder
	if c.Shards > 0 {
		fmt.Fprintf(&b, "%d shards over %d workers, one lease per shard", c.Shards, c.Workers)
	} else {
		// etcd's recipe and token are the learner's to choose; every other
		// system has its own, said in its words.
		recipe, tokens := c.Recipe.String()+" recipe", c.TokenSource.String()+" tokens"
		if w := c.System.Words(); c.System.OwnSetting(core.SettingRecipe) != "" {
			recipe, tokens = w.Recipe, w.Token+" as the token"
			if w.Token == "" {
				tokens = "no fencing token"
			}
		}
		fmt.Fprintf(&b, "%s: %d processes (%s) on one lock, %s, %s, %s workload",
			c.System.Title(), c.Procs, strings.Join(c.ProcNames(), ", "), recipe, tokens, c.Workload)
	}
	pol := c.Policy()
	ttl := pol.TTL.String()
	if pol.SessionTTL > 0 && pol.SessionTTL != pol.TTL {
		// Consul's: the TTL set, and the server's 2 x TTL the lease lasts.
		ttl = fmt.Sprintf("%s (a session expires after %s)", pol.SessionTTL, pol.TTL)
	}
	fmt.Fprintf(&b, "; TTL %s, renew every %s; pauses: %s", ttl, pol.RenewEvery, c.Pauses.Kind)
	if pausing(&c) {
		fmt.Fprintf(&b, " about every %s, up to %s", c.Pauses.Every, c.Pauses.Budget())
	}
	fmt.Fprintf(&b, "; links %s (+%g jitter)", c.Delay, c.Jitter)
	for _, l := range c.Links {
		fmt.Fprintf(&b, ", %s - %s %s", l.A, l.B, l.Delay)
	}
	lockDelay := "off"
	if c.LockDelay > 0 {
		lockDelay = c.LockDelay.String()
	}
	fmt.Fprintf(&b, "; lock-delay %s; fencing %s; idempotency %s; seed %d; %g minutes of time.", lockDelay, lab.OnOff(c.Fencing), lab.OnOff(c.Idempotency), c.Seed, c.Duration.Minutes())
	return b.String()
}
