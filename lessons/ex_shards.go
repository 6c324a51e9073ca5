package lessons

import (
	"time"
)

// Exercise 2's stated bounds for 1,000 partitions over 40 workers.
const (
	designShards    = 1000
	designWorkers   = 40
	designImbalance = 2   // most minus fewest shards per live worker
	designRenewLoad = 500 // lease renewals per second at the coordinator
	designReassign  = 30 * time.Second
	designCrashAt   = 60 * time.Second
	designPauseAt   = 100 * time.Second
	designVictim    = "worker-07" // crashes
	designSleeper   = "worker-21" // pauses past its leases
	designGCAt      = 40 * time.Second
	designGCPause   = 2 * time.Second // an ordinary garbage-collection pause
	designGCWorker  = "worker-13"
)

// shardItems are the data the learner places, with where each belongs.
var shardItems = []struct {
	id, label string
	coord     bool
	why       string
}{
	{"leases", "Shard ownership leases (shard-042 belongs to worker-07 until its TTL runs out)", true,
		"Ownership leases live in the coordinator: they are small, change only when ownership changes, and must expire on one authoritative clock."},
	{"tokens", "The fencing token of each ownership (the lease key's revision)", true,
		"Tokens are issued by the coordinator: only its single ordered history can number ownerships so that newer is always higher."},
	{"workers", "Worker identities and liveness (one session per worker)", true,
		"Membership is coordination state: the live-worker list is what the fair-share rule divides by, and a session expiring is how a dead worker is noticed."},
	{"offsets", "Each shard's committed stream offset", false,
		"Offsets move with every batch (1,000 shards committing every second): far too hot for a coordinator, and they must commit together with the records they describe."},
	{"records", "Processed records and their results", false,
		"Records are the data itself; a coordinator holds kilobytes of metadata, not a stream."},
	{"last-token", "The highest token each shard's offset was committed with", false,
		"The highest accepted token sits next to the offset, in the store, so the store itself can refuse a stale owner's commit."},
}

func shardQuestions() []Question {
	qs := []Question{
		{ID: "granularity", Text: "Lease granularity", Options: []Option{
			{"per-shard", "One lease per shard (1,000 leases)"},
			{"per-worker", "One lease per worker; its shard keys ride on it"},
		}},
		{ID: "assignment", Text: "Assignment rule", Options: []Option{
			{"fair-share", "Fair share: claim free shards up to shards / live workers (rounded up), give extras back"},
			{"greedy", "Greedy: claim every free shard you see"},
			{"static", "Static hash: worker i owns the shards numbered i mod 40"},
		}},
		{ID: "offsets", Text: "Offset commits", Options: []Option{
			{"fenced", "Carry the shard's token; the store refuses tokens below the highest it has seen"},
			{"plain", "Plain commits: the store keeps whatever arrives last"},
		}},
	}
	for _, it := range shardItems {
		qs = append(qs, Question{ID: "place-" + it.id, Text: "Where does this live? " + it.label, Options: []Option{
			{"coordinator", "Coordination service"},
			{"store", "Stream or database"},
		}})
	}
	return qs
}

