package lesson

import (
	"fmt"
	"leaselab/game/page"
	"strings"

	"leaselab/core"
	"leaselab/game/player"
	"leaselab/game/view"
)

// Next is the lesson after this one in the menu's order, offered
// once the lesson is complete.
type Next struct {
	Title string
	Open  func()
}

// runRow is the lesson scene's run row: Restart, Undo, Back to my run
// and, once the lesson is complete, Next lesson.
func (sc *Scene) runRow() *player.RunRow {
	return &player.RunRow{State: sc.runButtons, Do: sc.runButton}
}

// runButtons are the run row's buttons as the lab stands now.
func (sc *Scene) runButtons() []page.RunButton {
	lb := sc.Lab
	undo, undoTip := lb.UndoLabel()
	out := []page.RunButton{
		{Name: player.RunRestart, Label: "Restart", Offered: true, Enabled: !lb.Pristine(),
			Tip: "Begin again from t = 0 with no actions and the default settings (Undo brings this run back)"},
		{Name: player.RunUndo, Label: undo, Tip: undoTip, Offered: true, Enabled: lb.CanUndo()},
		{Name: player.RunBackToMine, Label: "Back to my run", Offered: lb.KeptMine(), Enabled: lb.KeptMine(),
			Tip: "Leave " + lb.Showing().String() + " and return to your own run, as you left it (Undo comes back here)"},
	}
	next := page.RunButton{Name: player.RunNext, Label: "Next lesson >"}
	if sc.next != nil && sc.complete {
		next.Offered, next.Enabled, next.Tip = true, true, "Open the next lesson: "+sc.next.Title
	}
	return append(out, next)
}

// runButton does what the named run button says.
func (sc *Scene) runButton(name string) {
	p := sc.Player
	switch name {
	case player.RunRestart:
		p.SetPlaying(false)
		sc.Lab.Restart()
		sc.resumed("")
		p.Narrate("Restarted from t = 0 with no actions. Undo brings your run back.")
	case player.RunUndo:
		p.SetPlaying(false)
		p.Narrate(sc.Lab.Undo())
	case player.RunBackToMine:
		p.SetPlaying(false)
		p.Narrate(sc.Lab.BackToMine())
	case player.RunNext:
		if sc.next != nil {
			sc.next.Open()
		}
	}
}

// resumed puts note (why the run is not at its start: "Resumed your run
// at t = 25 s") above the lesson's story, or takes it away ("").
func (sc *Scene) resumed(note string) {
	body := strings.Join(sc.Lab.Lesson.Intro, "\n\n")
	if sc.complete && sc.Lab.Lesson.Recap != "" {
		body += "\n\nRecap: " + sc.Lab.Lesson.Recap
		for _, line := range sc.Lab.PredictionRecap() {
			body += "\n\nYour prediction: " + line
		}
	}
	if note != "" {
		body = note + "\n\n" + body
	}
	sc.note = note
	sc.Player.SetBody(body)
}

// Resumed says the lesson opened on the learner's saved run, not at its
// start: above the story, and in the narration.
func (sc *Scene) Resumed() {
	_, log := sc.Lab.MyRun()
	note := "Resumed your run where you left it, at " + core.Seconds(sc.Lab.Now()) + " with " + view.ActionsText(len(log)) +
		". Restart (under the goals) begins the lesson again; Undo brings this run back."
	sc.resumed(note)
	sc.Player.Narrate(note)
}

// Press presses the named run button (RunRestart, RunUndo, RunBackToMine,
// RunNext) as a click would, for the HTML page's own buttons; one not
// offered or not enabled now is refused with why.
func (sc *Scene) Press(name string) error {
	for _, b := range sc.runButtons() {
		if b.Name != name {
			continue
		}
		if !b.Enabled {
			return fmt.Errorf("%s is not available now", b.Label)
		}
		sc.runButton(name)
		return nil
	}
	return fmt.Errorf("no run button %q", name)
}
