package core

import "time"

// This file is the trace's schema: the one place that declares each kind
// of event, the fields it may carry (in the order the text, JSON and hash
// encodings write them) and each field's key and type. Code elsewhere
// reads a field through its accessor below (e.Owner(), e.Token(),
// e.Until()) or by its FieldID, never by a key string; the encodings in
// trace.go walk these tables. A new kind or field is a line in each table
// and, for a field, an accessor.

// Kinds of trace events. Views, goals, invariants and exports all read the
// trace and nothing else, so every fact a lesson needs must appear here.
const (
	kindNone         Kind = iota
	KindState             // state: a process's state machine moved (from, to, why)
	KindPause             // pause: a process stopped the world (for)
	KindResume            // resume: a process resumed (overdue: timers that fired late)
	KindCrash             // crash: a process crashed
	KindRestart           // restart: a process restarted
	KindLeaseGrant        // lease.grant: the coordinator granted a lease
	KindLeaseRenew        // lease.renew: the coordinator extended a lease
	KindLeaseRenewed      // lease.renewed: a client received a renewal
	KindLeaseExpire       // lease.expire: the coordinator expired a lease; its keys went in one revision
	KindLeaseRevoke       // lease.revoke: a lease was revoked (by its owner or forced)
	KindLeaseLost         // lease.lost: a client learned its lease is gone
	KindPut               // put: a key was created or updated
	KindDelete            // delete: a key was deleted
	KindDenied            // denied: the coordinator refused a request
	KindHolder            // lock.holder: the coordinator's truth: a lock's new holder
	KindFree              // lock.free: the coordinator's truth: a lock has no holder
	KindLockDelay         // lock.delay: a lock-delay was armed after an invalidated holder
	KindWatchFire         // watch.fire: a watcher woke up
	KindSend              // msg.send: a message was sent
	KindDrop              // msg.drop: a message was lost
	KindWrite             // write: the fenced register decided a write
	KindEnqueue           // enqueue: the job queue decided a job
	KindOffset            // offset.commit: the offset store decided a commit
	KindShardOwn          // shard.own: a worker believes it owns a shard
	KindShardDrop         // shard.drop: a worker stopped owning a shard
	KindAction            // action: a learner's action was applied
	KindActionError       // action.error: a learner's action could not be applied
	KindNote              // note: free text from a process (work done, a write refused...)
	KindPartition         // net.partition: a link was cut
	KindHeal              // net.heal: a link healed
	KindHold              // net.hold: what a process sends is held back until a time (from, to: "" for any)
	KindWait              // msg.wait: a message waits in a client's connection that is down
	KindReconnect         // net.reconnect: a client's connection to the coordinator is back
	KindSetting           // setting: a parameter changed
	KindSessionLost       // session.lost: a queued contender found its key gone (ErrSessionExpired)
	KindStale             // stale.accepted: a resource accepted a token below its highest (fencing off)
	KindWorkBusy          // work.busy: a leader's work loop is busy with one unit
	KindRenewal           // renewal: a client that does work ran a renewal (late: how long it waited behind work)
	KindClientState       // client.state: a client's connection state as its library reports it: state (connected, disconnected, expired), curator (CONNECTED, SUSPENDED, RECONNECTED, LOST) and why
	KindRedisSet          // redis.set: a Redis node stored the lock key
	KindRedisExpire       // redis.expire: a Redis node's key reached its PX and vanished
	KindRedisDel          // redis.del: a Redis node deleted the key (value-checked)
	KindRedisDown         // redis.down: a Redis node stopped; without persistence it forgets every key
	KindRedisUp           // redis.up: a Redis node is back, empty
	KindRedisJump         // redis.jump: a Redis node's wall clock jumped ahead
	KindMember            // member: a coordinator member crashed, restarted, paused, resumed or was cut off from its clients (state)
	KindLeader            // raft.leader: a coordinator member became the cluster's leader (term, rev: its commit index)
	KindNoLeader          // raft.no-leader: the cluster has no leader any more (term, why)
	KindLeaseRearm        // lease.rearm: a new leader gave a lease its whole TTL again (expiry)
	KindRefused           // member.refuse: a member gave up on a request it could not get committed (who, msg, why)
	KindRead              // read: a member answered a read of a lock's owner (how: serializable or linearizable)
	KindClientMember      // client.member: a client now talks to another member of the coordinator
	kindCount
)

