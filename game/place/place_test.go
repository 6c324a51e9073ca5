package place

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEveryPlaceRoundTripsThroughTheAddress: a place written as a
// fragment reads back as itself, less the part on show.
func TestEveryPlaceRoundTripsThroughTheAddress(t *testing.T) {
	for _, p := range []Place{{Kind: Menu}, {Kind: Lesson, ID: "fenced-writes"}, {Kind: Exercise, ID: "no-fencing"}, {Kind: Sandbox}} {
		got, ok := Parse(p.Fragment())
		assert.True(t, ok, "%+v reads back", p)
		assert.Equal(t, p, got)
		withSub := p
		withSub.Sub = "simulator"
		assert.Equal(t, p.Fragment(), withSub.Fragment(), "the address leaves out the part on show")
	}
	assert.Equal(t, "", Place{Kind: Menu}.Fragment(), "the menu is the bare address")
	assert.Equal(t, "#lesson=fenced-writes", Place{Kind: Lesson, ID: "fenced-writes"}.Fragment())
}

// TestAFragmentThatNamesNoPlaceIsLeftAlone: a shared run's link and
// anything unknown or malformed are not places.
func TestAFragmentThatNamesNoPlaceIsLeftAlone(t *testing.T) {
	for _, f := range []string{"#run=v1.abc", "#lesson=", "#lesson=Fenced Writes", "#lesson=../x", "#quiz=1", "#lesson", "#exercise=" + string(make([]byte, 70))} {
		_, ok := Parse(f)
		assert.False(t, ok, "%q", f)
	}
	p, ok := Parse("#")
	assert.True(t, ok)
	assert.Equal(t, Menu, p.Kind, "an empty fragment is the menu")
}

// TestScreensDifferByTheirPartOnShow: the exercise's answer and its
// simulator are two screens at one address.
func TestScreensDifferByTheirPartOnShow(t *testing.T) {
	answer := Place{Kind: Exercise, ID: "renewal"}
	sim := Place{Kind: Exercise, ID: "renewal", Sub: "simulator"}
	assert.NotEqual(t, answer.Screen(), sim.Screen())
	assert.Equal(t, answer.Fragment(), sim.Fragment())
}

// TestTheTitleNamesTheScreenFirst: the page title leads with the screen.
func TestTheTitleNamesTheScreenFirst(t *testing.T) {
	assert.Equal(t, "The paused leader and fenced writes – LeaseLab", Title("The paused leader and fenced writes"))
	assert.Equal(t, "LeaseLab: lessons", Title("LeaseLab: lessons"))
	assert.Equal(t, "LeaseLab", Title(""))
}
