#!/usr/bin/env bash
# Benchmarks `shopy status --watch` in a network namespace of its own:
#   (a) how soon a link going down or up is reported: the median delay from just before
#       `ip link set … down|up` to the `time` of the watch line that reports it (goal ≤ 200 ms);
#   (b) how much CPU the watch uses while nothing changes: utime+stime from /proc/PID/stat over
#       10 idle seconds (goal ≤ 1% of one core).
#
# Needs Linux, root and iproute2. Builds shopy in release and runs .build/release/shopy.
# Usage: Benchmarks/network-bench.sh [toggles]   (default 10: 10 downs and 10 ups)
set -euo pipefail

TOGGLES=${1:-10}
IDLE_SECONDS=10
LATENCY_GOAL_MS=200
CPU_GOAL_PERCENT=1

cd "$(dirname "$0")/.."

if [[ $(uname -s) != Linux ]]; then echo "network-bench: Linux only" >&2; exit 2; fi
if [[ $EUID -ne 0 ]]; then echo "network-bench: needs root (it creates a network namespace)" >&2; exit 2; fi
if ! command -v ip >/dev/null; then echo "network-bench: needs iproute2 ('ip')" >&2; exit 2; fi

echo "Building shopy (release)…"
swift build -c release --product shopy >/dev/null
SHOPY=$PWD/.build/release/shopy

NS=shopy-bench-$$
INSIDE=sb$$n        # interface names are at most 15 bytes
OUTSIDE=sb$$h
WORK=$(mktemp -d)
WATCH_PID=

cleanup() {
    if [[ -n $WATCH_PID ]]; then kill -TERM "$WATCH_PID" 2>/dev/null || true; wait "$WATCH_PID" 2>/dev/null || true; fi
    ip netns del "$NS" 2>/dev/null || true
    ip link del "$OUTSIDE" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# The namespace: lo, and one end of a veth pair with an address and a default route (the
# gateway does not exist; nothing leaves the machine).
ip netns add "$NS"
ip link add "$OUTSIDE" type veth peer name "$INSIDE"
ip link set "$INSIDE" netns "$NS"
ip link set "$OUTSIDE" up
ip -n "$NS" link set lo up
ip -n "$NS" link set "$INSIDE" up
ip -n "$NS" addr add 10.213.0.2/24 dev "$INSIDE"
ip -n "$NS" route add default via 10.213.0.1

# `ip netns exec` execs shopy, so $! is shopy's pid.
ip netns exec "$NS" "$SHOPY" status --watch --format jsonl --no-probe --verbose >"$WORK/watch.jsonl" 2>"$WORK/watch.err" &
WATCH_PID=$!

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# Waits (up to 3 s) for the first line after line $1 that contains $2; prints it.
wait_line() {
    local after=$1 pattern=$2 deadline=$(( $(now_ms) + 3000 )) found
    while (( $(now_ms) < deadline )); do
        found=$(tail -n +"$(( after + 1 ))" "$WORK/watch.jsonl" | grep -m1 -F -- "$pattern" || true)
        if [[ -n $found ]]; then echo "$found"; return 0; fi
        sleep 0.005
    done
    echo "network-bench: no line with $pattern within 3 s; watch output:" >&2
    cat "$WORK/watch.jsonl" "$WORK/watch.err" >&2
    return 1
}

wait_line 0 '"event":"initial"' >/dev/null
grep -m1 'path monitor:' "$WORK/watch.err" | sed 's/^shopy: path monitor: /monitor: /' || true

# (a) Latency of link down / up.
delays=()
for (( i = 0; i < TOGGLES; i++ )); do
    for action in down up; do
        sleep 0.2   # let the previous burst settle: each toggle is measured on its own
        lines=$(wc -l <"$WORK/watch.jsonl")
        before=$(date +%s%N)
        ip -n "$NS" link set "$INSIDE" "$action"
        line=$(wait_line "$lines" "\"change\":\"link-$action\"")
        stamp=$(sed -E 's/^\{"time":"([^"]+)".*/\1/' <<<"$line")
        reported=$(date -d "$stamp" +%s%3N)
        delays+=( $(( reported - before / 1000000 )) )
    done
done
sorted=($(printf '%s\n' "${delays[@]}" | sort -n))
count=${#sorted[@]}
if (( count % 2 )); then
    median=${sorted[$(( count / 2 ))]}
else
    median=$(( (sorted[count / 2 - 1] + sorted[count / 2]) / 2 ))
fi

# (b) CPU over idle seconds. Fields 14 and 15 of /proc/PID/stat (after the command name in
# parentheses: the 12th and 13th) are utime and stime in clock ticks.
ticks() { sed -E 's/^.*\) //' "/proc/$WATCH_PID/stat" | awk '{ print $12 + $13 }'; }
HZ=$(getconf CLK_TCK)
sleep 1
start_ticks=$(ticks)
start_ns=$(date +%s%N)
sleep "$IDLE_SECONDS"
end_ticks=$(ticks)
end_ns=$(date +%s%N)
cpu=$(awk -v t=$(( end_ticks - start_ticks )) -v hz="$HZ" -v ns=$(( end_ns - start_ns )) \
    'BEGIN { printf "%.2f", 100 * (t / hz) / (ns / 1e9) }')

verdict() { if [[ $1 == 1 ]]; then echo "ok"; else echo "MISSED"; fi; }
latency_ok=$(( median <= LATENCY_GOAL_MS ? 1 : 0 ))
cpu_ok=$(awk -v c="$cpu" -v g="$CPU_GOAL_PERCENT" 'BEGIN { print (c <= g) ? 1 : 0 }')

echo
echo "shopy status --watch --format jsonl --no-probe (release): $TOGGLES down/up cycles, $IDLE_SECONDS idle seconds"
printf '  link change → watch line: median %d ms (min %d, max %d; n=%d)   goal ≤ %d ms   %s\n' \
    "$median" "${sorted[0]}" "${sorted[$(( count - 1 ))]}" "$count" "$LATENCY_GOAL_MS" "$(verdict "$latency_ok")"
printf '  idle CPU: %s%% of one core (%d ticks at %d Hz over %d s)   goal ≤ %s%%   %s\n' \
    "$cpu" "$(( end_ticks - start_ticks ))" "$HZ" "$IDLE_SECONDS" "$CPU_GOAL_PERCENT" "$(verdict "$cpu_ok")"
echo "  all delays (ms): ${delays[*]}"
(( latency_ok && cpu_ok ))