// Fields trace events carry. Each has one type: text, a whole number, or
// a length kept in milliseconds (its key ends in _ms).
const (
	fieldNone         FieldID = iota
	FDo                       // do: the action's verb
	FText                     // text: free text: a note's words, an action as the learner gave it
	FWhy                      // why: the reason, in the words of the system or the lab
	FName                     // name: the setting that changed
	FValue                    // value: a value written or stored
	FResource                 // resource: the protected resource a setting applies to
	FMs                       // ms: a setting's length
	FFrom                     // from: the sender, or the state left
	FTo                       // to: the receiver, or the state entered
	FState                    // state: a client library's connection state
	FCurator                  // curator: Curator's name for the connection state
	FSession                  // session: a session or lease id
	FWho                      // who: the client a refusal answers
	FOp                       // op: the refused operation
	FKey                      // key: a key of the store
	FLease                    // lease: a lease id
	FOwner                    // owner: the lease's or lock's owner
	FTTL                      // ttl_ms: a lease's time to live
	FExpiry                   // expiry_ms: when a lease runs out, by the coordinator's clock
	FLeases                   // leases: how many leases one request renewed
	FDeadline                 // deadline_ms: the client's own lease deadline
	FHow                      // how: how it was done (the client call, the command)
	FKeys                     // keys: how many keys went with the lease
	FKeyList                  // keys: the keys a node holds
	FRev                      // rev: the store's revision
	FLock                     // lock: the lock's name
	FUntil                    // until_ms: until when
	FWas                      // was: the holder before
	FWasOffset                // was: the offset before
	FToken                    // token: a fencing token
	FLeaseTransitions         // lease_transitions: Kubernetes' count of leader changes
	FResourceVersion          // resource_version: Kubernetes' object version
	FNodes                    // nodes: how many Redis nodes agreed
	FCreateRev                // create_rev: the revision that created the key
	FVersion                  // version: how many times the key was written since it was created
	FID                       // id: a message id
	FMsg                      // msg: a message's kind
	FArrive                   // arrive_ms: when the message arrives
	FHeld                     // held_ms: how long the network held the message back
	FA                        // a: one end of a link
	FB                        // b: the other end of a link
	FDir                      // dir: the direction cut
	FWaited                   // waited: how many messages waited for the connection
	FDown                     // down_ms: how long the connection was down
	FShard                    // shard: a shard number
	FOffset                   // offset: a committed offset
	FEntries                  // entries: how many entries a batch held
	FResult                   // result: what a resource or a renewal decided
	FHighest                  // highest: the highest token seen before
	FLabel                    // label: the writer's label for the write
	FIdem                     // idem: a job's idempotency key
	FWatcher                  // watcher: the process a watch woke
	FType                     // type: the watch event's type
	FWatched                  // watched: the key or prefix watched
	FFor                      // for_ms: how long
	FOverdue                  // overdue: how many timers were overdue
	FLate                     // late_ms: how long a renewal waited behind work
	FAhead                    // ahead_ms: how far a wall clock jumped
	FPX                       // px_ms: a Redis key's PX
	FMember                   // member: a coordinator member
	FTerm                     // term: a Raft term
	fieldCount
)

