//! The `sow` command: see `sow --help` and README.md.

/// mimalloc rather than the system allocator: a validation allocates and frees a syntax
/// tree per game on every thread, and glibc's per-thread arenas gave their memory back
/// to the system and faulted it in again (a sixth of a one-thread validation).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(sow::cli::main());
}
