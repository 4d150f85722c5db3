//! Fuzz every command's library path: no input may panic or hang validate, stats, plot,
//! convert (each form), show, view, repair, generate's reading of a record's tags,
//! search, tree, twins, diff or the database, and
//! every JSON line they write must parse (see `tests/every_command/mod.rs`, which the
//! std-only fuzzer in `tests/pmn_fuzz.rs` drives too).
#![no_main]

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/every_command/mod.rs"]
mod every_command;

/// The runs so far: what varies from run to run (the convert form, the plot kind).
static ROUND: AtomicUsize = AtomicUsize::new(0);

fn scratch() -> PathBuf {
    std::env::temp_dir().join(format!("sow-fuzz-commands-{}.pmn", std::process::id()))
}

fuzz_target!(|data: &[u8]| {
    let round = ROUND.fetch_add(1, Ordering::Relaxed);
    every_command::check(data, &scratch(), round);
});
