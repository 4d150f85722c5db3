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
cargo build --release --quiet
sow=target/release/sow

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
    # not share a file (they did, and the second was never generated).
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
  # GNU time prints "elapsed-seconds max-rss-KiB" as its last line.
  t=$( { /usr/bin/time -f '%e %M' "$@" >/dev/null; } 2>&1 | tail -n 1)
  local secs=${t% *} rss=${t#* }
  awk -v l="$label" -v s="$secs" -v r="$rss" -v b="$bytes" -v g="$games" \
    'BEGIN { printf "%-28s %7.2f s %8.1f MB/s %9.0f games/s %7.1f MB peak\n", l, s, b/1e6/s, g/s, r/1024 }'
}
set +e
measure "validate, 1 thread"  "$sow" validate -j 1 --format json "$dir"
measure "validate, all cores" "$sow" validate --format json "$dir"
measure "stats --per ply"     "$sow" stats --per ply "$dir"
measure "stats --per game"    "$sow" stats --per game "$dir"
measure "plot --kind material" "$sow" plot --kind material -o /tmp/sow-bench-material.svg --force "$dir"
