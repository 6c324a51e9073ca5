package ui

import "testing"

func TestShardPaneKeepsPartsApart(t *testing.T) {
	for _, size := range [][2]float64{{1024, 640}, {1280, 800}, {1920, 1080}, {3840, 2160}} {
		l := LayoutPlayerKnobs(Rect{W: size[0], H: size[1]}, 1, 1)
		_, body, legend := WorldFrame(l.World, l.Unit)
		for _, c := range []struct{ workers, shards int }{{12, 128}, {2, 4}, {3, 6}} {
			areas := []Rect{body, SplitPanes(body, l.Unit, 1, 1)[1]}
			if c.shards > 32 {
				areas = areas[:1] // the shards lesson has the whole world
			}
			for _, area := range areas {
				g := LayoutShards(area, l.Unit, c.workers, c.shards)
				parts := []Rect{g.Coord, g.Grid, g.Store}
				for i, a := range parts {
					if !a.Within(area) || a.Overlaps(legend) || a.Empty() {
						t.Fatalf("%v %v: part %d %v outside %v", size, c, i, a, area)
					}
					for _, b := range parts[i+1:] {
						if a.Overlaps(b) {
							t.Fatalf("%v %v: parts overlap: %v %v", size, c, a, b)
						}
					}
				}
				if len(g.Cells) != c.shards || len(g.Workers) != c.workers {
					t.Fatalf("%v %v: %d cells %d chips", size, c, len(g.Cells), len(g.Workers))
				}
				for i, r := range g.Cells {
					if !r.Within(g.Grid) || r.H < 8 {
						t.Fatalf("%v %v: cell %d %v outside grid %v", size, c, i, r, g.Grid)
					}
				}
				for i, r := range g.Workers {
					if !r.Within(area) || r.Overlaps(g.Grid) || r.Overlaps(g.Store) || g.HitWorker(r.Center()) != i {
						t.Fatalf("%v %v: worker chip %d %v", size, c, i, r)
					}
					if i > 0 && r.Overlaps(g.Workers[i-1]) {
						t.Fatalf("%v %v: chips %d and %d overlap", size, c, i-1, i)
					}
				}
			}
		}
	}
}

func TestLockPanesAndPopover(t *testing.T) {
	for _, size := range [][2]float64{{1024, 640}, {1920, 1080}} {
		l := LayoutPlayer(Rect{W: size[0], H: size[1]}, 1)
		_, body, _ := WorldFrame(l.World, l.Unit)
		panes := SplitPanes(body, l.Unit, 1, 1, 1)
		for i, p := range panes {
			if !p.Within(body) || (i > 0 && p.Overlaps(panes[i-1])) {
				t.Fatalf("pane %d %v", i, p)
			}
			for _, n := range []int{1, 2, 5} {
				g := LockPaneGeom(p, l.Unit, n)
				for k, c := range g.Procs {
					ring := Rect{X: c.X - g.Ring, Y: c.Y - g.Ring, W: 2 * g.Ring, H: 2 * g.Ring}
					if !ring.Within(p) || ring.Overlaps(g.Coord) || !g.Badges[k].Within(p) {
						t.Fatalf("%v pane %d n=%d: process %d ring %v badge %v coord %v pane %v", size, i, n, k, ring, g.Badges[k], g.Coord, p)
					}
				}
				box, items := PopoverNear(l.World, Rect{X: g.Procs[0].X, Y: g.Procs[0].Y, W: 1, H: 1}, 4, l.Unit, 0)
				if !box.Within(l.World) || len(items) != 4 || !items[3].Within(box) {
					t.Fatalf("popover %v items %v", box, items)
				}
			}
		}
	}
}
