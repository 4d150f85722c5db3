//! A std-only mutation fuzzer, for machines without cargo-fuzz (see fuzz/README.md). It
//! mutates the test inputs at random and checks that reading never panics and that what
//! is read writes, reads back and writes again to the same bytes; and that no mutated
//! record breaks any command (see `every_command`).
//!
//! `cargo test` runs a few thousand iterations of the reader and fifty of each command;
//! `SOW_FUZZ_ITERATIONS=n` and `SOW_FUZZ_COMMANDS=n` run more, and `SOW_FUZZ_SEED=n`
//! another sequence.

use std::path::Path;

use sow::pmn::{parse_bytes, parse_str, write_game};

mod every_command;
mod xorshift;

use xorshift::Rng;

const TOKENS: &[&[u8]] = &[
    b"{",
    b"}",
    b"(",
    b")",
    b"[",
    b"]",
    b"\"",
    b"\\",
    b"\n[Game \"Tsoro\"]\n",
    b"\r\n",
    b"\n",
    b"\0",
    b"\xff",
    b"\xfe",
    b"99999999999",
    b"1-0",
    b"0-1",
    b"1/2-1/2",
    b"*",
    b";",
    b"$",
    b"x",
    b":",
    b"#",
    b",",
    b">",
    b"-",
    b"!?",
    b"12.",
    b"3...",
    b"[%stones 1 2]",
    b"a0",
    b"z9",
    b"d99",
    b"\xc3\xa9",
    b"\xef\xbb\xbf",
    b"\n\n",
    b" ",
];

const SEEDS: &[&[u8]] = &[
    include_bytes!("data/pmn/sample.pmn"),
    b"[Game \"Kiothi\"]\n[SetUp \"1\"]\n[Position \"0,3*/1,1 N S:18 N:29\"]\n\n1... b1:1x (1... b2:2-a1x) 2. a7,a9>a5:10 *\n",
    b"[Game \"Nsolo\"]\n[Event \"a \\\"b\\\" \\\\\"]\n\n1. d5xb4:1,a3,a9,b9 ; c\n{x [%foul]} $3 1-0\n",
    b"\xff\xfe[\x00G\x00a\x00m\x00e\x00 \x00\"\x00T\x00\"\x00]\x00\n\x00",
];

fn mutate(rng: &mut Rng, input: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(input.len() + 1);
        match rng.below(5) {
            0 if !input.is_empty() => {
                let at = at.min(input.len() - 1);
                input[at] = rng.next() as u8;
            }
            1 => {
                let token = TOKENS[rng.below(TOKENS.len())];
                input.splice(at..at, token.iter().copied());
            }
            2 => {
                let end = (at + rng.below(16)).min(input.len());
                input.drain(at..end);
            }
            3 => {
                let token = TOKENS[rng.below(TOKENS.len())];
                let n = 1 + rng.below(300);
                let repeated: Vec<u8> = token
                    .iter()
                    .copied()
                    .cycle()
                    .take(token.len() * n)
                    .collect();
                input.splice(at..at, repeated);
            }
            _ => {
                let seed = SEEDS[rng.below(SEEDS.len())];
                let from = rng.below(seed.len());
                let end = (from + rng.below(64)).min(seed.len());
                input.splice(at..at, seed[from..end].iter().copied());
            }
        }
    }
}

/// Reads the input; every game read must write, read back and write to the same bytes.
fn check(input: &[u8]) {
    for game in parse_bytes(input) {
        let written = write_game(&game.record);
        let again = parse_str(&written);
        assert_eq!(again.len(), 1, "writing {:?} gave {written:?}", game.record);
        assert_eq!(
            write_game(&again[0].record),
            written,
            "not stable; input {:?}",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn mutations_of_the_test_inputs_never_break_the_reader() {
    let iterations: usize = std::env::var("SOW_FUZZ_ITERATIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3000);
    let mut rng = Rng(0x5EED_0F50_u64 ^ iterations as u64);
    for i in 0..iterations {
        let mut input = SEEDS[i % SEEDS.len()].to_vec();
        mutate(&mut rng, &mut input);
        check(&input);
    }
}

/// The number in the environment variable `name`, or `default`.
fn knob(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The records of `records/examples`, `records/flawed` and `tests/data/long-sowings`, and
/// the reader's own seeds.
fn command_seeds() -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seeds: Vec<Vec<u8>> = SEEDS.iter().map(|s| s.to_vec()).collect();
    for dir in [
        "records/examples",
        "records/flawed",
        "tests/data/long-sowings",
    ] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "pmn"))
            .collect();
        files.sort();
        seeds.extend(files.into_iter().map(|p| std::fs::read(p).unwrap()));
    }
    seeds
}

/// Mutated records through every command's library path, the commands in turn: no panic,
/// no hang, every JSON line parses. A run of a million is in BENCHMARKS.md ("Fuzzing").
#[test]
fn mutations_of_the_records_never_break_any_command() {
    let count = knob("SOW_FUZZ_COMMANDS", 50 * every_command::COMMANDS as u64);
    let seed = knob("SOW_FUZZ_SEED", 1);
    let seeds = command_seeds();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.pmn");
    let mut rng = Rng(0xC0_4A4D_5EED ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let started = std::time::Instant::now();
    let mut slowest = (std::time::Duration::ZERO, 0);
    for round in 0..count as usize {
        let mut input = seeds[rng.below(seeds.len())].clone();
        mutate(&mut rng, &mut input);
        let one = std::time::Instant::now();
        every_command::check(&input, &path, round);
        slowest = slowest.max((one.elapsed(), round));
    }
    // For the record of a long run (`--nocapture`); nothing here is asserted of time.
    println!(
        "{count} inputs, seed {seed}: {:.1?}; slowest input: round {}, {:.1?}",
        started.elapsed(),
        slowest.1,
        slowest.0
    );
}
