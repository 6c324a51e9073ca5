package e2e

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sharedState is the part of leaselab.state() the shared answer's screen
// shows.
type sharedState struct {
	Scene struct {
		Name   string `json:"name"`
		Shared *struct {
			Exercise string `json:"exercise"`
			Problem  string `json:"problem"`
			Done     bool   `json:"done"`
			Pass     bool   `json:"pass"`
			Agrees   bool   `json:"agrees"`
			Verdict  string `json:"verdict"`
		} `json:"shared"`
	} `json:"scene"`
}

var (
	spaceKey = key{key: " ", code: "Space", text: " ", vk: 32}
	homeKey  = key{key: "Home", code: "Home", vk: 36}
)

// keyTo focuses the panel's control id and presses k on it.
func (b *browser) keyTo(t *testing.T, id string, k key) {
	t.Helper()
	sel := fmt.Sprintf(`#mirror [data-id=%q]`, id)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitVisible(sel), chromedp.Focus(sel)), "focus %q", id)
	b.press(t, k)
}

// keyNumber sets the page's number field id with the keyboard alone:
// Home, then the right arrow until it reads want.
func (b *browser) keyNumber(t *testing.T, id string, want float64) {
	t.Helper()
	b.keyTo(t, "number:"+id, homeKey)
	// Home has reached the page once the number is at most want: under
	// load the game may still report the value from before the press.
	b.exUntil(t, "the number "+id+" at its start", 10*time.Second, func(s exState) bool {
		v, ok := s.Scene.Exercise.Answer.Numbers[id]
		return ok && v <= want
	})
	for i := 0; ; i++ {
		st := b.exUntil(t, "the number "+id, 10*time.Second, func(s exState) bool {
			_, ok := s.Scene.Exercise.Answer.Numbers[id]
			return ok
		})
		got := st.Scene.Exercise.Answer.Numbers[id]
		if got >= want {
			require.Equal(t, want, got, "number %s", id)
			return
		}
		require.Less(t, i, 100, "number %s stuck at %v", id, got)
		b.press(t, rightKey)
	}
}

