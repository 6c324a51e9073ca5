package lesson

import (
	"leaselab/game/page"
	"slices"
	"strings"

	"leaselab/game/form"
	"leaselab/game/lab"
	"leaselab/game/ui"
	"leaselab/lessons"
)

// The lesson's recap question asked with the learner's own run (issue
// 31, item 2): once the lesson is complete, a lesson whose recap asks for
// a chain (lessons.RecapChain) offers it beside the recap, as exercises 1
// and 3 do: the chain's steps so far (each a button that takes it out),
// a button that empties it, one that checks it, and every event of the
// run as a button that adds it. The verdict names the gap, never the
// answer, and is said; nothing is recorded against the learner.

// recapChain is the chain the learner builds for the recap question.
type recapChain struct {
	chain   []int
	verdict *lessons.Feedback
	// events caches the run's events, by the trace's length.
	events []lab.WhyStep
	at     int
}

// Groups of the recap's controls on the page.
const recapEventsGroup = "Events of your run: add them to your chain in the order they happened"

// recapQuestion is the recap question on offer now ("" when none).
func (sc *Scene) recapQuestion() string {
	if sc.done() == nil {
		return ""
	}
	return sc.Lab.RecapQuestion()
}

// recapEvents lists the run's events to pick from.
func (sc *Scene) recapEvents() []lab.WhyStep {
	r := &sc.recap
	if n := sc.Lab.Sim().Trace.Len(); r.events == nil || r.at != n {
		r.events, r.at = sc.Lab.RecapEvents(), n
	}
	return r.events
}

// recapControls lists the recap question's controls for the page: the
// recap card's chain builder's, with the check after Empty the chain.
func (sc *Scene) recapControls() []ui.Control {
	if sc.recapQuestion() == "" {
		return nil
	}
	r := &sc.recap
	sc.card.sync()
	check := ui.Control{ID: RecapCheckName, Group: sc.card.chain.Group, Label: "Check my chain", Disabled: len(r.chain) == 0,
		Do: func(ui.HostAction) { sc.checkRecap() }}
	if r.verdict != nil {
		check.Detail = form.PartText(*r.verdict)
	}
	return sc.card.chain.Controls(check)
}

// recapUse is the recap's one door, for the page's uses and the card's
// buttons alike: the question's controls and, while the card can open,
// its own (recapControls, recapCard.controls) declare what each does.
// Before the lesson is complete the recap has no controls, and a use of
// one is told so.
func (sc *Scene) recapUse(h ui.HostAction) {
	if sc.recapQuestion() != "" && sc.card.chain.Use(h.ID) {
		return
	}
	decls := ui.Controls(sc.recapControls())
	if sc.card.offered() {
		decls = append(decls, sc.card.controls()...)
	}
	handled, err := decls.Use(h)
	switch {
	case err != nil:
		sc.card.refused = err.Error()
		sc.Player.Narrate(err.Error())
	case handled:
	case sc.recapQuestion() == "":
		sc.Player.Narrate("The recap question comes once the lesson is complete in your own run.")
	default:
		sc.card.chain.Act(strings.TrimPrefix(h.ID, "recap:")) // says why it is not known
	}
}

// recapHost passes this tick's uses of the recap's controls through
// recapUse and keeps the others.
func (sc *Scene) recapHost(in *ui.Input) {
	var rest []ui.HostAction
	for _, h := range in.Host {
		if strings.HasPrefix(h.ID, "recap:") {
			sc.recapUse(h)
			continue
		}
		rest = append(rest, h)
	}
	in.Host = rest
}

// checkRecap judges the chain and says the verdict.
func (sc *Scene) checkRecap() {
	f := sc.Lab.JudgeRecap(sc.recap.chain)
	sc.recap.verdict = &f
	sc.card.refused = ""
	sc.Player.Narration().AddKey("Recap: " + form.PartText(f))
}

// recapInfo is the recap question's state, or nil when none is asked.
func (sc *Scene) recapInfo() *page.RecapInfo {
	q := sc.recapQuestion()
	if q == "" {
		return nil
	}
	r := &sc.recap
	out := &page.RecapInfo{Question: q, Chain: slices.Clone(r.chain)}
	if r.verdict != nil {
		out.Checked, out.OK, out.Verdict = true, r.verdict.OK, r.verdict.Why
	}
	return out
}
