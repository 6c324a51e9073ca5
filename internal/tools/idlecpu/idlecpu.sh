#!/usr/bin/env bash
# Prints the CPU the desktop program uses while nothing moves: a lesson open
# and paused, no input, under Xvfb (software GL, so drawing shows up as CPU
# of the process itself). It waits SETTLE seconds (default 20: under Xvfb
# the first frames are slow) for start-up to end and the lab to go idle, then
# reads the process's user+system time over a window of seconds.
#
#   internal/tools/idlecpu/idlecpu.sh [BINARY] [SECONDS]
set -euo pipefail
bin=${1:-}
secs=${2:-10}
tmp=$(mktemp -d); trap 'kill "$pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
if [ -z "$bin" ]; then
  go build -o "$tmp/leaselab" ./cmd/leaselab
  bin="$tmp/leaselab"
fi
xvfb-run -a -s "-screen 0 1920x1080x24" "$bin" --lesson fenced-writes --progress "$tmp/progress.json" >/dev/null 2>&1 &
pid=$!
sleep "${SETTLE:-20}"
# The xvfb-run wrapper's child is the program.
prog=$(pgrep -P "$pid" -f "$bin" | head -1 || true)
[ -n "$prog" ] || prog=$(pgrep -f "^$bin --lesson" | head -1)
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
a=$(ticks "$prog"); sleep "$secs"; b=$(ticks "$prog")
awk -v a="$a" -v b="$b" -v hz="$hz" -v s="$secs" 'BEGIN{printf "idle desktop CPU %5.1f %% of one core (paused lesson, %d s, Xvfb)\n", 100*(b-a)/hz/s, s}'
