//! The `sow` command: see `sow --help` and README.md.

fn main() {
    std::process::exit(sow::cli::main());
}
