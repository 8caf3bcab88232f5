#!/usr/bin/env bash
# The script the device tool ran on 2026-11-26 (twice), from binaries
# built here (HEAD = 4018a57, old = 4bf70ba with the same benchmark files).
# scripts/manycore now does the same (OLD=4bf70ba; PARTS).
# Device run: bytebuf's distributions suite at -cpu 1,2,4,8,16, the new code
# (HEAD) interleaved with the old (4bf70ba, before the growth plan).
set -u
start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
# more SECONDS: true while fewer than SECONDS have passed since the start.
more() { [ "$(el)" -lt "$1" ]; }
cd "$(dirname "$0")"
m=$PWD
for f in *.gz; do gunzip -f "$f"; done
chmod +x *.test
{
	nproc; grep -m1 'model name' /proc/cpuinfo; uname -r
	cat /sys/fs/cgroup/cpu.max 2>/dev/null; free -g | head -2; go version 2>/dev/null
} >"$OUT/tests.txt" 2>&1
mkdir -p run && cd run
new=$m/benchmarks.test old=$m/old-benchmarks.test
cpus=${CPUS:-1,2,4,8,16}
b() { "$@" -test.run '^$' -test.cpu "${CPU:-$cpus}"; }
# 1. One pass (65536 ops), the suite: new, all pools; old, bytebuf. 6 rounds.
for i in 1 2 3 4 5 6; do
	more 140 || break
	timeout 60 $new -test.run '^$' -test.bench '^BenchmarkDist$' -test.benchtime 65536x -test.cpu $cpus >>"$OUT/dist.txt"
	timeout 30 $old -test.run '^$' -test.bench '^BenchmarkDist$/.*/.*/impl=bytebuf$' -test.benchtime 65536x -test.cpu $cpus >>"$OUT/distold.txt"
	echo "dist round $i at $(el)s" >&2
done
# 2. The untuned shapes, likewise.
for i in 1 2 3 4 5 6; do
	more 280 || break
	timeout 60 $new -test.run '^$' -test.bench '^BenchmarkDistUntuned$' -test.benchtime 65536x -test.cpu $cpus >>"$OUT/untuned.txt"
	timeout 30 $old -test.run '^$' -test.bench '^BenchmarkDistUntuned$/.*/.*/impl=bytebuf$' -test.benchtime 65536x -test.cpu $cpus >>"$OUT/untunedold.txt"
	echo "untuned round $i at $(el)s" >&2
done
# 3. Steady state, parallel, eight passes, -cpu 4,8,16: new all, old bytebuf.
for i in 1 2 3; do
	more 330 || break
	timeout 40 $new -test.run '^$' -test.bench '^BenchmarkDist$/.*/mode=parallel/' -test.benchtime 524288x -test.cpu 4,8,16 >>"$OUT/steady.txt"
	timeout 20 $old -test.run '^$' -test.bench '^BenchmarkDist$/.*/mode=parallel/impl=bytebuf$' -test.benchtime 524288x -test.cpu 4,8,16 >>"$OUT/steadyold.txt"
	echo "steady round $i at $(el)s" >&2
done
# 4. The tests at 1..16 Ps, and under the race detector at 16.
if more 350; then
	mkdir -p "$m/src/root/bytebuf"
	{
		(cd "$m/src/root/bytebuf" && timeout 45 $m/bytebuf.test -test.cpu 1,4,8,16 && echo "bytebuf: ok")
		(cd "$m/src/root/bytebuf" && timeout 75 $m/bytebuf-race.test -test.cpu 16 && echo "bytebuf -race: ok")
	} >>"$OUT/tests.txt" 2>&1
	echo "tests at $(el)s: $(grep -c ': ok$' "$OUT/tests.txt") of 2 ok" >&2
fi
# 5. The suite in a program that allocates besides, one process per P count.
for c in 1 4 16; do
	more 450 || break
	timeout 40 $new -test.run '^$' -test.bench '^BenchmarkDistGarbage$' -test.benchtime 65536x -test.cpu $c >>"$OUT/extra.txt"
	echo "garbage $c at $(el)s" >&2
done
# 6. Paired, serial.
for i in 1 2 3 4 5 6; do
	more 470 || break
	timeout 20 $new -test.run '^$' -test.bench '^BenchmarkDistPaired$' -test.benchtime 200x >>"$OUT/extra.txt"
done
echo "done at $(el)s" >&2
