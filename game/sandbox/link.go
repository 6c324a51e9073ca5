package sandbox

import (
	"fmt"

	"leaselab/core/permalink"
	"leaselab/game/view"
)

// Link returns the permalink of the sandbox run on screen: the setup it
// was started from and the learner's log. A lesson's world carried into
// the sandbox has no setup of its own to share.
func (sc *Scene) Link() (permalink.RunLink, error) {
	if sc.Run == nil {
		return permalink.RunLink{}, fmt.Errorf("start the run first: a link shares a run")
	}
	if sc.runCfg == nil {
		return permalink.RunLink{}, fmt.Errorf("a lesson's world carried into the sandbox takes every control, which its lesson link cannot hold: share the run from the lesson, or build the world from a preset")
	}
	return permalink.SandboxLink(sc.m.Preset, *sc.runCfg, sc.Run.Lab.Log())
}

// OpenLink returns the sandbox a link shares: its setup, started, with the
// link's log replayed and the play head at its last action. onMenu and
// export are as for [New].
func OpenLink(l permalink.RunLink, onMenu func(), export Exporter) (*Scene, error) {
	preset, cfg, err := l.Sandbox()
	if err != nil {
		return nil, err
	}
	sb, err := New(preset, onMenu, export)
	if err != nil {
		return nil, err
	}
	sb.m.Config, sb.m.Changed, sb.m.Played, sb.m.Shared = cfg, len(l.Params) > 0, l.Log, true
	sb.check()
	if err := sb.Start(); err != nil {
		return nil, err
	}
	if len(l.Log) > 0 && sb.m.Played != nil {
		sb.Run.Lab.Seek(l.Log[len(l.Log)-1].At.D())
	}
	sb.Run.Player.Narrate("Opened a shared sandbox run: " + view.ActionsText(len(l.Log)) + " replayed.")
	return sb, nil
}
