package setup

// fieldHelp is each setup field's one-line help, by field name, in the
// learner's words: what the number or choice changes in the world.
var fieldHelp = map[string]string{
	"system":       "The coordination service the world runs on; the scenario and your actions carry over.",
	"redis_nodes":  "How many independent Redis servers Redlock locks on; a client needs a majority of them.",
	"procs":        "How many processes contend for the one lock.",
	"names":        "What the processes are called.",
	"recipe":       "How waiters queue: etcd's fair queue, ZooKeeper's sequential nodes, or a herd that all race.",
	"token_source": "Where fencing tokens come from: a counter of this lock's holders, or the store's global revision.",
	"ttl":          "How long a lease lives without a renewal.",
	"renew":        "How often the holder renews its lease.",
	"retry":        "How long a process that lost its session waits before it campaigns again.",
	"retry_jitter": "How much that wait varies at random, as a fraction of it (0: always the same).",
	"pauses":       "Stop-the-world pauses: none, all one length, or a heavy tail.",
	"pause_every":  "About how often a process is paused.",
	"pause_length": "A fixed pause's length, or the heavy tail's scale: its shortest, most common pause.",
	"pause_alpha":  "How heavy the tail is: the smaller, the more often a pause is very long.",
	"pause_max":    "The longest pause the heavy tail can give.",
	"delay":        "How long a message takes on every link.",
	"jitter":       "How much each message's delay varies at random, as a fraction of it.",
	"slow_link":    "One process whose link to the coordinator is slower than the rest.",
	"slow_delay":   "The delay on that slow link.",
	"lock_delay":   "After a holder's session is lost (not released), how long nobody may take the lock.",
	"fencing":      "Whether the store refuses a write whose token is older than the newest it has seen.",
	"idempotency":  "Whether the job queue skips a job it has already run.",
	"workload":     "What the leader does: writes to a store, or invoice jobs from a queue.",
	"work_every":   "How often the leader writes or runs a job.",
	"shards":       "Split the work into this many shards, each with its own lease (0: one lock).",
	"workers":      "How many workers share the shards.",
	"seed":         "The random seed: the same seed and the same actions give the same run.",
	"duration":     "How much simulated time the run covers.",
}
