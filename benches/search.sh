#!/usr/bin/env bash
# Measures `sow search` by position over the benchmark corpus of benches/corpus.sh (made
# by it when missing), the database form's build (`sow convert --to sqlite`: time, peak
# memory, size) and the same search over the database: wall time, CPU time and peak
# memory (GNU time's maximum resident set size).
#
#   benches/search.sh [DIR] [MEGABYTES]     default: target/bench-corpus, 100
#
# The numbers go into BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-target/bench-corpus}
want_mb=${2:-100}
[ -d "$dir" ] || benches/corpus.sh "$dir" "$want_mb"
cargo build --profile dist --quiet
sow=target/dist/sow
db=target/bench-search.db

measure() {
  local label=$1
  shift
  local t
  t=$( { /usr/bin/time -f '%e %U %S %M' "$@" >/dev/null; } 2>&1 | tail -n 1)
  read -r secs user sys rss <<<"$t"
  awk -v l="$label" -v s="$secs" -v u="$user" -v y="$sys" -v r="$rss" \
    'BEGIN { printf "%-34s %7.2f s | CPU %7.2f s | %7.1f MB peak\n", l, s, u + y, r/1024 }'
}

bytes=$(du -sb "$dir" | cut -f1)
games=$(cat "$dir"/*.pmn | grep -c '^\[Game ')
echo "corpus: $dir, $bytes bytes, $games games"
# A position of the corpus: after ply 20 of the first game of its first file.
first=$(ls "$dir"/*.pmn | head -n 1)
position=$("$sow" show "$first" --game 1 --ply 20 --format pmn)
# A pattern of the default Tsoro board: South's four pits at the left of row a empty.
pattern="?,?,?,?,?,?,?,?/?,?,?,?,?,?,?,?/?,?,?,?,?,?,?,?/0,0,0,0,?,?,?,?"
found=$("$sow" search "$dir" --position "$position" --format json | wc -l)
echo "position (after ply 20 of $first game 1): $found games"
set +e
measure "search --position, PMN"  "$sow" search "$dir" --position "$position" --format json
measure "search --pattern, PMN"   "$sow" search "$dir" --pattern "$pattern" --format json
measure "convert --to sqlite"     "$sow" convert --to sqlite -o "$db" --force "$dir"
echo "database: $(stat -c %s "$db") bytes"
measure "search --position, database" "$sow" search "$db" --position "$position" --format json
measure "search --pattern, database"  "$sow" search "$db" --pattern "$pattern" --format json
