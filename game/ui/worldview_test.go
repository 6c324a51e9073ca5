package ui

import "testing"

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
		if len(v.ProcHits) != s.Procs || len(v.WorkerHits) != s.Workers {
			t.Fatalf("%+v: %d process and %d worker boxes", s, len(v.ProcHits), len(v.WorkerHits))
		}
		for i, a := range hits {
			if a.Empty() || a.X < area.X || a.Y < area.Y || a.MaxX() > area.MaxX()+1e-9 || a.MaxY() > area.MaxY()+1e-9 {
				t.Errorf("%+v: actor %d at %+v, outside %+v", s, i, a, area)
			}
			for _, b := range hits[i+1:] {
				if a.Overlaps(b) {
					t.Errorf("%+v: actors overlap: %+v %+v", s, a, b)
				}
			}
		}
		if s.Switch == v.Switch.Empty() {
			t.Errorf("%+v: switch %+v", s, v.Switch)
		}
		if s.Chart != !v.Chart.Empty() {
			t.Errorf("%+v: chart %+v", s, v.Chart)
		}
	}
}

// A process in no lock group of a split world has no place to click.
func TestAProcessOutsideEveryGroupIsNotPlaced(t *testing.T) {
	v := LayoutWorldView(Rect{W: 900, H: 560}, 1, WorldShape{Procs: 3, Groups: [][]int{{0}, {2}}})
	if !v.ProcHits[1].Empty() || v.ProcHits[0].Empty() || v.ProcHits[2].Empty() {
		t.Errorf("hits %+v", v.ProcHits)
	}
}