// kinds declares each kind's name and the fields it may carry, in the
// order every encoding writes them.
var kinds = [kindCount]kindDef{
	KindState:        {name: "state", fields: []FieldID{FFrom, FTo, FWhy, FToken}},
	KindPause:        {name: "pause", fields: []FieldID{FFor}},
	KindResume:       {name: "resume", fields: []FieldID{FOverdue}},
	KindCrash:        {name: "crash", fields: []FieldID{}},
	KindRestart:      {name: "restart", fields: []FieldID{}},
	KindLeaseGrant:   {name: "lease.grant", fields: []FieldID{FLease, FOwner, FTTL, FExpiry}},
	KindLeaseRenew:   {name: "lease.renew", fields: []FieldID{FLease, FOwner, FExpiry, FLeases}},
	KindLeaseRenewed: {name: "lease.renewed", fields: []FieldID{FLease, FDeadline, FHow}},
	KindLeaseExpire:  {name: "lease.expire", fields: []FieldID{FLease, FOwner, FKeys, FRev, FWhy}},
	KindLeaseRevoke:  {name: "lease.revoke", fields: []FieldID{FLease, FOwner, FKeys, FRev, FWhy}},
	KindLeaseLost:    {name: "lease.lost", fields: []FieldID{FLease, FWhy}},
	KindPut:          {name: "put", fields: []FieldID{FKey, FValue, FRev, FCreateRev, FVersion}},
	KindDelete:       {name: "delete", fields: []FieldID{FKey, FRev}},
	KindDenied:       {name: "denied", fields: []FieldID{FWho, FOp, FKey, FWhy}},
	KindHolder:       {name: "lock.holder", fields: []FieldID{FLock, FOwner, FKey, FLeaseTransitions, FResourceVersion, FNodes, FToken, FCreateRev}},
	KindFree:         {name: "lock.free", fields: []FieldID{FLock, FWas, FToken, FValue, FWhy}},
	KindLockDelay:    {name: "lock.delay", fields: []FieldID{FLock, FUntil}},
	KindWatchFire:    {name: "watch.fire", fields: []FieldID{FKey, FWatcher, FType, FWatched}},
	KindSend:         {name: "msg.send", fields: []FieldID{FID, FTo, FMsg, FArrive, FToken, FHeld}},
	KindDrop:         {name: "msg.drop", fields: []FieldID{FID, FTo, FMsg, FWhy}},
	KindWrite:        {name: "write", fields: []FieldID{FFrom, FToken, FValue, FResult, FHighest, FLabel}},
	KindEnqueue:      {name: "enqueue", fields: []FieldID{FFrom, FToken, FIdem, FResult}},
	KindOffset:       {name: "offset.commit", fields: []FieldID{FFrom, FShard, FOffset, FToken, FEntries, FResult, FHighest}},
	KindShardOwn:     {name: "shard.own", fields: []FieldID{FShard, FToken}},
	KindShardDrop:    {name: "shard.drop", fields: []FieldID{FShard, FWhy}},
	KindAction:       {name: "action", fields: []FieldID{FDo, FText}},
	KindActionError:  {name: "action.error", fields: []FieldID{FDo, FWhy}},
	KindNote:         {name: "note", fields: []FieldID{FText}},
	KindPartition:    {name: "net.partition", fields: []FieldID{FA, FB, FDir}},
	KindHeal:         {name: "net.heal", fields: []FieldID{FA, FB}},
	KindHold:         {name: "net.hold", fields: []FieldID{FFrom, FTo, FUntil}},
	KindWait:         {name: "msg.wait", fields: []FieldID{FID, FTo, FMsg, FWhy}},
	KindReconnect:    {name: "net.reconnect", fields: []FieldID{FWaited, FDown}},
	KindSetting:      {name: "setting", fields: []FieldID{FName, FValue, FResource, FMs}},
	KindSessionLost:  {name: "session.lost", fields: []FieldID{FLock, FWhy}},
	KindStale:        {name: "stale.accepted", fields: []FieldID{FFrom, FShard, FToken, FHighest, FOffset, FWasOffset}},
	KindWorkBusy:     {name: "work.busy", fields: []FieldID{FFor}},
	KindRenewal:      {name: "renewal", fields: []FieldID{FLease, FLate, FResult}},
	KindClientState:  {name: "client.state", fields: []FieldID{FState, FCurator, FSession, FWhy}},
	KindRedisSet:     {name: "redis.set", fields: []FieldID{FKey, FValue, FPX, FHow}},
	KindRedisExpire:  {name: "redis.expire", fields: []FieldID{FKey, FValue}},
	KindRedisDel:     {name: "redis.del", fields: []FieldID{FKey, FValue}},
	KindRedisDown:    {name: "redis.down", fields: []FieldID{FWhy}},
	KindRedisUp:      {name: "redis.up", fields: []FieldID{FKeyList}},
	KindRedisJump:    {name: "redis.jump", fields: []FieldID{FAhead}},
	KindMember:       {name: "member", fields: []FieldID{FState, FFor, FWhy}},
	KindLeader:       {name: "raft.leader", fields: []FieldID{FTerm, FRev}},
	KindNoLeader:     {name: "raft.no-leader", fields: []FieldID{FTerm, FWhy}},
	KindLeaseRearm:   {name: "lease.rearm", fields: []FieldID{FLease, FOwner, FExpiry, FWhy}},
	KindRefused:      {name: "member.refuse", fields: []FieldID{FWho, FMsg, FWhy}},
	KindRead:         {name: "read", fields: []FieldID{FLock, FOwner, FRev, FHow, FResult}},
	KindClientMember: {name: "client.member", fields: []FieldID{FMember}},
}

