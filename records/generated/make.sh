#!/bin/sh
# Regenerates the generated corpus of records/generated/ byte for byte.
# Run from the repository root: sh records/generated/make.sh
# The commands are the ones listed in records/generated/README.md; tests/records.rs
# reads the `gen` lines below and checks that each file is what its command writes.
set -eu
cargo build --release --quiet
SOW=${SOW:-target/release/sow}
DIR=records/generated

gen() {
    file=$1
    shift
    "$SOW" generate "$@" -o "$DIR/$file" --force
}

gen tsoro-4x8-random.pmn --game Tsoro --board 4x8 --games 100 --seed 1 --player random
gen tsoro-4x12-heads1-graded-greedy.pmn --game Tsoro --board 4x12 --rules "heads=1 bonus=5,3,2" --games 100 --seed 2 --player greedy
gen tsoro-4x21-headbonus-random.pmn --game Tsoro --rules "head-bonus=yes" --games 100 --seed 3 --player random
gen nsolo-4x8-random.pmn --game Nsolo --games 100 --seed 1 --player random
gen nsolo-4x12-hole-greedy.pmn --game Nsolo --board 4x12 --rules "bonus=hole" --games 100 --seed 2 --player greedy
gen nsolo-4x8-ccw-nobonus-random.pmn --game Nsolo --rules "bonus=none sow=ccw" --games 100 --seed 3 --player random
gen kiothi-random.pmn --game Kiothi --games 100 --seed 1 --player random
gen kiothi-chain-6x5-greedy.pmn --game Kiothi --rules "start=6x5 leftmost=chain" --games 100 --seed 2 --player greedy
gen kiothi-5x5-random.pmn --game Kiothi --rules "start=5x5" --games 100 --seed 3 --player random
gen bao-la-kimasai-random.pmn --game BaoLaKimasai --games 150 --seed 1 --player random
gen bao-la-kimasai-greedy.pmn --game BaoLaKimasai --games 150 --seed 2 --player greedy
