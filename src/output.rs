//! Writing output files: atomically (a temporary file in the same folder, then a
//! rename), and never over an existing file unless asked (`--force`).

use std::fs;
use std::io::{self, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

/// The temporary files of outputs being written, to remove if the run is interrupted.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Makes an interrupted run (Ctrl-C, `kill`, a closed terminal) remove the temporary
/// files of the outputs it was writing, then end as the signal would have ended it (so
/// that a shell sees a run interrupted: Ctrl-C stops a loop of them, and the status is
/// 128 + the signal). Nothing is left beside the output. Called once, by the command.
#[cfg(unix)]
pub fn remove_temporary_files_on_interrupt() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    // A signal the run was started to ignore (`nohup`, a job in the background of a
    // script) stays ignored (found by helper-31's review: it ended the run).
    let caught = [SIGINT, SIGTERM, SIGHUP]
        .into_iter()
        .filter(|&s| !ignored(s));
    // If the signals cannot be caught, an interrupted run leaves its temporary file, as
    // it did before they were.
    let Ok(mut signals) = signal_hook::iterator::Signals::new(caught) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let mut pending = PENDING.lock().unwrap_or_else(PoisonError::into_inner);
            for path in pending.drain(..) {
                let _ = fs::remove_file(path);
            }
            // The signal's default action ends the process (signal-hook aborts if it
            // does not); should the action not even be restored, the run ends as a
            // shell reports one interrupted.
            let _ = signal_hook::low_level::emulate_default_handler(signal);
            std::process::exit(128 + signal);
        }
    });
}

/// Whether the run was started with `signal` ignored.
#[cfg(unix)]
fn ignored(signal: i32) -> bool {
    // SAFETY: with no new action, sigaction only reads the signal's current action into
    // `old`, a zeroed `sigaction` (a plain C struct, for which zero is a valid value).
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut old) == 0
            && old.sa_sigaction == libc::SIG_IGN
    }
}

/// Elsewhere, an interrupted run leaves its temporary files.
#[cfg(not(unix))]
pub fn remove_temporary_files_on_interrupt() {}

/// `path` is a temporary file being written (`true`), or no longer (`false`).
fn pending(path: &Path, now: bool) {
    let mut pending = PENDING.lock().unwrap_or_else(PoisonError::into_inner);
    if now {
        pending.push(path.to_path_buf());
    } else {
        pending.retain(|p| p != path);
    }
}

/// The error of an output that exists and is not to be replaced (said of the output
/// by the caller, which names it: `sow: out.csv: the file exists; ...`).
fn exists() -> io::Error {
    io::Error::new(
        io::ErrorKind::AlreadyExists,
        "the file exists; not overwritten (use --force to replace it)",
    )
}