// TestBrowserShareAnAnswerAndCheckItElsewhere answers exercise 2 with
// the keyboard alone, checks it, shares it (the link is in a field the
// keyboard reaches and selects whole), opens the link in another
// browser, and reads from the accessibility tree what an instructor
// meets there: the screen named for the exercise with the focus on its
// heading, the answer graded again as a pass, the share agreeing, and
// the model answer not shown before the pass. The same link with its
// verdict changed by hand, and one cut short, are each told so.
func TestBrowserShareAnAnswerAndCheckItElsewhere(t *testing.T) {
	b := openExercise(t, "shard-design")
	b.keyNumber(t, "ttl", 15)
	b.keyNumber(t, "renew", 5)
	for _, o := range []string{"granularity:per-shard", "assignment:fair-share", "offsets:fenced",
		"place-leases:coordinator", "place-tokens:coordinator", "place-workers:coordinator",
		"place-offsets:store", "place-records:store", "place-last-token:store"} {
		b.keyTo(t, "opt:"+o, spaceKey)
	}
	b.exUntil(t, "the choices", 10*time.Second, func(s exState) bool { return len(s.Scene.Exercise.Answer.Choices) == 9 })
	b.keyTo(t, "check", enterKey)
	st := b.exUntil(t, "the verdict", 2*time.Minute, func(s exState) bool { return s.Scene.Exercise.Result != nil })
	require.True(t, st.Scene.Exercise.Result.Pass, "the keyboard's answer passes: %s", st.Scene.Exercise.Result.Summary)

	b.keyTo(t, "share", enterKey)
	field := `#mirror [data-id="share-link"]`
	require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitVisible(field)))
	b.press(t, tabKey)
	got := b.eval(t, `(() => { const el = document.activeElement;
		return el.dataset.id + " " + (el.selectionEnd - el.selectionStart === el.value.length) + " " + el.value })()`)
	parts := strings.SplitN(got, " ", 3)
	require.Len(t, parts, 3, "the focused element: %q", got)
	assert.Equal(t, "share-link", parts[0], "Tab from the share button reaches the link's field")
	assert.Equal(t, "true", parts[1], "and selects the whole link, ready to copy")
	link := parts[2]
	require.Contains(t, link, "#share=", "the field holds the page's address with the share")
	tree := b.axTree(t)
	assert.NotEmpty(t, tree.named("textbox", "The link to your answer"), "the field is named in the accessibility tree")
	b.screenshot(t, "browser-share-answer.png")
	frag := link[strings.Index(link, "#share="):]

	// Elsewhere: a new browser, with no progress of its own.
	o := openBrowserAt(t, 1280, 760, "/"+frag)
	o.listenLive(t)
	done := pollState(t, o, "the shared answer graded again", 2*time.Minute, func(s sharedState) bool {
		return s.Scene.Shared != nil && (s.Scene.Shared.Done || s.Scene.Shared.Problem != "")
	}, func(s sharedState) string { return fmt.Sprintf("scene %q", s.Scene.Name) })
	sh := done.Scene.Shared
	require.Empty(t, sh.Problem)
	assert.True(t, sh.Pass && sh.Agrees, "graded again: %s", sh.Verdict)
	role, name := o.focused(t)
	assert.Equal(t, "heading", role, "the focus is on the screen's heading")
	assert.True(t, strings.HasPrefix(name, "Shared answer to exercise 2:"), "the heading names the exercise: %q", name)
	assert.True(t, strings.HasPrefix(o.eval(t, `document.title`), name), "the page title names the screen")
	tree = o.axTree(t)
	says := func(part string) bool { return len(tree.named("StaticText", part)) > 0 }
	assert.True(t, says("Graded again here, from scratch: it passes."), "the verdict is in the accessibility tree")
	assert.True(t, says("The share holds that verdict too"), "and that the share agrees")
	assert.True(t, says("recorded a pass before the model answer was shown"), "and what the learner's lab recorded of the model answer")
	o.screenshot(t, "browser-share-verified.png")

	// The verdict changed by hand: the same answer, claiming a fail.
	code := strings.TrimPrefix(frag, "#share=")
	raw, err := base64.RawURLEncoding.DecodeString(code)
	require.NoError(t, err)
	forged := strings.Replace(string(raw), `"pass":true`, `"pass":false`, 1)
	require.NotEqual(t, string(raw), forged)
	o.eval(t, fmt.Sprintf(`location.hash = %q; ""`, "#share="+base64.RawURLEncoding.EncodeToString([]byte(forged))))
	pollState(t, o, "the forged verdict found out", 2*time.Minute, func(s sharedState) bool {
		return s.Scene.Shared != nil && s.Scene.Shared.Done && !s.Scene.Shared.Agrees
	}, func(s sharedState) string { return fmt.Sprintf("scene %q %+v", s.Scene.Name, s.Scene.Shared) })
	tree = o.axTree(t)
	assert.NotEmpty(t, tree.named("StaticText", "that is not the verdict its answer gets"), "the changed verdict is told")

	// Cut short: no share at all.
	o.eval(t, fmt.Sprintf(`location.hash = %q; ""`, frag[:len(frag)/2]))
	pollState(t, o, "the broken link told", time.Minute, func(s sharedState) bool {
		return s.Scene.Shared != nil && s.Scene.Shared.Problem != ""
	}, func(s sharedState) string { return fmt.Sprintf("scene %q", s.Scene.Name) })
	tree = o.axTree(t)
	assert.NotEmpty(t, tree.named("StaticText", "This shared answer cannot be graded"), "the message is in the accessibility tree")
	role, name = o.focused(t)
	assert.Equal(t, "heading", role)
	assert.Equal(t, "A shared answer that cannot be read", name)
	o.screenshot(t, "browser-share-broken.png")
}
