// Package explore is the break finder: it searches a world's fault
// timings for the simplest schedule that breaks an invariant.
//
// An Invariant says what must never happen (NoStaleWrite, OneOwnerPerShard,
// ...); Bounds say which faults to try (kinds, processes, a grid of starts
// and lengths; ParseBounds reads them as a learner types them); a Problem
// joins a world, an invariant and bounds, and an Explorer searches it, a
// budget at a time or to the end (on every core). A Target is a named
// problem the lessons declare.
//
// The explorer searches over *timing*: when a fault starts and how long it
// lasts. Given a world, an invariant and bounds, it runs every fault
// schedule in the bounds (or a seeded random sample of them) and returns
// the simplest one that breaks the invariant — fewest faults, then
// earliest, then shortest — as an action log that replays the failure
// exactly. When none does, its report says what was covered.
//
// Exhaustive search shares prefixes: the world is simulated once up to each
// fault's start and cloned there; a pause is applied with the longest
// length in the bounds and the paused world advanced one grid step at a
// time, each step cloned and resumed (the clone's pending resume is moved
// to that instant, which leaves it exactly as if it had been paused for
// that length). So a schedule costs one clone and the run after its last
// fault, not a run from time zero.
package explore
