//! Expected outputs kept in the repository, and the one way to regenerate them:
//! `UPDATE_EXPECT=1 cargo test` rewrites each expected file from what the code gives,
//! and insta's snapshots with them. Review the difference with `git diff` before
//! committing it.
#![allow(dead_code)]

use std::path::Path;

/// Whether the expected outputs are being regenerated (`UPDATE_EXPECT` set, not empty).
pub fn updating() -> bool {
    std::env::var_os("UPDATE_EXPECT").is_some_and(|v| !v.is_empty())
}

/// Checks `actual` against the expected file at `path` (from the crate's root), or
/// writes it there when the expected outputs are being regenerated.
pub fn check_file(path: &str, actual: &str) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    if updating() {
        std::fs::write(&file, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&file).unwrap_or_default();
    if actual == expected {
        return;
    }
    let line = actual
        .lines()
        .zip(expected.lines())
        .take_while(|(a, e)| a == e)
        .count();
    panic!(
        "{path} is not what the code gives, from its line {}:\n  given:    {:?}\n  expected: {:?}\n\
         `UPDATE_EXPECT=1 cargo test` rewrites it",
        line + 1,
        actual.lines().nth(line),
        expected.lines().nth(line),
    );
}

/// Maps `UPDATE_EXPECT` to insta's `INSTA_UPDATE=always`, unless `INSTA_UPDATE` is set:
/// called before a test's first snapshot, which is when insta reads its settings.
pub fn snapshots() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if updating() && std::env::var_os("INSTA_UPDATE").is_none() {
            std::env::set_var("INSTA_UPDATE", "always");
        }
    });
}
