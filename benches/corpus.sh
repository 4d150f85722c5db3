#!/usr/bin/env bash
# Generates the benchmark corpus with `sow generate` (deterministic: fixed seeds) and
# measures end-to-end `sow validate`, `sow stats` and `sow plot` on it: wall time, MB/s,
# games/s and peak memory (GNU time's maximum resident set size).
#
#   benches/corpus.sh [DIR] [MEGABYTES]     default: target/bench-corpus, 100
#
# The numbers go into BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-target/bench-corpus}
want_mb=${2:-100}
cargo build --profile dist --quiet
sow=target/dist/sow

mkdir -p "$dir"
configs=(
  "Tsoro||"
  "Tsoro|4x12|heads=1 head-bonus=yes"
  "Nsolo||"
  "Nsolo|4x36|bonus=hole"
  "Kiothi||"
  "Kiothi||start=6x5 leftmost=chain"
  "BaoLaKimasai||"
)
size() { du -sb "$dir" | cut -f1; }
seed=1
while [ "$(size)" -lt $((want_mb * 1000 * 1000)) ]; do
  for k in "${!configs[@]}"; do
    IFS='|' read -r game board rules <<<"${configs[$k]}"
    # The configuration's number is in the name: two configurations of one game must
    # not share a file, or the second would never be generated.
    out="$dir/$game-c$k-$seed.pmn"
    [ -f "$out" ] && continue
    args=(generate --game "$game" --games 200 --seed "$seed" --rules "$rules" -o "$out")
    [ -n "$board" ] && args+=(--board "$board")
    "$sow" "${args[@]}"
  done
  seed=$((seed + 1))
done
bytes=$(size)
games=$(cat "$dir"/*.pmn | grep -c '^\[Game ')
echo "corpus: $dir, $bytes bytes, $games games, $(ls "$dir" | wc -l) files"

measure() {
  local label=$1
  shift
  local t
  # GNU time prints "elapsed-seconds user-seconds system-seconds max-rss-KiB" as its
  # last line. CPU time (user + system) is what a busy, shared machine does not inflate:
  # MB per CPU second is the throughput per core.
  t=$( { /usr/bin/time -f '%e %U %S %M' "$@" >/dev/null; } 2>&1 | tail -n 1)
  read -r secs user sys rss <<<"$t"
  awk -v l="$label" -v s="$secs" -v u="$user" -v y="$sys" -v r="$rss" -v b="$bytes" -v g="$games" \
    'BEGIN { c = u + y; printf "%-22s %6.2f s %6.1f MB/s %7.0f games/s | CPU %6.2f s %6.1f MB/s per CPU s | %6.1f MB peak\n", l, s, b/1e6/s, g/s, c, b/1e6/c, r/1024 }'
}
set +e
measure "validate, 1 thread"  "$sow" validate -j 1 --format json "$dir"
measure "validate, all cores" "$sow" validate --format json "$dir"
measure "stats --per ply"     "$sow" stats --per ply "$dir"
measure "stats --per game"    "$sow" stats --per game "$dir"
measure "twins"               "$sow" twins "$dir"
# Material is of one kind (Kiothi's is its prisons): the figure of the other games, its
# MB/s and games/s counted over their files.
all=("$bytes" "$games")
bytes=$(cat "$dir"/[!K]*.pmn | wc -c)
games=$(cat "$dir"/[!K]*.pmn | grep -c '^\[Game ')
measure "plot material, no Kiothi" "$sow" plot --kind material -o /tmp/sow-bench-material.svg --force "$dir"/[!K]*.pmn
bytes=${all[0]} games=${all[1]}
