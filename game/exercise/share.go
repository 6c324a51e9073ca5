package exercise

import (
	"math"

	"leaselab/game/ui"
	"leaselab/lessons"
)

// Sharing an answer (issue 31, item 7): once an answer has been graded,
// "Share my answer" makes a share of the answer as it was checked (its
// run included), the verdict it got and what the learner's lab recorded
// about help taken (lessons.Share), and hands it to the platform: the
// page puts its link on the clipboard and in a field to copy, the
// desktop writes it to a file. Whoever opens the link grades it again.

// Sharer hands a share of an answer to exercise ex to the platform and
// returns the text the learner passes on (the link) and a sentence saying
// where it is.
type Sharer func(ex *lessons.Exercise, s lessons.Share) (text, where string, err error)

// shareWaits says why an answer cannot be shared yet.
const shareWaits = "Check your answer first: a share holds the answer as it was graded, with its verdict."

// shareLabel is the share button's label, on the canvas and the page.
const shareLabel = "Share my answer"

// shareable reports whether an answer graded here can be shared: one
// checked since the exercise opened (a verdict restored from a past
// session may not be the answer's now).
func (s *state) shareable() bool { return s.graded != nil && s.result != nil }

// ShareAnswer shares the answer last graded, as the share button does.
func (s *state) ShareAnswer() {
	if !s.shareable() {
		s.refuse(shareWaits)
		return
	}
	sh, err := lessons.NewShare(s.Ex, *s.graded, *s.result, s.passed, s.shown, s.hintsSeen, s.attempts)
	if err != nil {
		s.refuse("Your answer could not be shared: " + err.Error())
		return
	}
	text, where := sh.Link(), "Your answer is shared: its link holds the answer, its run and its verdict; opened in LeaseLab's page, it is graded again."
	if s.OnShare != nil {
		if text, where, err = s.OnShare(s.Ex, sh); err != nil {
			s.refuse("Your answer could not be shared: " + err.Error())
			return
		}
	}
	s.notice = ""
	s.shared, s.sharedWhere = text, where
	s.Narrate(where)
}

// shareControls are the page's share button, once an answer is graded,
// and the field holding the link once it is shared.
func (s *state) shareControls() []ui.Control {
	if s.result == nil {
		return nil
	}
	c := ui.Control{ID: "share", Group: "Your answer", Label: shareLabel, Disabled: !s.shareable(), Do: func(ui.HostAction) { s.ShareAnswer() }}
	if !s.shareable() {
		c.Detail = shareWaits
	}
	out := []ui.Control{c}
	if s.shared != "" {
		out = append(out, ui.Control{ID: "share-link", Group: "Your answer", Kind: ui.KindCopy,
			Label: "The link to your answer (select it and copy it)", Text: s.shared, Detail: s.sharedWhere})
	}
	return out
}

// placeShare puts the canvas's share button at the right of the result
// tab's verdict line, while that tab shows a verdict.
func (s *answerForm) placeShare() {
	s.shareB.Rect = ui.Rect{}
	if !s.shareOnShow() {
		return
	}
	st, g := s.style, &s.geom
	w := math.Min(math.Round(st.U(150)), math.Round(g.verdict.W/2))
	s.shareB.Rect, g.verdict = g.verdict.CutRight(w, math.Round(st.U(8)))
	s.shareB.Rect = s.shareB.Rect.InsetXY(0, math.Round(st.U(1)))
}

// shareOnShow reports that the result tab shows a verdict, and with it
// the share button.
func (s *answerForm) shareOnShow() bool { return s.tab == tabResult && s.result != nil }
