#!/bin/sh
# bench.sh runs the speed benchmarks of README's "bench" section and prints
# their figures as one Markdown table. Benchmarks only: nothing is timed by
# a test. Takes about 3 minutes (the SSH load test most of it); with
# --quick it leaves out the SSH load test.
#
#   sh docs/bench.sh [--quick]
set -eu
cd "$(dirname "$0")/.."
quick=${1:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bench() { # package, pattern, extra go test flags...
	pkg=$1 pat=$2
	shift 2
	go test -run '^$' -bench "$pat" "$@" "$pkg" 2>&1 | grep '^Benchmark' || true
}

# metric NAME UNIT: the value reported for UNIT on the benchmark line whose
# name starts with NAME, from the file of benchmark lines on stdin.
metric() {
	awk -v name="$1" -v unit="$2" '
		index($1, name) == 1 { for (i = 3; i < NF; i += 2) if ($(i + 1) == unit) { print $i; exit } }'
}

fmt_num() { awk -v x="$1" 'BEGIN { if (x == "") print "?"; else printf "%.0f\n", x }'; }

echo "building and writing a 1,000,000-event journal..." >&2
go build -o "$tmp/bhtop" .
"$tmp/bhtop" gen --events 1000000 >"$tmp/j.jsonl"

echo "value, state, journal benchmarks..." >&2
{
	bench ./value/ '^BenchmarkOf$|^BenchmarkEquity$' -benchmem -count 3
	bench ./state/ '^BenchmarkIngest$|^BenchmarkIngestParallel$|^BenchmarkIngestKnownOrders$|^BenchmarkSnapshot$|^BenchmarkSnapshotReaders$' -benchmem
} >"$tmp/b.txt"

echo "dashboard: frames, idle CPU, start to first live frame..." >&2
{
	bench ./ui/ '^BenchmarkView$' -benchmem -benchtime 3000x
	bench ./ui/ '^BenchmarkNewSnapshot$' -benchmem
	bench ./cli/ '^BenchmarkDashboardIdle$|^BenchmarkDashboardStart$' -benchtime 3x
} >>"$tmp/b.txt"

# replay --dump, whole process: the best of 3 runs (wall, and user+sys CPU).
best=""
for _ in 1 2 3; do
	/usr/bin/time -f '%e %U %S' -o "$tmp/t.txt" "$tmp/bhtop" replay --dump "$tmp/j.jsonl" >/dev/null
	line=$(awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' "$tmp/t.txt")
	if [ -z "$best" ] || awk -v a="$line" -v b="$best" 'BEGIN { split(a, x, " "); split(b, y, " "); exit !(x[1] < y[1]) }'; then
		best=$line
	fi
done
replay_wall=${best% *} replay_cpu=${best#* }

if [ "$quick" != "--quick" ]; then
	echo "SSH load test (1, 50, 200 viewers at 100 and 1,000 events/s)..." >&2
	bench ./serve/ '^BenchmarkCapacity$' -benchtime 3x -timeout 20m >>"$tmp/b.txt"
fi

m() { metric "$1" "$2" <"$tmp/b.txt"; }

echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
echo
echo "| figure | now | goal |"
echo "|---|---|---|"
echo "| value.Of: 1,000 assets + 500 positions (\`BenchmarkOf\`, ./value) | $(fmt_num "$(m BenchmarkOf- ns/op)") ns wall, $(m BenchmarkOf- cpu-µs/op) µs CPU, $(m BenchmarkOf- allocs/op) allocs | ≤ 100 µs |"
echo "| value.Equity, the equity alone, same account (\`BenchmarkEquity\`, ./value) | $(fmt_num "$(m BenchmarkEquity- ns/op)") ns wall, $(m BenchmarkEquity- cpu-µs/op) µs CPU, $(m BenchmarkEquity- allocs/op) allocs | ≤ 100 µs |"
echo "| replay --dump of 1,000,000 \`gen\` events, whole process (best of 3) | $replay_wall s wall, $replay_cpu s CPU | 2× today's speed |"
echo "| decode + fold in-process, journal decoded on every core (\`BenchmarkIngestParallel\`, ./state) | $(fmt_num "$(m BenchmarkIngestParallel events/s)") events/s wall, $(fmt_num "$(m BenchmarkIngestParallel cpu-ns/event)") CPU-ns/event | ≥ 3 M events/s |"
echo "| decode + fold, one core, frames in memory (\`BenchmarkIngest\`) | $(fmt_num "$(m 'BenchmarkIngest-' events/s)") events/s wall, $(fmt_num "$(m 'BenchmarkIngest-' cpu-ns/event)") CPU-ns/event | |"
echo "| update of a known order (\`BenchmarkIngestKnownOrders\`) | $(fmt_num "$(m BenchmarkIngestKnownOrders ns/event)") ns wall, $(fmt_num "$(m BenchmarkIngestKnownOrders cpu-ns/event)") CPU-ns, $(m BenchmarkIngestKnownOrders allocs/op) allocs | ≤ 250 ns, 0 allocs |"
for c in 1 100; do
	goal="" # the goal is for one change; 100 changed rows are built anew
	[ "$c" = 1 ] && goal="≤ 50 µs"
	echo "| snapshot at 20,000 orders, $c changed (\`BenchmarkSnapshot/changes=$c\`) | $(fmt_num "$(m "BenchmarkSnapshot/changes=$c-" ns/snapshot)") ns wall, $(fmt_num "$(m "BenchmarkSnapshot/changes=$c-" cpu-ns/snapshot)") CPU-ns | $goal |"
done
echo "| memory a lagging reader keeps alive at 20,000 orders, 100 readers (\`BenchmarkSnapshotReaders\`) | $(fmt_num "$(m "BenchmarkSnapshotReaders/readers=100-" retained-B/reader)") B/reader | not growing with readers |"
for v in history=0 history=100000 no-market changed=3; do
	echo "| a dashboard frame, 10,000 open orders at 200×60 (\`BenchmarkView/$v\`, ./ui) | $(fmt_num "$(m "BenchmarkView/$v-" ns/op)") ns wall, $(m "BenchmarkView/$v-" cpu-µs/op) µs CPU, $(m "BenchmarkView/$v-" allocs/op) allocs | ≤ 30 µs, ≤ 100 allocs |"
done
echo "| a dashboard's Update for a new state snapshot, 10,000 open orders sorted by price (\`BenchmarkNewSnapshot\`, ./ui) | $(fmt_num "$(m BenchmarkNewSnapshot- ns/op)") ns wall, $(m BenchmarkNewSnapshot- allocs/op) allocs | |"
echo "| idle dashboard, quiet stream and quote socket (\`BenchmarkDashboardIdle\`, ./cli) | $(m BenchmarkDashboardIdle %core) % of a core, $(fmt_num "$(m BenchmarkDashboardIdle B/s)") B/s drawn | ≤ 0.5 % |"
echo "| start to first live frame, \`bhtop\` on its own simulator (\`BenchmarkDashboardStart\`, ./cli) | $(m BenchmarkDashboardStart ms-to-live) ms | ≤ 300 ms |"
if [ "$quick" != "--quick" ]; then
	for r in 100 1000; do
		for v in 1 50 200; do
			n="BenchmarkCapacity/viewers=$v/events=$r-"
			echo "| SSH: $v viewers at $r events/s (\`BenchmarkCapacity\`, ./serve) | CPU $(m "$n" cpu-%) % of a core (clients and simulator included), $(m "$n" frames/viewer/s) frames/viewer/s, $(fmt_num "$(m "$n" cpu-µs/frame)") CPU-µs/frame, $(fmt_num "$(m "$n" B/viewer/s)") B/viewer/s, frame latency p50 $(m "$n" p50-ms) ms / p99 $(m "$n" p99-ms) ms, $(fmt_num "$(m "$n" heapB/viewer)") heap B/viewer | 200 viewers < 1 core at 100/s |"
		done
	done
	for f in 8 4; do
		n="BenchmarkCapacity/viewers=200/events=100/fps=$f-"
		echo "| SSH: 200 viewers at 100 events/s, \`serve --fps $f\` | CPU $(m "$n" cpu-%) % of a core, $(m "$n" frames/viewer/s) frames/viewer/s, $(fmt_num "$(m "$n" cpu-µs/frame)") CPU-µs/frame, $(fmt_num "$(m "$n" B/viewer/s)") B/viewer/s, p50 $(m "$n" p50-ms) ms / p99 $(m "$n" p99-ms) ms | 200 viewers < 1 core at 100/s |"
	done
fi
