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
		withSub.Sub = "compare"
		assert.Equal(t, p.Fragment(), withSub.Fragment(), "the address leaves out a part on show a reload cannot rebuild")
	}
	assert.Equal(t, "", Place{Kind: Menu}.Fragment(), "the menu is the bare address")
	assert.Equal(t, "#lesson=fenced-writes", Place{Kind: Lesson, ID: "fenced-writes"}.Fragment())
}

// TestAFragmentThatNamesNoPlaceIsLeftAlone: a shared run's link and
// anything unknown or malformed are not places.
// An exercise's simulator, rebuilt from the answer's draft, is named in
// the address, so a reload returns to it (issue 29: a reload there landed
// on the answer).
func TestTheAddressNamesAnExercisesSimulator(t *testing.T) {
	sim := Place{Kind: Exercise, ID: "renewal", Sub: Simulator}
	assert.Equal(t, "#exercise=renewal/simulator", sim.Fragment())
	got, ok := Parse(sim.Fragment())
	assert.True(t, ok)
	assert.Equal(t, sim, got)
	assert.Equal(t, "#lesson=fenced-writes", Place{Kind: Lesson, ID: "fenced-writes", Sub: "compare"}.Fragment(), "a lesson's comparison needs its search: the lesson")
	assert.Equal(t, "#sandbox", Place{Kind: Sandbox, Sub: "sandbox-run"}.Fragment(), "a run is its #run= link, which the page writes")
}

func TestAFragmentThatNamesNoPlaceIsLeftAlone(t *testing.T) {
	for _, f := range []string{"#exercise=renewal/", "#exercise=renewal/compare", "#lesson=fenced-writes/simulator", "#exercise=renewal/simulator/x", "#run=v1.abc", "#lesson=", "#lesson=Fenced Writes", "#lesson=../x", "#quiz=1", "#lesson", "#exercise=" + string(make([]byte, 70))} {
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
	assert.NotEqual(t, answer.Fragment(), sim.Fragment())
}

// TestTheTitleNamesTheScreenFirst: the page title leads with the screen.
func TestTheTitleNamesTheScreenFirst(t *testing.T) {
	assert.Equal(t, "The paused leader and fenced writes – LeaseLab", Title("The paused leader and fenced writes"))
	assert.Equal(t, "LeaseLab: lessons", Title("LeaseLab: lessons"))
	assert.Equal(t, "LeaseLab", Title(""))
}
