package e2e

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/core/permalink"
	"leaselab/game/lab"
	"leaselab/lessons"
)

// heard is what the desktop's --announce file holds so far, a line each.
func heard(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// untilHeard waits for a line after the first from that satisfies ok,
// and returns its index.
func untilHeard(t *testing.T, file string, from int, what string, ok func(string) bool) int {
	t.Helper()
	var lines []string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		lines = heard(t, file)
		for i := from; i < len(lines); i++ {
			if ok(lines[i]) {
				return i
			}
		}
	}
	t.Fatalf("not heard: %s; the last lines heard: %q", what, lines[max(0, len(lines)-6):])
	return -1
}

// keyTo presses key until the control labelled label is announced as
// focused.
func (d *desktopWindow) keyTo(t *testing.T, file, key, label string) {
	t.Helper()
	// An Enter just before may have moved the focus there already.
	time.Sleep(time.Second)
	if lines := heard(t, file); slices.Contains(lines[max(0, len(lines)-3):], label) {
		return
	}
	for range 120 {
		from := len(heard(t, file))
		d.xdotool(t, "key", "--delay", "0", key)
		// The focus's line, and maybe a narration line with it (a key
		// the slow software-drawn window has not read yet is pressed
		// again).
		for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if lines := heard(t, file); len(lines) > from {
				time.Sleep(150 * time.Millisecond)
				if slices.Contains(heard(t, file)[from:], label) {
					return
				}
				break
			}
		}
	}
	require.Failf(t, "focus never reached", "%s never took the focus by %s", label, key)
}

// fencedStoryEvents are the events of the fenced-writes recap's story in
// run w, as the recap wants them: A's last renewal before its pause, the
// pause, the expiry, B taking the lock, B's write, A's late write, the
// refusal.
func fencedStoryEvents(t *testing.T, tr *core.Trace) []int {
	renew, pause, expire, holder, bWrite, aWrite, refused := -1, -1, -1, -1, -1, -1, -1
	for e := range tr.All() {
		switch {
		case pause < 0 && (e.Kind == core.KindLeaseRenew || e.Kind == core.KindLeaseGrant) && e.Owner() == "A":
			renew = e.Seq
		case pause < 0 && e.Kind == core.KindPause && e.Actor == "A":
			pause = e.Seq
		case expire < 0 && pause >= 0 && e.Kind == core.KindLeaseExpire && e.Owner() == "A":
			expire = e.Seq
		case holder < 0 && expire >= 0 && e.Kind == core.KindHolder && e.Owner() == "B":
			holder = e.Seq
		case bWrite < 0 && holder >= 0 && e.Kind == core.KindSend && e.Msg() == "Write" && e.Actor == "B":
			bWrite = e.Seq
		case aWrite < 0 && bWrite >= 0 && e.Kind == core.KindSend && e.Msg() == "Write" && e.Actor == "A" && e.Token() == 7:
			aWrite = e.Seq
		case refused < 0 && aWrite >= 0 && e.Kind == core.KindWrite && e.Result() == core.RejectedStale:
			refused = e.Seq
		}
	}
	story := []int{renew, pause, expire, holder, bWrite, aWrite, refused}
	require.NotContains(t, story, -1, "the run tells the whole story: %v", story)
	return story
}

// TestDesktopRecapQuestionByKeyboardAlone: the desktop program opens the
// fenced-writes lesson on a run of the learner's own that plays its
// solution (a permalink), and the lesson is complete; with the keyboard
// alone (Tab, the arrows, Enter) the learner opens the recap card, picks
// the recap's story from the events of their run, in order, and checks
// it: the verdict, right, is announced (--announce writes what a screen
// reader is told). Then a step taken out, checked again, is told its gap
// as a question, never the event.
func TestDesktopRecapQuestionByKeyboardAlone(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	bin := buildDesktop(ctx, t)

	l, err := lessons.Find("fenced-writes")
	require.NoError(t, err)
	// The run the desktop will play, to know its events' words.
	lb, err := lab.New(l, 1)
	require.NoError(t, err)
	require.NoError(t, lb.Resume(nil, l.Solution))
	lb.Seek(lb.Length())
	words := map[int]string{}
	for _, e := range lb.RecapEvents() {
		words[e.Seq] = e.String()
	}
	story := fencedStoryEvents(t, lb.Sim().Trace)

	file := filepath.Join(t.TempDir(), "announce.txt")
	link := permalink.LessonLink(l.ID, 1, nil, l.Solution).Encode()
	d := openDesktop(ctx, t, bin, "--load", link, "--seek", lb.Length().String(), "--announce", file)
	// The lesson completes as it opens (its screen's announcement says
	// the title; the page too says no more of what a screen opens with):
	// the recap's opener is in the focus order.
	d.keyTo(t, file, "Tab", "Recap question")
	from := len(heard(t, file))
	d.xdotool(t, "key", "--delay", "0", "Return")
	untilHeard(t, file, from, "the card's recap and question", func(s string) bool {
		return strings.Contains(s, l.Recap) && strings.Contains(s, "Recap question: Tell the story of the write storage refused")
	})
	for i, seq := range story {
		key := "Down"
		if i%2 == 1 {
			key = "Tab"
		}
		d.keyTo(t, file, key, words[seq])
		d.xdotool(t, "key", "--delay", "0", "Return")
	}
	d.keyTo(t, file, "Tab", "Check my chain")
	from = len(heard(t, file))
	d.xdotool(t, "key", "--delay", "0", "Return")
	at := untilHeard(t, file, from, "the verdict", func(s string) bool { return strings.Contains(s, "Recap: ") })
	right := heard(t, file)[at]
	assert.Contains(t, right, "Recap: Your chain of events: right.", "the story, picked by keyboard, is right")

	// Esc closes the card, on its opener; Enter opens it again, on Back
	// to the run, with the chain kept. Take out the expiry (step 3) and
	// check again: the gap, as a question.
	d.xdotool(t, "key", "--delay", "0", "Escape")
	d.keyTo(t, file, "Tab", "Recap question")
	d.xdotool(t, "key", "--delay", "0", "Return")
	d.keyTo(t, file, "Down", "Step 3: "+words[story[2]])
	d.xdotool(t, "key", "--delay", "0", "Return")
	d.keyTo(t, file, "Up", "Back to the run")
	d.keyTo(t, file, "shift+Tab", "Check my chain")
	from = len(heard(t, file))
	d.xdotool(t, "key", "--delay", "0", "Return")
	at = untilHeard(t, file, from, "the second verdict", func(s string) bool { return strings.Contains(s, "Recap: ") })
	wrong := heard(t, file)[at]
	assert.Contains(t, wrong, "Recap: Your chain of events: wrong.")
	assert.Contains(t, wrong, "what freed the lock?", "the gap is named as a question")
	assert.NotContains(t, wrong, words[story[2]], "never the event left out")
}