/// Gives the finished temporary file `tmp` the name `path`: over an existing file only
/// with `force`. Without it, the file takes the name by a hard link, which fails if the
/// name was taken while the output was written (a rename would replace that file);
/// where hard links cannot be made, by a rename if the name is still free.
fn publish(tmp: &Path, path: &Path, force: bool) -> io::Result<()> {
    if force {
        return fs::rename(tmp, path);
    }
    match fs::hard_link(tmp, path) {
        Ok(()) => {
            // The output is in place; a temporary name left over is only untidy.
            let _ = fs::remove_file(tmp);
            Ok(())
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(exists()),
        Err(_) if path.exists() => Err(exists()),
        Err(_) => fs::rename(tmp, path),
    }
}

/// Writes `bytes` to `path`, or to standard output when `path` is `None` or `-`.
pub fn write_output(path: Option<&Path>, force: bool, bytes: &[u8]) -> io::Result<()> {
    stream_output(path, force, |out| out.write_all(bytes)).map_err(|e| match e {
        StreamError::Io(e) | StreamError::Write(e) => e,
    })
}

/// Why streamed output failed: the file itself, or the writer's own error.
#[derive(Debug)]
pub enum StreamError<E> {
    Io(io::Error),
    Write(E),
}

impl<E> From<io::Error> for StreamError<E> {
    fn from(e: io::Error) -> Self {
        StreamError::Io(e)
    }
}

/// Streams output made by `write` to `path` (atomically: into a temporary file in the
/// same folder, renamed over `path` only when `write` succeeded, never over an existing
/// file without `force`), or to standard output when `path` is `None` or `-` (as `-`
/// names standard input among the inputs). Memory holds no more than `write` keeps.
///
/// A symbolic link is written through: its target is the file replaced, and the link
/// stays. A `path` that is no regular file (a device such as `/dev/null`, a FIFO) is
/// written straight into, as a shell's redirection would, `force` or not: no file is
/// replaced. A file replaced keeps its permissions.
pub fn stream_output<E>(
    path: Option<&Path>,
    force: bool,
    write: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), StreamError<E>> {
    let Some(path) = path.filter(|p| p.as_os_str() != "-") else {
        let stdout = io::stdout();
        let mut out = io::BufWriter::new(stdout.lock());
        write(&mut out).map_err(StreamError::Write)?;
        return out.flush().map_err(StreamError::Io);
    };
    if is_special(path) {
        let file = fs::OpenOptions::new().write(true).open(path)?;
        let mut out = io::BufWriter::new(file);
        write(&mut out).map_err(StreamError::Write)?;
        return out.flush().map_err(StreamError::Io);
    }
    let target = link_target(path);
    let path = target.as_deref().unwrap_or(path);
    let replaced = fs::metadata(path).ok();
    if replaced.is_some() && !force {
        return Err(StreamError::Io(exists()));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    let tmp = dir.join(format!(".{name}.sow-{}.tmp", std::process::id()));
    pending(&tmp, true);
    let result = (|| {
        let file = fs::File::create(&tmp)?;
        if let Some(replaced) = &replaced {
            file.set_permissions(replaced.permissions())?;
        }
        let mut out = io::BufWriter::new(file);
        write(&mut out).map_err(StreamError::Write)?;
        let file = out
            .into_inner()
            .map_err(|e| StreamError::Io(e.into_error()))?;
        file.sync_all()?;
        publish(&tmp, path, force)?;
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    pending(&tmp, false);
    result
}

/// Where a link leads, through any chain of links: to a file, or to a name not yet
/// taken (found by helper-31's review: only the first link was followed). `None` when
/// `path` is no link, or the chain does not end.
fn link_target(path: &Path) -> Option<PathBuf> {
    let mut at = path.to_path_buf();
    // As the system does, at most 40 links.
    for _ in 0..40 {
        if !fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()) {
            return (at != path).then_some(at);
        }
        let to = fs::read_link(&at).ok()?;
        at = match at.parent() {
            Some(dir) if to.is_relative() => dir.join(to),
            _ => to,
        };
    }
    None
}

/// Whether `path` is an existing file that is neither a regular file nor a folder (a
/// device, a FIFO, a socket), following links.
fn is_special(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// [`stream_output`] that writes nothing unless `write` succeeds, to standard output
/// too: there the output is held until it is whole (see [`Spool`]) and copied out then,
/// as it is for a device or a FIFO. (A file is written whole already: its temporary
/// file is renamed only then.)
pub fn stream_whole_output<E>(
    path: Option<&Path>,
    force: bool,
    write: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), StreamError<E>> {
    let path = path.filter(|p| p.as_os_str() != "-");
    if path.is_some_and(|p| !is_special(p)) {
        return stream_output(path, force, write);
    }
    let mut spool = Spool::default();
    write(&mut spool).map_err(StreamError::Write)?;
    if let Some(path) = path {
        let mut file = fs::OpenOptions::new().write(true).open(path)?;
        spool.copy_to(&mut file)?;
        return file.flush().map_err(StreamError::Io);
    }
    let stdout = io::stdout();
    let mut stdout = stdout.lock();
    spool.copy_to(&mut stdout)?;
    stdout.flush()?;
    Ok(())
}

/// Output held until it is whole: in memory up to [`Spool::MEMORY`] bytes, then in a
/// temporary file of the system's temporary folder, so that memory stays bounded
/// whatever the size of the output. Where no temporary file can be made, or filled
/// with what memory held (no such folder, a read-only or a full one), the output stays
/// in memory.
#[derive(Default)]
struct Spool {
    memory: Vec<u8>,
    file: Option<SpoolFile>,
    /// No temporary file could be made: none is tried again.
    in_memory_only: bool,
}

impl Spool {
    const MEMORY: usize = 8 << 20;

    /// Writes out what was held.
    fn copy_to(self, out: &mut dyn Write) -> io::Result<()> {
        match self.file {
            None => out.write_all(&self.memory),
            Some(mut spool) => {
                spool.file.flush().map_err(|e| spool.failure(e))?;
                let file = spool.file.get_mut();
                file.seek(io::SeekFrom::Start(0))?;
                io::copy(file, out)?;
                Ok(())
            }
        }
    }

    /// A temporary file holding what memory held and `buf`, if one can be made.
    fn spill(&self, buf: &[u8]) -> Option<SpoolFile> {
        let mut spool = SpoolFile::new().ok()?;
        spool.file.write_all(&self.memory).ok()?;
        spool.file.write_all(buf).ok()?;
        Some(spool)
    }
}

impl Write for Spool {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(spool) = &mut self.file {
            return spool.file.write(buf).map_err(|e| spool.failure(e));
        }
        // Spilled before memory grows past its bound (a spill that fails is dropped,
        // and its file with it).
        if self.memory.len() + buf.len() > Spool::MEMORY && !self.in_memory_only {
            match self.spill(buf) {
                Some(spool) => {
                    self.memory = Vec::new();
                    self.file = Some(spool);
                    return Ok(buf.len());
                }
                None => self.in_memory_only = true,
            }
        }
        // Grown by doubling, but not past the bound while a spill may come.
        let needed = self.memory.len() + buf.len();
        if needed > self.memory.capacity() && !self.in_memory_only {
            let room = (2 * self.memory.capacity()).clamp(needed, Spool::MEMORY.max(needed));
            self.memory.reserve_exact(room - self.memory.len());
        }
        self.memory.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.file {
            Some(spool) => spool.file.flush().map_err(|e| spool.failure(e)),
            None => Ok(()),
        }
    }
}

/// A temporary file in the system's temporary folder, removed when dropped (on Unix at
/// once: it lives on while open, and no crash leaves it behind).
struct SpoolFile {
    file: io::BufWriter<fs::File>,
    path: Option<std::path::PathBuf>,
}

impl SpoolFile {
    fn new() -> io::Result<SpoolFile> {
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(".sow-{}-{n}.spool", std::process::id()));
        let file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)?;
        let path = match fs::remove_file(&path) {
            Ok(()) => None,
            Err(_) => Some(path),
        };
        Ok(SpoolFile {
            file: io::BufWriter::new(file),
            path,
        })
    }

    /// A failure to write the temporary file, saying which file it is: not standard
    /// output, which waits for the run to end.
    fn failure(&self, e: io::Error) -> io::Error {
        let dir = std::env::temp_dir();
        io::Error::new(
            e.kind(),
            format!(
                "the temporary file in {} that holds the output until the run ends: {e}",
                dir.display()
            ),
        )
    }
}

impl Drop for SpoolFile {
    fn drop(&mut self) {
        if let Some(path) = &self.path {
            let _ = fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_link_is_written_through_a_device_into_and_a_mode_kept() {
        // Found in the eighth session's bug hunt: with --force, the output was renamed
        // over whatever had its name: a link lost its target's update, `/dev/null` (as
        // root) became a file, a file of mode 0600 came back 0644.
        use std::os::unix::fs::{FileTypeExt, PermissionsExt};
        let write = |text: &'static str| move |out: &mut dyn Write| out.write_all(text.as_bytes());
        let dir = tempfile::tempdir().unwrap();
        let (target, link) = (dir.path().join("target.csv"), dir.path().join("link.csv"));
        fs::write(&target, "old").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o600)).unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let refused = stream_output(Some(&link), false, write("new")).unwrap_err();
        assert!(matches!(refused, StreamError::Io(e) if e.kind() == io::ErrorKind::AlreadyExists));
        stream_output(Some(&link), true, write("new")).unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        let mode = fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        // A link to no file yet makes its target (found by helper-30's review: it was
        // said to exist, and replaced by a file with --force).
        let (dangling, made) = (dir.path().join("dangling.csv"), dir.path().join("made.csv"));
        std::os::unix::fs::symlink("made.csv", &dangling).unwrap();
        // Through a chain of links too (found by helper-31's review).
        let chain = dir.path().join("chain.csv");
        std::os::unix::fs::symlink("dangling.csv", &chain).unwrap();
        stream_output(Some(&chain), false, write("made")).unwrap();
        assert!(fs::symlink_metadata(&chain)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&made).unwrap(), "made");
        assert!(fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink());
        // A device is written into, without --force, whole or streamed.
        let null = Path::new("/dev/null");
        stream_output(Some(null), false, write("into the device")).unwrap();
        stream_whole_output(Some(null), false, write("into the device")).unwrap();
        assert!(fs::metadata(null).unwrap().file_type().is_char_device());
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 5, "{names:?}");
    }

    #[test]
    fn a_name_taken_while_the_output_was_written_is_not_replaced() {
        // `stream_output` looks for the name first; a file that takes it before the
        // output is finished is kept too, unless `force` says to replace it.
        let dir = tempfile::tempdir().unwrap();
        let (tmp, out) = (dir.path().join(".out.tmp"), dir.path().join("out"));
        fs::write(&tmp, "ours").unwrap();
        fs::write(&out, "theirs").unwrap();
        let e = publish(&tmp, &out, false).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert!(e.to_string().contains("use --force"), "{e}");
        assert_eq!(fs::read_to_string(&out).unwrap(), "theirs");
        publish(&tmp, &out, true).unwrap();
        assert_eq!(fs::read_to_string(&out).unwrap(), "ours");
        assert!(!tmp.exists());
        // A free name is taken, and the temporary name is gone.
        let free = dir.path().join("free");
        fs::write(&tmp, "more").unwrap();
        publish(&tmp, &free, false).unwrap();
        assert_eq!(fs::read_to_string(&free).unwrap(), "more");
        assert!(!tmp.exists());
    }

    #[test]
    fn a_spool_gives_back_what_it_held_in_memory_or_past_it() {
        for len in [0, 1000, Spool::MEMORY + 12_345] {
            let bytes: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let mut spool = Spool::default();
            // Writes of an odd size, so that doubling would overshoot the bound.
            for chunk in bytes.chunks(3001) {
                spool.write_all(chunk).unwrap();
            }
            assert_eq!(
                spool.file.is_some(),
                len > Spool::MEMORY,
                "spilled at {len}"
            );
            let mut out = Vec::new();
            spool.copy_to(&mut out).unwrap();
            assert!(out == bytes, "{len} bytes");
        }
    }

    #[test]
    fn never_overwrites_without_force() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.csv");
        write_output(Some(&p), false, b"one").unwrap();
        let e = write_output(Some(&p), false, b"two").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(fs::read(&p).unwrap(), b"one");
        write_output(Some(&p), true, b"three").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"three");
        // No temporary file is left behind.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
