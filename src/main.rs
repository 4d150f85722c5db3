//! The `sow` command: see `sow --help` and README.md.

fn main() {
    keep_the_heap_top();
    std::process::exit(sow::cli::main());
}

/// Asks glibc to keep 4 MiB of freed memory at the top of the heap, and to serve blocks
/// of up to 4 MiB from the heap.
///
/// A corpus is read game by game, each game's elements in one fresh block. By default
/// glibc gives the top of the heap back to the system as soon as more than 128 KiB of it
/// is free, that is after nearly every game, and the next game faults every page back
/// in. Kept, the pages are reused; each thread's heap may keep its pad.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn keep_the_heap_top() {
    // mallopt(3)'s parameters, from glibc's <malloc.h>.
    const M_TOP_PAD: i32 = -2;
    const M_MMAP_THRESHOLD: i32 = -3;
    extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    // SAFETY: mallopt only sets allocator parameters; it is called before any thread
    // starts, and either value is one glibc accepts (a failure leaves the default).
    unsafe {
        mallopt(M_TOP_PAD, 4 << 20);
        // Setting the pad turns off glibc's own raising of this threshold, which kept a
        // long game's block (over 128 KiB) out of a fresh mapping of its own.
        mallopt(M_MMAP_THRESHOLD, 4 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_the_heap_top() {}