// fields declares each field's key and type.
var fields = [fieldCount]fieldDef{
	FDo:               {key: "do", typ: text},
	FText:             {key: "text", typ: text},
	FWhy:              {key: "why", typ: text},
	FName:             {key: "name", typ: text},
	FValue:            {key: "value", typ: text},
	FResource:         {key: "resource", typ: text},
	FMs:               {key: "ms", typ: millis},
	FFrom:             {key: "from", typ: text},
	FTo:               {key: "to", typ: text},
	FState:            {key: "state", typ: text},
	FCurator:          {key: "curator", typ: text},
	FSession:          {key: "session", typ: text},
	FWho:              {key: "who", typ: text},
	FOp:               {key: "op", typ: text},
	FKey:              {key: "key", typ: text},
	FLease:            {key: "lease", typ: text},
	FOwner:            {key: "owner", typ: text},
	FTTL:              {key: "ttl_ms", typ: millis},
	FExpiry:           {key: "expiry_ms", typ: millis},
	FLeases:           {key: "leases", typ: number},
	FDeadline:         {key: "deadline_ms", typ: millis},
	FHow:              {key: "how", typ: text},
	FKeys:             {key: "keys", typ: number},
	FKeyList:          {key: "keys", typ: text},
	FRev:              {key: "rev", typ: number},
	FLock:             {key: "lock", typ: text},
	FUntil:            {key: "until_ms", typ: millis},
	FWas:              {key: "was", typ: text},
	FWasOffset:        {key: "was", typ: number},
	FToken:            {key: "token", typ: number},
	FLeaseTransitions: {key: "lease_transitions", typ: number},
	FResourceVersion:  {key: "resource_version", typ: number},
	FNodes:            {key: "nodes", typ: number},
	FCreateRev:        {key: "create_rev", typ: number},
	FVersion:          {key: "version", typ: number},
	FID:               {key: "id", typ: number},
	FMsg:              {key: "msg", typ: text},
	FArrive:           {key: "arrive_ms", typ: millis},
	FHeld:             {key: "held_ms", typ: millis},
	FA:                {key: "a", typ: text},
	FB:                {key: "b", typ: text},
	FDir:              {key: "dir", typ: text},
	FWaited:           {key: "waited", typ: number},
	FDown:             {key: "down_ms", typ: millis},
	FShard:            {key: "shard", typ: number},
	FOffset:           {key: "offset", typ: number},
	FEntries:          {key: "entries", typ: number},
	FResult:           {key: "result", typ: text},
	FHighest:          {key: "highest", typ: number},
	FLabel:            {key: "label", typ: text},
	FIdem:             {key: "idem", typ: text},
	FWatcher:          {key: "watcher", typ: text},
	FType:             {key: "type", typ: text},
	FWatched:          {key: "watched", typ: text},
	FFor:              {key: "for_ms", typ: millis},
	FOverdue:          {key: "overdue", typ: number},
	FLate:             {key: "late_ms", typ: millis},
	FAhead:            {key: "ahead_ms", typ: millis},
	FPX:               {key: "px_ms", typ: millis},
	FMember:           {key: "member", typ: text},
	FTerm:             {key: "term", typ: number},
}

// Do is the field do: the action's verb ("" if absent).
func (e *Event) Do() string { return e.Str(FDo) }

// Words is the field text: free text: a note's words, an action as the learner gave it ("" if absent).
func (e *Event) Words() string { return e.Str(FText) }

