package lessons

import (
	"strings"
	"time"

	"leaselab/core"
)

// The security lesson's world: a migration leader and three shard workers
// on one coordinator whose ACL gives each principal its own prefixes.
const (
	migrationLock = "migrations/leader"
	// The ZooKeeper recipe names keys by sequence, so the migrator's
	// lock key is known in advance: the first child of the lock.
	migrationKey = migrationLock + "/lock-0000000001"
	statusKey    = "migrations/status"
)

var securityWorkers = core.WorkerNames(3)

// securityACL is least privilege: only the migrator writes under
// migrations/, only shard workers under stream/ and workers/.
func securityACL() []core.ACLRule {
	return []core.ACLRule{
		{Prefix: "migrations/", Principals: []string{"migrator"}},
		{Prefix: "stream/", Principals: securityWorkers},
		{Prefix: core.WorkerPrefix, Principals: securityWorkers},
	}
}

// denied finds the coordinator's refusal of op on a key under prefix by a
// principal chosen by who.
func denied(w *World, op, prefix string, who func(string) bool) *core.Event {
	for e := range w.ofKind(core.KindDenied) {
		if e.Op() == op && strings.HasPrefix(e.Key(), prefix) && who(e.Who()) {
			return e
		}
	}
	return nil
}

func isWorker(p string) bool { return strings.HasPrefix(p, "worker-") }

// secretMarkers are fragments of credential-shaped values: a crude check,
// but lock and status values are read by operators, dashboards and logs,
// so anything that looks like one does not belong there.
var secretMarkers = []string{"password", "passwd", "secret", "token=", "apikey", "api_key", "private key", "-----begin", "akia"}

func looksSecret(v string) bool {
	v = strings.ToLower(v)
	for _, m := range secretMarkers {
		if strings.Contains(v, m) {
			return true
		}
	}
	return false
}

var security = &Lesson{
	ID:        "security",
	Title:     "Least privilege on the coordinator",
	Objective: "Give each process only the coordinator keys it needs, and publish status safely.",
	Summary:   "Who may delete whose lock key, and what a status value must not hold.",
	Minutes:   6,
	Intro: []string{
		"Coordination keys decide who may act, so write access to them is power. Here one coordinator serves two teams: a migration leader (the process migrator, holding migrations/leader) and three shard workers that own keys under stream/ and register under workers/.",
		"The coordinator's ACL gives each principal only its own prefixes, the way etcd roles or ZooKeeper ACLs would: migrations/ for migrator, stream/ and workers/ for the shard workers. A worker with a bug, or a stolen worker credential, should not be able to delete the migration leader's key and so start a second schema migration.",
		"Values are the other half. A lock value should say who holds the lock (a process name, a host), because operators read it when something goes wrong; for the same reason it is shown in dashboards and logs, so it must never carry a password or an API key.",
		"The migrator's lock key is " + migrationKey + " (ZooKeeper-style sequential node).",
	},
	Recap: "The ACL turned a worker's attempt on the migration lock into a logged denial that names the rule, and it held the other way round too: each principal can write only what its job needs. Lock and status values carried identities for debugging and nothing that grants access. Least privilege keeps a bug or a leaked credential in one team's keys from becoming a split brain in another's.",
	World: func(seed uint64, _ Knobs) (core.World, error) {
		w := core.World{
			Seed: seed, Coordinator: core.CoordinatorSpec{ACL: securityACL()},
			Resources: []core.Resource{core.OffsetsResource("offsets", 6, true)},
			Processes: []core.ProcessConfig{{Name: "migrator", Lock: migrationLock, Recipe: core.RecipeZooKeeper, TTL: 10 * time.Second}},
		}
		for i, n := range securityWorkers {
			w.Workers = append(w.Workers, core.ShardConfig{Name: n, Shards: 6, TTL: 10 * time.Second, StartAt: time.Duration(i+1) * 200 * time.Millisecond})
		}
		return w, nil
	},
	Duration: 30 * time.Second,
	Controls: []Control{CtlDelete, CtlPut, CtlCrash},
	Goals: []Goal{
		{
			ID:     "denied",
			Text:   "As a shard worker, try to delete the migration leader's key " + migrationKey + ".",
			Proved: "The coordinator refused the worker with permission denied, named the rule, and the migrator kept its lock.",
			Met: func(w *World) bool {
				d := denied(w, "delete", migrationKey, isWorker)
				if d == nil {
					return false
				}
				for e := range w.Sim.Trace.Span(d.Seq, w.Sim.Trace.Len()) {
					if (e.Kind == core.KindFree || e.Kind == core.KindHolder) && e.Lock() == migrationLock {
						return false
					}
				}
				return true
			},
		},
		{
			ID:     "both-ways",
			Text:   "Least privilege cuts both ways: as the migrator, try to delete a shard key that a worker holds, such as stream/shard-000.",
			Proved: "The migrator's credentials are just as useless on the shard keys: each principal can write only what its own job needs.",
			Met: func(w *World) bool {
				return denied(w, "delete", "stream/", func(p string) bool { return p == "migrator" }) != nil
			},
		},
		{
			ID:     "identity",
			Text:   "Have the migrator publish its status at " + statusKey + ": a value that names the owner (it must contain \"migrator\") and holds no secret.",
			Proved: "Every value on the coordinator now names an owner and none looks like a credential: useful to whoever reads it at 3 a.m., useless to whoever steals it.",
			Met: func(w *World) bool {
				kv := w.Sim.Coord.Get(statusKey)
				if kv == nil || !strings.Contains(kv.Value, "migrator") {
					return false
				}
				for _, kv := range w.Sim.Coord.Keys() {
					if looksSecret(kv.Value) {
						return false
					}
				}
				return true
			},
		},
	},
	Hints: []string{
		"Actions on the coordinator are made in a process's name: pick the worker, then the key.",
		"worker-00 deletes " + migrationKey + "; migrator deletes stream/shard-000; migrator puts " + statusKey + ".",
		"At 2 s: worker-00 deletes " + migrationKey + ". At 6 s, once the workers have claimed their shards: migrator deletes stream/shard-000. At 7 s: migrator puts " + statusKey + " = \"migrator on db-admin-2, running 0042_add_invoice_index\".",
	},
	Solution: core.ActionLog{
		core.At(2*time.Second, core.Action{Do: core.VerbDelete, Proc: "worker-00", Key: migrationKey}),
		core.At(6*time.Second, core.Action{Do: core.VerbDelete, Proc: "migrator", Key: "stream/shard-000"}),
		core.At(7*time.Second, core.Action{Do: core.VerbPut, Proc: "migrator", Key: statusKey, Value: "migrator on db-admin-2, running 0042_add_invoice_index"}),
	},
}
