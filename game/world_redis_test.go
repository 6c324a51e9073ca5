package game

import (
	"fmt"
	"leaselab/game/lesson"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"leaselab/core"
	"leaselab/game/lab"
	"leaselab/game/sandbox"
	"leaselab/game/ui"
	"leaselab/game/view"
)

// In the Redlock lesson mid-pause, the world draws each Redis server in
// a cell of its own, inside the place the coordinator had, with whose key
// it holds and its PX left as the lab says; the heading says who holds a
// majority. Nothing on the screen speaks of a coordinator or a revision:
// Redlock has neither.
func TestARedlockWorldDrawsEveryRedisNode(t *testing.T) {
	for _, size := range clipSizes {
		r := rigWith(t, nil)
		r.resize(size[0], size[1])
		r.click("lesson:redlock-pause")
		sc := r.a.top().(*lesson.Scene)
		sc.Lab.LoadSolution()
		sc.Lab.Advance(14 * time.Second)
		shot := r.record(fmt.Sprintf("redlock-nodes-%.0fx%.0f", size[0], size[1]))
		v := sc.Lab.World()
		require.Len(t, v.Redis, 3)
		require.Equal(t, "B", v.Lock.Holder, "B won the majority while A is frozen")

		world := r.a.Inspect().Regions["world"]
		require.False(t, world.Empty())
		drawn := map[string][]ui.Rect{}
		for _, d := range shot.drawn {
			drawn[d.Text] = append(drawn[d.Text], d.Box)
			// Anywhere on the screen: the world, its legend, the timeline's.
			assert.NotContains(t, strings.ToLower(d.Full), "revision", d.Full)
			assert.NotContains(t, strings.ToLower(d.Full), "coordinator", d.Full)
		}
		assert.NotEmpty(t, drawn[v.RedisSummary()], "the heading: %s", v.RedisSummary())
		cells := view.RedisCells(sc.World().Geom().Coord, sc.World().Unit(), len(v.Redis))
		regions := r.a.Inspect().Regions
		for i, n := range v.Redis {
			require.Equal(t, "B", n.Owner, n.Name)
			assert.Equal(t, cells[i], regions["redis:"+n.Name], "the bridge names %s's cell", n.Name)
			assert.True(t, cells[i].Within(world), "%s's cell inside the world", n.Name)
			px := fmt.Sprintf("PX %.1f s", n.Left.Seconds())
			for _, want := range []string{n.Name, n.Owner, px} {
				in := 0
				for _, b := range drawn[want] {
					if b.Within(cells[i]) {
						in++
					}
				}
				assert.Positive(t, in, "%q in %s's cell at %.0fx%.0f", want, n.Name, size[0], size[1])
			}
		}
		for i := 1; i < len(cells); i++ {
			assert.False(t, cells[i-1].Overlaps(cells[i]), "cells apart")
		}
		assert.Empty(t, shot.offenders())
	}
}

// In a Redlock sandbox a Redis server is an actor like a process: click
// its cell and its menu crashes it or jumps its clock ahead, the two
// faults a node can have that its clients never see coming.
func TestARedisNodeIsClickedAndActedOn(t *testing.T) {
	r := rigWith(t, nil)
	r.click("sandbox")
	r.click("preset:redlock")
	r.click("start")
	sb := r.a.top().(*sandbox.Scene)
	require.NotNil(t, sb.Run)
	sb.Run.Lab.Advance(3 * time.Second)
	r.tick(ui.Input{})
	r.click("redis:redis-2")
	mirror := r.a.Inspect().Mirror
	assert.Contains(t, strings.Join(mirror.Narration, "\n"), "Selected redis-2: holds", "the node says what it holds")
	assert.Empty(t, r.record("redis-node-menu").offenders(), "the node's menu fits")
	r.click("act:redis-2:clock-jump")
	jumps := sb.Run.Lab.Sim().Trace.Filter(core.KindRedisJump)
	require.Len(t, jumps, 1)
	assert.Equal(t, "redis-2", jumps[0].Actor)
	assert.Equal(t, int64(30000), jumps[0].Num(core.FAhead))

	r.click("redis:redis-3")
	r.click("act:redis-3:crash")
	node := sb.Run.Lab.World().Redis[2]
	assert.True(t, node.Down, "redis-3 crashed")
	r.click("redis:redis-3")
	_, ok := r.a.Inspect().Regions["act:redis-3:restart"]
	assert.True(t, ok, "a crashed node offers a restart")
}

// The panel and the canvas agree on a Redlock holder's token: it has
// none, so the panel says "leader, no token" as the badge says "no token",
// never "leader with token 0"; a holder with a token says it.
func TestTheRedlockHolderHasNoTokenInThePanelAsOnTheCanvas(t *testing.T) {
	p := lab.ProcView{Name: "A", State: core.Leader, Believes: true, Token: 0}
	assert.Equal(t, "leader, no token", view.DescribeProc(p, core.SystemRedlock.Words()))
	p.Token = 7
	assert.Equal(t, "leader with token 7", view.DescribeProc(p, core.SystemEtcd.Words()))
	p.State, p.Believes = core.SteppingDown, false
	assert.Equal(t, "stepping down", view.DescribeProc(p, core.SystemEtcd.Words()))
}