// Why is the field why: the reason, in the words of the system or the lab ("" if absent).
func (e *Event) Why() string { return e.Str(FWhy) }

// Name is the field name: the setting that changed ("" if absent).
func (e *Event) Name() string { return e.Str(FName) }

// Value is the field value: a value written or stored ("" if absent).
func (e *Event) Value() string { return e.Str(FValue) }

// Resource is the field resource: the protected resource a setting applies to ("" if absent).
func (e *Event) Resource() string { return e.Str(FResource) }

// Amount is the field ms: a setting's length (0 if absent).
func (e *Event) Amount() time.Duration { return time.Duration(e.Num(FMs)) * time.Millisecond }

// From is the field from: the sender, or the state left ("" if absent).
func (e *Event) From() string { return e.Str(FFrom) }

// To is the field to: the receiver, or the state entered ("" if absent).
func (e *Event) To() string { return e.Str(FTo) }

// State is the field state: a client library's connection state ("" if absent).
func (e *Event) State() string { return e.Str(FState) }

// Curator is the field curator: Curator's name for the connection state ("" if absent).
func (e *Event) Curator() string { return e.Str(FCurator) }

// Session is the field session: a session or lease id ("" if absent).
func (e *Event) Session() string { return e.Str(FSession) }

// Who is the field who: the client a refusal answers ("" if absent).
func (e *Event) Who() string { return e.Str(FWho) }

// Op is the field op: the refused operation ("" if absent).
func (e *Event) Op() string { return e.Str(FOp) }

// Key is the field key: a key of the store ("" if absent).
func (e *Event) Key() string { return e.Str(FKey) }

// Lease is the field lease: a lease id ("" if absent).
func (e *Event) Lease() string { return e.Str(FLease) }

// Owner is the field owner: the lease's or lock's owner ("" if absent).
func (e *Event) Owner() string { return e.Str(FOwner) }

// TTL is the field ttl_ms: a lease's time to live (0 if absent).
func (e *Event) TTL() time.Duration { return time.Duration(e.Num(FTTL)) * time.Millisecond }

// Expiry is the field expiry_ms: when a lease runs out, by the coordinator's clock (0 if absent).
func (e *Event) Expiry() time.Duration { return time.Duration(e.Num(FExpiry)) * time.Millisecond }

// Leases is the field leases: how many leases one request renewed (0 if absent).
func (e *Event) Leases() int64 { return e.Num(FLeases) }

// Deadline is the field deadline_ms: the client's own lease deadline (0 if absent).
func (e *Event) Deadline() time.Duration { return time.Duration(e.Num(FDeadline)) * time.Millisecond }

// How is the field how: how it was done (the client call, the command) ("" if absent).
func (e *Event) How() string { return e.Str(FHow) }

// Keys is the field keys: how many keys went with the lease (0 if absent).
func (e *Event) Keys() int64 { return e.Num(FKeys) }

// KeyList is the field keys: the keys a node holds ("" if absent).
func (e *Event) KeyList() string { return e.Str(FKeyList) }

// Rev is the field rev: the store's revision (0 if absent).
func (e *Event) Rev() int64 { return e.Num(FRev) }

// Lock is the field lock: the lock's name ("" if absent).
func (e *Event) Lock() string { return e.Str(FLock) }

// Until is the field until_ms: until when (0 if absent).
func (e *Event) Until() time.Duration { return time.Duration(e.Num(FUntil)) * time.Millisecond }

// Was is the field was: the holder before ("" if absent).
func (e *Event) Was() string { return e.Str(FWas) }

// WasOffset is the field was: the offset before (0 if absent).
func (e *Event) WasOffset() int64 { return e.Num(FWasOffset) }

// Token is the field token: a fencing token (0 if absent).
func (e *Event) Token() int64 { return e.Num(FToken) }

// LeaseTransitions is the field lease_transitions: Kubernetes' count of leader changes (0 if absent).
func (e *Event) LeaseTransitions() int64 { return e.Num(FLeaseTransitions) }

// ResourceVersion is the field resource_version: Kubernetes' object version (0 if absent).
func (e *Event) ResourceVersion() int64 { return e.Num(FResourceVersion) }

