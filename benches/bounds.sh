#!/usr/bin/env bash
# Time and peak memory of every command on inputs that could grow without bound: a
# corpus (made by benches/corpus.sh), one game of 5 million plies, one game whose
# comment is 500 MiB, /dev/zero and /dev/urandom. One line a run: elapsed seconds, CPU
# seconds (user + system), peak resident memory (GNU time's), exit status ("cut": stopped
# at the limit of CPU seconds, 600 a run, 30 for /dev/zero and /dev/urandom; a CPU limit,
# not a wall-clock one, so that a busy machine stretches a run without cutting it sooner).
# The numbers go into BENCHMARKS.md, "Bounds and load".
#
#   benches/bounds.sh SOW LABEL CORPUS_DIR [WORK_DIR]
set -uo pipefail
sow=$1 label=$2 c=$3
d=${4:-/tmp/sow-bounds}
out=$d/out-$label
mkdir -p "$out"
game=$d/long.pmn
comment=$d/comment.pmn
if [ ! -f "$game" ]; then
  # `N. a3 d10` for N up to 2,500,000: the replay stops at ply 3, every ply is read.
  { printf '[Game "Tsoro"]\n\n'
    awk 'BEGIN { for (n = 1; n <= 2500000; n++) { printf "%d. a3 d10 ", n; if (n % 8 == 0) print "" } print "*" }'
  } >"$game"
fi
if [ ! -f "$comment" ]; then
  { printf '[Game "Tsoro"]\n\n1. a3 {'; head -c 524288000 /dev/zero | tr '\0' x; printf '} *\n'; } >"$comment"
fi
m() {
  local what=$1
  shift
  /usr/bin/time -o "$out/time" -f '%e %U %S %M %x' \
    bash -c 'ulimit -t "$0"; exec timeout "$(($0 * 10))" "$@"' "$limit" "$@" >/dev/null 2>"$out/last.err"
  read -r secs user sys rss status < <(tail -n 1 "$out/time")
  grep -q "terminated by signal" "$out/time" && status=cut
  awk -v w="$what" -v l="$label" -v s="$secs" -v u="$user" -v y="$sys" -v r="$rss" -v x="$status" \
    'BEGIN { printf "%-8s %-42s %8.2f s %8.2f CPU s %8.0f MB  exit %s\n", l, w, s, u + y, r / 1024, x }'
}
limit=600
one=$(ls "$c"/*.pmn | head -1)
mkdir -p "$d/subset"
ls "$c"/*.pmn | head -14 | xargs -I{} ln -sf {} "$d/subset/"
m "corpus: validate" "$sow" validate --format json "$c"
m "corpus: stats --per game" "$sow" stats --per game "$c"
m "corpus: stats --per ply" "$sow" stats --per ply "$c"
m "corpus: plot --kind laps" "$sow" plot --kind laps -o "$out/p.svg" --force "$c"
m "corpus: convert --to pmn" "$sow" convert --to pmn "$c"
m "corpus: convert --to jsonl" "$sow" convert --to jsonl "$c"
m "corpus subset: view" "$sow" view -o "$out/v.html" --force "$d/subset"
m "corpus file: repair" "$sow" repair "$one" -o "$out/r.pmn" --force
m "corpus file: show" "$sow" show "$one" --game 200
for input in "$game" "$comment" /dev/zero /dev/urandom; do
  case $input in /dev/*) limit=30 ;; *) limit=600 ;; esac
  n=$(basename "$input")
  m "$n: validate" "$sow" validate "$input"
  m "$n: stats --per game" "$sow" stats --per game "$input"
  m "$n: stats --per ply" "$sow" stats --per ply "$input"
  m "$n: plot" "$sow" plot -o "$out/p.svg" --force "$input"
  m "$n: convert --to pmn" "$sow" convert --to pmn "$input"
  m "$n: convert --to jsonl" "$sow" convert --to jsonl "$input"
  m "$n: show" "$sow" show "$input"
  m "$n: view" "$sow" view -o "$out/v.html" --force "$input"
  m "$n: repair" "$sow" repair "$input" -o "$out/r.pmn" --force
done
