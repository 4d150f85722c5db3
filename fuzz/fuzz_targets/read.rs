//! Fuzz the PMN reader and writer: no input may panic or hang them, and whatever is
//! read must write to a text that reads back the same and writes to the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sow::pmn::{parse_bytes, parse_str, write_game};

fuzz_target!(|data: &[u8]| {
    for game in parse_bytes(data) {
        let written = write_game(&game.record);
        let again = parse_str(&written);
        if let [one] = again.as_slice() {
            assert_eq!(write_game(&one.record), written);
        }
    }
});