var exShards = &Exercise{
	ID:      "shard-design",
	Title:   "Shard ownership for 1,000 partitions and 40 workers",
	Summary: "Design leases, renewals and rebalancing for 1,000 shards; defend the numbers.",
	Minutes: 20,
	Brief: []string{
		"A stream of 1,000 partitions is processed by 40 workers. Design who owns which partition: the lease granularity, TTL and renewal interval, the assignment rule, and how offsets are committed. Then sort the data between the coordination service and the stream or database.",
		"The simulator runs your design: the workers start; from 40 s worker-13 pauses for 2 s, as garbage collection does now and then; once those pauses are over (from 60 s, later if renewals are more than 17 s apart) worker-07 crashes; and at 100 s worker-21 freezes for longer than its TTL. Whether a pause costs a lease, and how long a crash takes to recover from, depend on where in its renewal cycle the worker is hit, so the pause and the crash are each tried at every moment that matters over one whole renewal interval, and the worst counts. The simulator never loses a renewal, so the TTL is also held to the lease policy rule: 2 × renew + 2 s < TTL with more than the round trip (12 ms) to spare, room for the pause and one missed renewal. A crashed worker's shards come free only when the coordinator expires its leases, and survivors find free shards by scanning every third of the TTL (up to half again more, so they do not all scan at once): failover is the wait for the leases plus a scan. Bounds: at most 2 shards between the busiest and the idlest worker; at most 500 lease renewals per second at the coordinator; every shard of the crashed worker owned again within 30 s, whenever it crashed; no shard taken from worker-13 for a 2 s pause, whenever it began; no offset overwritten by a stale owner.",
	},
	KeyPoints: []string{
		"Leases, tokens and membership go in the coordinator; offsets, records and the highest token per shard stay with the data.",
		"Failover is at least the TTL (a crash just after a renewal leaves the whole lease to wait out) plus a scan, so the failover budget caps the TTL; an ordinary pause plus a missed renewal sets its floor.",
		"Renewal load is leases / renew interval, sessions included: each lease is renewed on its own (an etcd keepalive request names one lease), however many share a worker's keepalive stream.",
		"Offset commits carry the shard token and the store refuses older ones.",
	},
	Hints: []string{
		"Start from what must not happen: a dead worker's shards idle too long, a live worker losing shards to a short pause, the coordinator drowning in renewals, a stale owner's offset landing. Each bounds one of your choices.",
		"Failover takes at least the TTL (survivors wait out the dead worker's leases, the whole TTL when it crashed just after renewing) plus a scan, so the budget caps the TTL; a 2 s pause plus a missed renewal sets its floor. The renewal interval sets the load: every worker renews its session too, so 1,000 shard leases plus 40 sessions renewed every r seconds is 1,040 / r renewals a second (one lease per worker: 40 / r).",
		"The key step: choose the TTL from both sides at once (long enough for a 2 s pause plus a missed renewal, short enough that waiting out a dead worker's leases fits the failover budget), then the slowest renewal that still survives a missed one, and check the load it makes. Fair share keeps the balance; fenced offset commits stop the frozen worker. Place in the coordinator only what is small and needs one authority.",
	},
	Numbers: []Knob{
		{ID: "ttl", Label: "Lease TTL", Unit: "s", Min: 2, Max: 120, Step: 1, Default: 60},
		{ID: "renew", Label: "Renew every", Unit: "s", Min: 0.5, Max: 60, Step: 0.5, Default: 1},
		{ID: "predict-load", Label: "Predict: lease renewals per second at the coordinator", Unit: "per second", Min: -1, Max: 5000, Step: 1, Default: -1, Unset: "no prediction"},
		{ID: "predict-failover", Label: "Predict: worst failover of worker-07's shards", Unit: "s", Min: -1, Max: 300, Step: 0.5, Default: -1, Unset: "no prediction"},
	},
	Questions: shardQuestions(),
	Reference: Answer{
		Numbers: map[string]float64{"ttl": 15, "renew": 5, "predict-load": 208, "predict-failover": 21},
		Choices: map[string][]string{
			"granularity": {"per-shard"}, "assignment": {"fair-share"}, "offsets": {"fenced"},
			"place-leases": {"coordinator"}, "place-tokens": {"coordinator"}, "place-workers": {"coordinator"},
			"place-offsets": {"store"}, "place-records": {"store"}, "place-last-token": {"store"},
		},
	},
	Worked: []string{
		"One lease per shard, as in the shard-ownership example (128 shards over 12 workers): ownership moves shard by shard, a dead worker's shards spread over everyone, and each ownership gets its own fencing token. Every lease is renewed on its own: in etcd a keepalive request (LeaseKeepAliveRequest) names one lease ID, so each worker sends 26 of them every renewal, for its 25 shard leases and its session, over its one keepalive stream. (The lab sends a worker's renewals together as one message, as they travel on one stream, and counts every lease it renews.) A TTL of 15 s renewed every 5 s costs (1,000 shard leases + 40 worker sessions) / 5 = 208 lease renewals per second, sessions included: light. A 60 s TTL would leave the dead worker's shards idle for up to a minute, and renewing every second would be 1,040 per second for nothing.",
		"One lease per worker, with its shard keys attached to it, is a valid alternative: it needs one keepalive per worker instead of per shard, so the load drops to 40 / 5 = 8 renewals a second, but a lapse loses all of a worker's shards at once, and the fencing token is then the shard key's revision, not the lease.",
		"Fair share bounds the imbalance at one or two shards (1,000 / 40 = 25 each); greedy lets the first worker grab everything, and a static hash never moves a dead worker's shards at all.",
		"Offsets carry the shard token and the store refuses older ones, so the frozen worker-21 cannot overwrite what its successor committed. The coordinator holds only small, slow-changing facts (leases, tokens, members); offsets, records and the highest token seen per shard stay with the data.",
	},
	Format: `{
  "numbers": { "ttl": <seconds>, "renew": <seconds>,
               "predict-load": <renewals per second>, "predict-failover": <seconds> },
  "defence": "your reasoning in a few sentences (kept, not graded)",
  "choices": {
    "granularity": ["per-shard" | "per-worker"],
    "assignment":  ["fair-share" | "greedy" | "static"],
    "offsets":     ["fenced" | "plain"],
    "place-leases": ["coordinator" | "store"],   and likewise
    "place-tokens", "place-workers", "place-offsets", "place-records",
    "place-last-token"
  }
}
predict-load and predict-failover are your predictions, made before the
simulation runs: the lease renewals per second the coordinator will see,
and how long worker-07's shards will wait for new owners after its crash,
at worst. Both are optional (leave them out, or give -1, for none); the
verdict shows each beside what the simulator measured (close: within a
tenth for the load, within 2 s for the failover), and they never change it.`,
}

func init() { exShards.start = checkShards }
