package setup

import (
	"fmt"

	"leaselab/game/lab"
)

// Run builds the run the setup describes, with the learner's actions
// from the last run (Played) replayed on it: back from a run, a switch of
// system or of any field plays the same scenario and the same clicks
// again. Actions the new world cannot take (past the end of a
// shorter run) are refused with the reason, and the run starts without them.
func (s *Setup) Run() (lb *lab.Lab, dropped error, err error) {
	if len(s.Errs) > 0 {
		return nil, nil, fmt.Errorf("cannot start: %s", s.Errs[0])
	}
	lb, err = lab.NewSandbox(s.Title(), s.Config)
	if err != nil {
		return nil, nil, err
	}
	lb.Lesson.Intro = s.Intro()
	if len(s.Played) > 0 {
		if err := lb.Resume(lb.Knobs(), s.Played); err != nil {
			s.Played = nil
			return lb, fmt.Errorf("your actions from the last run do not fit this world (%w); it starts without them", err), nil
		}
		lb.Seek(0)
	}
	return lb, nil, nil
}
