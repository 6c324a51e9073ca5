#!/usr/bin/env bash
# The desktop program at rest (issue 17): for the menu and for a paused
# lesson, at 1280x800 under Xvfb (software GL, so drawing shows up as CPU of
# the process itself), the CPU it uses while nothing moves and the memory it
# holds; then the same after a resize round trip (1280x800 -> 900x600 ->
# 1280x800). Each figure is checked against issue 17's target: idle CPU
# <= 5 % of one core, resident memory <= 300 MB. The exit status is 1 when
# any figure is over its target (2 when the measurement could not be made).
#
# CPU is the process's user+system time (fields 14 and 15 of /proc/PID/stat)
# over SECONDS (default 10) after SETTLE seconds (default 30: under Xvfb the
# first frames are slow) of no input. Memory is VmRSS (resident now) and
# VmHWM (the most it was resident at once) from /proc/PID/status.
#
#   internal/tools/idlecpu/idlecpu.sh [BINARY] [SECONDS]
#
# Needs xvfb-run and, for the resize, xdotool (apt-get install -y xvfb xdotool).
set -euo pipefail
bin=${1:-}
secs=${2:-10}
settle=${SETTLE:-30}
for cmd in xvfb-run xdotool; do
  command -v "$cmd" >/dev/null || { echo "idlecpu: $cmd is missing: apt-get install -y xvfb xdotool" >&2; exit 2; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ -z "$bin" ]; then
  go build -o "$tmp/leaselab" ./cmd/leaselab
  bin="$tmp/leaselab"
fi
bin=$(realpath "$bin")

# The measurement runs inside the Xvfb session, so that xdotool reaches the
# program's window on the same display.
cat >"$tmp/inner.sh" <<'EOF'
set -uo pipefail
bin=$1 secs=$2 settle=$3 tmp=$4
hz=$(getconf CLK_TCK)
over=0
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
kb() { awk -v f="$2:" '$1 == f {print $2}' "/proc/$1/status"; }
sample() { # sample PID LABEL
  local a b rss hwm
  a=$(ticks "$1"); sleep "$secs"; b=$(ticks "$1")
  rss=$(kb "$1" VmRSS); hwm=$(kb "$1" VmHWM)
  awk -v a="$a" -v b="$b" -v hz="$hz" -v s="$secs" -v rss="$rss" -v hwm="$hwm" -v what="$2" 'BEGIN{
    cpu = 100*(b-a)/hz/s; ok = (cpu <= 5 && rss/1024 <= 300) ? "ok" : "OVER TARGET"
    printf "%-28s CPU %6.1f %% of one core   RSS %6.0f MB   HWM %6.0f MB   %s\n", what, cpu, rss/1024, hwm/1024, ok
    exit ok == "ok" ? 0 : 1 }' || over=1
}
measure() { # measure LABEL ARGS...
  local what=$1; shift
  "$bin" --width 1280 --height 800 --progress "$tmp/progress-$what.json" "$@" >"$tmp/$what.log" 2>&1 &
  local pid=$! win=""
  sleep "$settle"
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "idlecpu: the program exited early:"; cat "$tmp/$what.log"; exit 2
  fi
  sample "$pid" "$what"
  win=$(xdotool search --sync --onlyvisible --pid "$pid" 2>/dev/null | head -1)
  if [ -z "$win" ]; then
    echo "idlecpu: no window found for the program"; kill "$pid"; exit 2
  fi
  xdotool windowsize "$win" 900 600; sleep 3
  xdotool windowsize "$win" 1280 800; sleep "$settle"
  sample "$pid" "$what, after a resize"
  kill "$pid"; wait "$pid" 2>/dev/null || true
}
measure menu
measure paused-lesson --lesson fenced-writes
exit "$over"
EOF
echo "desktop at rest, 1280x800 under Xvfb; target CPU <= 5 % of one core, RSS <= 300 MB ($secs s after $settle s still)"
xvfb-run -a -s "-screen 0 1920x1080x24" bash "$tmp/inner.sh" "$bin" "$secs" "$settle" "$tmp"