// Nodes is the field nodes: how many Redis nodes agreed (0 if absent).
func (e *Event) Nodes() int64 { return e.Num(FNodes) }

// CreateRev is the field create_rev: the revision that created the key (0 if absent).
func (e *Event) CreateRev() int64 { return e.Num(FCreateRev) }

// Version is the field version: how many times the key was written since it was created (0 if absent).
func (e *Event) Version() int64 { return e.Num(FVersion) }

// ID is the field id: a message id (0 if absent).
func (e *Event) ID() int64 { return e.Num(FID) }

// Msg is the field msg: a message's kind ("" if absent).
func (e *Event) Msg() string { return e.Str(FMsg) }

// Arrive is the field arrive_ms: when the message arrives (0 if absent).
func (e *Event) Arrive() time.Duration { return time.Duration(e.Num(FArrive)) * time.Millisecond }

// Held is the field held_ms: how long the network held the message back (0 if absent).
func (e *Event) Held() time.Duration { return time.Duration(e.Num(FHeld)) * time.Millisecond }

// A is the field a: one end of a link ("" if absent).
func (e *Event) A() string { return e.Str(FA) }

// B is the field b: the other end of a link ("" if absent).
func (e *Event) B() string { return e.Str(FB) }

// Dir is the field dir: the direction cut ("" if absent).
func (e *Event) Dir() string { return e.Str(FDir) }

// Waited is the field waited: how many messages waited for the connection (0 if absent).
func (e *Event) Waited() int64 { return e.Num(FWaited) }

// Down is the field down_ms: how long the connection was down (0 if absent).
func (e *Event) Down() time.Duration { return time.Duration(e.Num(FDown)) * time.Millisecond }

// Shard is the field shard: a shard number (0 if absent).
func (e *Event) Shard() int64 { return e.Num(FShard) }

// Offset is the field offset: a committed offset (0 if absent).
func (e *Event) Offset() int64 { return e.Num(FOffset) }

// Entries is the field entries: how many entries a batch held (0 if absent).
func (e *Event) Entries() int64 { return e.Num(FEntries) }

// Result is the field result: what a resource or a renewal decided ("" if absent).
func (e *Event) Result() string { return e.Str(FResult) }

// Highest is the field highest: the highest token seen before (0 if absent).
func (e *Event) Highest() int64 { return e.Num(FHighest) }

// Label is the field label: the writer's label for the write ("" if absent).
func (e *Event) Label() string { return e.Str(FLabel) }

// Idem is the field idem: a job's idempotency key ("" if absent).
func (e *Event) Idem() string { return e.Str(FIdem) }

// Watcher is the field watcher: the process a watch woke ("" if absent).
func (e *Event) Watcher() string { return e.Str(FWatcher) }

// Type is the field type: the watch event's type ("" if absent).
func (e *Event) Type() string { return e.Str(FType) }

// Watched is the field watched: the key or prefix watched ("" if absent).
func (e *Event) Watched() string { return e.Str(FWatched) }

// For is the field for_ms: how long (0 if absent).
func (e *Event) For() time.Duration { return time.Duration(e.Num(FFor)) * time.Millisecond }

// Overdue is the field overdue: how many timers were overdue (0 if absent).
func (e *Event) Overdue() int64 { return e.Num(FOverdue) }

// Late is the field late_ms: how long a renewal waited behind work (0 if absent).
func (e *Event) Late() time.Duration { return time.Duration(e.Num(FLate)) * time.Millisecond }

// Ahead is the field ahead_ms: how far a wall clock jumped (0 if absent).
func (e *Event) Ahead() time.Duration { return time.Duration(e.Num(FAhead)) * time.Millisecond }

// PX is the field px_ms: a Redis key's PX (0 if absent).
func (e *Event) PX() time.Duration { return time.Duration(e.Num(FPX)) * time.Millisecond }

// Member is the field member: a coordinator member ("" if absent).
func (e *Event) Member() string { return e.Str(FMember) }

// Term is the field term: a Raft term (0 if absent).
func (e *Event) Term() int64 { return e.Num(FTerm) }
