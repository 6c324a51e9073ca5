package lab

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestASelectedLaneIsNeverSummarised: the selected actor's lane moves up
// to the last place a summary keeps; the others keep their order.
func TestASelectedLaneIsNeverSummarised(t *testing.T) {
	var lanes []Lane
	for _, n := range []string{"w0", "w1", "w2", "w3", "w4", "w5"} {
		lanes = append(lanes, Lane{Name: n, Members: []string{n}})
	}
	names := func(ls []Lane) []string {
		var out []string
		for _, l := range ls {
			out = append(out, l.Name)
		}
		return out
	}
	assert.Equal(t, []string{"w0", "w1", "w2", "+3 more"}, names(summariseTo(Showing(lanes, "", 4), 4)))
	assert.Equal(t, []string{"w0", "w1", "w4", "+3 more"}, names(summariseTo(Showing(lanes, "w4", 4), 4)), "w4 shown")
	assert.Equal(t, []string{"w0", "w1", "w2", "+3 more"}, names(summariseTo(Showing(lanes, "w1", 4), 4)), "w1 was shown already")
	assert.Equal(t, "w0 w1 w2 w3 w4 w5", strings.Join(names(lanes), " "), "the lanes given are not changed")
	sum := summariseTo(Showing(lanes, "w4", 4), 4)
	assert.ElementsMatch(t, []string{"w2", "w3", "w5"}, sum[3].Members, "the summary holds the others")
}
