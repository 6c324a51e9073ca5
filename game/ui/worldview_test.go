package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEveryActorOfAWorldHasItsOwnPlaceInside(t *testing.T) {
	area := Rect{W: 900, H: 560}
	for _, s := range []WorldShape{
		{Procs: 3, Groups: [][]int{{0, 1, 2}}, Switch: true},
		{Procs: 3, Chart: true},
		{Procs: 4, Groups: [][]int{{0, 1}, {2, 3}}},
		{Procs: 2, Groups: [][]int{{0, 1}}, Workers: 5, Shards: 16, Switch: true},
	} {
		v := LayoutWorldView(area, 1, s)
		hits := append(append([]Rect(nil), v.ProcHits...), v.WorkerHits...)
		require.Len(t, v.ProcHits, s.Procs, "%+v: process boxes", s)
		require.Len(t, v.WorkerHits, s.Workers, "%+v: worker boxes", s)
		for i, a := range hits {
			inside := !a.Empty() && a.X >= area.X && a.Y >= area.Y && a.MaxX() <= area.MaxX()+1e-9 && a.MaxY() <= area.MaxY()+1e-9
			assert.True(t, inside, "%+v: actor %d at %+v, outside %+v", s, i, a, area)
			for _, b := range hits[i+1:] {
				assert.False(t, a.Overlaps(b), "%+v: actors overlap: %+v %+v", s, a, b)
			}
		}
		assert.Equal(t, s.Switch, !v.Switch.Empty(), "%+v: switch %+v", s, v.Switch)
		assert.Equal(t, s.Chart, !v.Chart.Empty(), "%+v: chart %+v", s, v.Chart)
	}
}

// A process in no lock group of a split world has no place to click.
func TestAProcessOutsideEveryGroupIsNotPlaced(t *testing.T) {
	v := LayoutWorldView(Rect{W: 900, H: 560}, 1, WorldShape{Procs: 3, Groups: [][]int{{0}, {2}}})
	assert.True(t, v.ProcHits[1].Empty(), "the ungrouped process: %+v", v.ProcHits)
	assert.False(t, v.ProcHits[0].Empty(), "hits %+v", v.ProcHits)
	assert.False(t, v.ProcHits[2].Empty(), "hits %+v", v.ProcHits)
}
