//! Writing output files: atomically (an exclusively created temporary file with an
//! unpredictable name in the same folder, then a rename), never over an existing file
//! unless asked (`--force`), and never over one of the command's inputs.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::corpus::Input;
use crate::spool::Spool;

/// The outputs of the run: the temporary files being written, to remove if the run is
/// interrupted, and whether an output has been published.
static OUTPUTS: Mutex<Outputs> = Mutex::new(Outputs {
    pending: Vec::new(),
    published: false,
});

#[derive(Debug, Default)]
struct Outputs {
    pending: Vec<PathBuf>,
    published: bool,
}

fn outputs() -> MutexGuard<'static, Outputs> {
    OUTPUTS.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Outputs {
    /// What an interrupt does: the temporary files to remove before the run ends by
    /// the signal, or `None` when the run is to go on: an output is published and no
    /// other is being written, so the run has done its work and is ending (a status
    /// of 128 + the signal would say the output was not made).
    fn interrupted(&mut self) -> Option<Vec<PathBuf>> {
        if self.published && self.pending.is_empty() {
            return None;
        }
        Some(std::mem::take(&mut self.pending))
    }
}

/// Makes an interrupted run (Ctrl-C, `kill`, a closed terminal) remove the temporary
/// files of the outputs it was writing, then end as the signal would have ended it (so
/// that a shell sees a run interrupted: Ctrl-C stops a loop of them, and the status is
/// 128 + the signal). Nothing is left beside the output. Once the output is published,
/// the run ends as it would have without the signal. Called once, by the command.
#[cfg(unix)]
pub fn remove_temporary_files_on_interrupt() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    // A signal the run was started to ignore (`nohup`, a job in the background of a
    // script) stays ignored.
    let caught = [SIGINT, SIGTERM, SIGHUP]
        .into_iter()
        .filter(|&s| !ignored(s));
    // If the signals cannot be caught, an interrupted run leaves its temporary file.
    let Ok(mut signals) = signal_hook::iterator::Signals::new(caught) else {
        return;
    };
    std::thread::spawn(move || {
        for signal in signals.forever() {
            let mut outputs = outputs();
            let Some(pending) = outputs.interrupted() else {
                continue;
            };
            for path in pending {
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

/// The error of an output that exists and is not to be replaced (said of the output
/// by the caller, which names it: `sow: out.csv: the file exists; ...`).
fn exists() -> io::Error {
    io::Error::new(
        io::ErrorKind::AlreadyExists,
        "the file exists; not overwritten (use --force to replace it)",
    )
}

/// The error of an output that names a folder.
fn a_folder() -> io::Error {
    io::Error::new(
        io::ErrorKind::IsADirectory,
        "a folder, not a file: -o takes the name of the file to write",
    )
}

/// The error of an output that is one of the command's inputs, `input`.
fn an_input(input: &Input) -> io::Error {
    let input = match input {
        Input::Stdin => "standard input's file".to_string(),
        Input::File(p) => format!("the input {}", p.display()),
    };
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("the output is {input}; an input is never replaced, even with --force"),
    )
}

/// What tells one file from another, through any path or link to it: its device and
/// inode on Unix; elsewhere its canonical path. `None` names standard input.
#[cfg(unix)]
fn file_id(path: Option<&Path>) -> Option<(u64, u64)> {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let metadata = match path {
        Some(p) => fs::metadata(p).ok()?,
        None => fs::File::from(io::stdin().as_fd().try_clone_to_owned().ok()?)
            .metadata()
            .ok()?,
    };
    Some((metadata.dev(), metadata.ino()))
}

#[cfg(not(unix))]
fn file_id(path: Option<&Path>) -> Option<PathBuf> {
    fs::canonicalize(path?).ok()
}

/// Refuses an output `path` (which exists, with metadata `out`) that is one of `inputs`.
/// A terminal or another character device may be both.
fn refuse_inputs(path: &Path, out: &fs::Metadata, inputs: &[Input]) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if out.file_type().is_char_device() {
            return Ok(());
        }
    }
    #[cfg(not(unix))]
    let _ = out;
    let Some(id) = file_id(Some(path)) else {
        return Ok(());
    };
    for input in inputs {
        let input_id = match input {
            Input::Stdin => file_id(None),
            Input::File(p) => file_id(Some(p)),
        };
        if input_id.as_ref() == Some(&id) {
            return Err(an_input(input));
        }
    }
    Ok(())
}

/// Where an output goes.
enum Destination {
    Stdout,
    /// An existing file that is neither a regular file nor a folder (a device such as
    /// `/dev/null`, a FIFO): written straight into, as a shell's redirection would.
    Special(PathBuf),
    /// A regular file, made or replaced (whose metadata is `replaced`) whole.
    File {
        path: PathBuf,
        replaced: Option<fs::Metadata>,
    },
}

/// Where the output `path` goes (standard output for `None` or `-`), or why it may not
/// be written: it is a folder, one of `inputs`, or a file that exists without `force`.
/// A symbolic link is written through: its target is the file written.
fn destination(path: Option<&Path>, force: bool, inputs: &[Input]) -> io::Result<Destination> {
    let Some(path) = path.filter(|p| p.as_os_str() != "-") else {
        return Ok(Destination::Stdout);
    };
    let path = link_target(path).unwrap_or_else(|| path.to_path_buf());
    let Ok(existing) = fs::metadata(&path) else {
        return Ok(Destination::File {
            path,
            replaced: None,
        });
    };
    refuse_inputs(&path, &existing, inputs)?;
    if existing.is_dir() {
        Err(a_folder())
    } else if !existing.is_file() {
        Ok(Destination::Special(path))
    } else if !force {
        Err(exists())
    } else {
        Ok(Destination::File {
            path,
            replaced: Some(existing),
        })
    }
}

/// Opens a device or FIFO to write into. A regular file that took its name meanwhile
/// is not written into: it would be replaced, without a temporary file, `force` or not.
fn open_special(path: &Path) -> io::Result<fs::File> {
    let file = fs::OpenOptions::new().write(true).open(path)?;
    if file.metadata()?.is_file() {
        return Err(exists());
    }
    Ok(file)
}

/// Writes `bytes` to `path`, or to standard output when `path` is `None` or `-`.
pub fn write_output(
    path: Option<&Path>,
    force: bool,
    inputs: &[Input],
    bytes: &[u8],
) -> io::Result<()> {
    stream_output(path, force, inputs, |out| out.write_all(bytes)).map_err(|e| match e {
        StreamError::Io(e) | StreamError::Write(e) => e,
    })
}

/// Why streamed output failed: the output itself (said of the output by the caller,
/// which names it), or the writer's own error.
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

/// Streams output made by `write` to `path`, or to standard output when `path` is
/// `None` or `-` (as `-` names standard input among the inputs). Memory holds no more
/// than `write` keeps.
///
/// A file is written atomically: into a temporary file in its folder (created anew,
/// under a name no one can guess, so never through a link planted there), renamed to
/// `path` only when `write` succeeded, never over an existing file without `force`, and
/// never over any of `inputs` (through any path or link to it), `force` or not. A
/// symbolic link is written through: its target is the file replaced, and the link
/// stays. A `path` that is no regular file (a device such as `/dev/null`, a FIFO) is
/// written straight into, as a shell's redirection would, `force` or not: no file is
/// replaced. A file replaced keeps its permissions. A folder is refused.
///
/// A failure of the output (a full disk, a closed pipe) is [`StreamError::Io`], even
/// when `write` reports it as its own.
pub fn stream_output<E>(
    path: Option<&Path>,
    force: bool,
    inputs: &[Input],
    write: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), StreamError<E>> {
    match destination(path, force, inputs)? {
        Destination::Stdout => write_through(io::stdout().lock(), write).map(drop),
        Destination::Special(path) => write_through(open_special(&path)?, write).map(drop),
        Destination::File { path, replaced } => write_file(&path, replaced.as_ref(), force, write),
    }
}

/// [`stream_output`] that writes nothing unless `write` succeeds, to standard output
/// too: there the output is held until it is whole (see [`Spool`]) and copied out then,
/// as it is for a device or a FIFO. (A file is written whole already: its temporary
/// file is renamed only then.)
pub fn stream_whole_output<E>(
    path: Option<&Path>,
    force: bool,
    inputs: &[Input],
    write: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), StreamError<E>> {
    let special = match destination(path, force, inputs)? {
        Destination::File { path, replaced } => {
            return write_file(&path, replaced.as_ref(), force, write)
        }
        Destination::Special(path) => Some(path),
        Destination::Stdout => None,
    };
    let spool = write_through(Spool::for_output(), write)?;
    match special {
        Some(path) => spool.write_to(&mut open_special(&path)?)?,
        None => {
            let mut stdout = io::stdout().lock();
            spool.write_to(&mut stdout)?;
            stdout.flush()?;
        }
    }
    Ok(())
}

/// A writer that keeps the first failure of the output under it, so that the output's
/// failure is told from the command's own, however the command reports it.
struct Watched<W> {
    inner: W,
    failed: Option<io::Error>,
}

impl<W: Write> Watched<W> {
    fn new(inner: W) -> Watched<W> {
        Watched {
            inner,
            failed: None,
        }
    }

    /// Keeps `e` (the first of the output's failures) and gives its like to the writer.
    fn keep(&mut self, e: io::Error) -> io::Error {
        if e.kind() == io::ErrorKind::Interrupted {
            return e;
        }
        let like = io::Error::new(e.kind(), e.to_string());
        self.failed.get_or_insert(e);
        like
    }
}

impl<W: Write> Write for Watched<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf).map_err(|e| self.keep(e))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().map_err(|e| self.keep(e))
    }
}

/// Runs `write` into `out` through a buffer, and flushes it. A failure of `out` is
/// [`StreamError::Io`], whatever `write` made of it.
fn write_through<W: Write, E>(
    out: W,
    write: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<W, StreamError<E>> {
    let mut buffered = io::BufWriter::new(Watched::new(out));
    let written = write(&mut buffered);
    let failed = buffered.get_mut().failed.take();
    match (written, failed) {
        (_, Some(e)) => Err(StreamError::Io(e)),
        (Err(e), None) => Err(StreamError::Write(e)),
        (Ok(()), None) => {
            let mut watched = buffered.into_inner().map_err(|e| e.into_error())?;
            watched.flush()?;
            Ok(watched.inner)
        }
    }
}

/// Writes the regular file `path` (replacing the file of metadata `replaced`, if any)
/// through a temporary file beside it, published only whole.
fn write_file<E>(
    path: &Path,
    replaced: Option<&fs::Metadata>,
    force: bool,
    write: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), StreamError<E>> {
    // Into the file itself: the errors of a `NamedTempFile` name its temporary path.
    through_temporary(path, replaced, force, |tmp| {
        write_through(tmp.as_file_mut(), write).map(drop)
    })
}

/// Writes a file that its writer makes by its path (a database): `write` is given the
/// path of a temporary file beside `path`, and what it leaves there is published as
/// `path` only when it succeeds, as [`stream_output`] publishes a file (never over an
/// existing file without `force`, never over an input). Standard output, a device and
/// a FIFO are refused: such a file is made only whole, where it stays.
pub fn write_by_path<E>(
    path: &Path,
    force: bool,
    inputs: &[Input],
    write: impl FnOnce(&Path) -> Result<(), E>,
) -> Result<(), StreamError<E>> {
    let not_a_file = || {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file: -o takes the name of the file to write",
        )
    };
    match destination(Some(path), force, inputs)? {
        Destination::File { path, replaced } => {
            through_temporary(&path, replaced.as_ref(), force, |tmp| {
                write(tmp.path()).map_err(StreamError::Write)
            })
        }
        Destination::Stdout | Destination::Special(_) => Err(StreamError::Io(not_a_file())),
    }
}

/// Makes a temporary file beside `path`, has `fill` write it, and publishes it as
/// `path` when `fill` succeeds (see [`write_file`]).
fn through_temporary<E>(
    path: &Path,
    replaced: Option<&fs::Metadata>,
    force: bool,
    fill: impl FnOnce(&mut tempfile::NamedTempFile) -> Result<(), StreamError<E>>,
) -> Result<(), StreamError<E>> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // The output's name in the temporary one, for whoever finds it, cut so that the
    // whole stays within a file name's 255 bytes.
    let mut name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    let mut cut = name.len().min(200);
    while !name.is_char_boundary(cut) {
        cut -= 1;
    }
    name.truncate(cut);
    let prefix = format!(".{name}.sow-");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // A new file has the mode a plain creation gives (0666 less the umask); a replaced
    // one gets its mode below, not limited by the umask.
    #[cfg(unix)]
    if replaced.is_none() {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    // Made and listed at once: an interrupt in between would leave it.
    let tmp = {
        let mut outputs = outputs();
        // tempfile's error ends with the temporary path (`... at path "..."`); the
        // caller names the output.
        let tmp = builder.tempfile_in(dir).map_err(|e| {
            let said = e.to_string();
            let said = said.split_once(" at path ").map_or(&*said, |(s, _)| s);
            io::Error::new(e.kind(), said)
        })?;
        outputs.pending.push(tmp.path().to_path_buf());
        tmp
    };
    let tmp_path = tmp.path().to_path_buf();
    let result = (|| {
        let mut tmp = tmp;
        if let Some(replaced) = replaced {
            tmp.as_file().set_permissions(replaced.permissions())?;
        }
        fill(&mut tmp)?;
        tmp.as_file().sync_all()?;
        publish(tmp, path, force)?;
        Ok(())
    })();
    // Dropped, the temporary file is gone (published, or removed).
    outputs().pending.retain(|p| *p != tmp_path);
    result
}

/// Gives the finished temporary file `tmp` the name `path`: over an existing file only
/// with `force`. Without it, the name is taken only if free when taken (a file that took
/// it while the output was written is kept); where the system cannot take a name that
/// way (no hard links), by a rename if the name is still free.
fn publish(tmp: tempfile::NamedTempFile, path: &Path, force: bool) -> io::Result<()> {
    // Published and no longer pending at once, for an interrupt to see either.
    let mut outputs = outputs();
    let tmp_path = tmp.path().to_path_buf();
    // A temporary file not published is removed as its error is dropped.
    let result = if force {
        tmp.persist(path).map(drop).map_err(|e| e.error)
    } else {
        match tmp.persist_noclobber(path) {
            Ok(_) => Ok(()),
            Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => Err(exists()),
            Err(_) if fs::symlink_metadata(path).is_ok() => Err(exists()),
            Err(e) => e.file.persist(path).map(drop).map_err(|e| e.error),
        }
    };
    outputs.pending.retain(|p| *p != tmp_path);
    outputs.published |= result.is_ok();
    result
}

/// Where a link leads, through any chain of links: to a file, or to a name not yet
/// taken. `None` when `path` is no link, or the chain does not end.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_link_is_written_through_a_device_into_and_a_mode_kept() {
        // With --force, a name is not simply renamed over: a link's target is updated,
        // `/dev/null` stays a device, a file of mode 0600 stays 0600.
        use std::os::unix::fs::{FileTypeExt, PermissionsExt};
        let write = |text: &'static str| move |out: &mut dyn Write| out.write_all(text.as_bytes());
        let dir = tempfile::tempdir().unwrap();
        let (target, link) = (dir.path().join("target.csv"), dir.path().join("link.csv"));
        fs::write(&target, "old").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o600)).unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let refused = stream_output(Some(&link), false, &[], write("new")).unwrap_err();
        assert!(matches!(refused, StreamError::Io(e) if e.kind() == io::ErrorKind::AlreadyExists));
        stream_output(Some(&link), true, &[], write("new")).unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        let mode = fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        // A link to no file yet makes its target, through a chain of links too.
        let (dangling, made) = (dir.path().join("dangling.csv"), dir.path().join("made.csv"));
        std::os::unix::fs::symlink("made.csv", &dangling).unwrap();
        let chain = dir.path().join("chain.csv");
        std::os::unix::fs::symlink("dangling.csv", &chain).unwrap();
        stream_output(Some(&chain), false, &[], write("made")).unwrap();
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
        stream_output(Some(null), false, &[], write("into the device")).unwrap();
        stream_whole_output(Some(null), false, &[], write("into the device")).unwrap();
        assert!(fs::metadata(null).unwrap().file_type().is_char_device());
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 5, "{names:?}");
    }

    #[cfg(unix)]
    #[test]
    fn a_new_file_has_the_mode_of_a_plain_creation() {
        // 0666 less the umask, as `File::create` gives, not the 0600 of a temporary file.
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let (ours, plain) = (dir.path().join("ours"), dir.path().join("plain"));
        write_output(Some(&ours), false, &[], b"x").unwrap();
        fs::File::create(&plain).unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode();
        assert_eq!(mode(&ours), mode(&plain));
    }

    #[test]
    fn a_name_taken_while_the_output_was_written_is_not_replaced() {
        // `stream_output` looks for the name first; a file that takes it before the
        // output is finished is kept too, unless `force` says to replace it.
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let ours = |text: &str| {
            let mut tmp = tempfile::NamedTempFile::new_in(dir.path()).unwrap();
            tmp.write_all(text.as_bytes()).unwrap();
            tmp
        };
        fs::write(&out, "theirs").unwrap();
        let e = publish(ours("ours"), &out, false).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert!(e.to_string().contains("use --force"), "{e}");
        assert_eq!(fs::read_to_string(&out).unwrap(), "theirs");
        // The temporary file is gone with the refusal.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        publish(ours("ours"), &out, true).unwrap();
        assert_eq!(fs::read_to_string(&out).unwrap(), "ours");
        // A free name is taken, and the temporary name is gone.
        let free = dir.path().join("free");
        publish(ours("more"), &free, false).unwrap();
        assert_eq!(fs::read_to_string(&free).unwrap(), "more");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn an_interrupt_ends_the_run_unless_its_output_is_published() {
        let tmp = PathBuf::from(".out.sow-x.tmp");
        // Before any output: the run ends, with nothing to remove.
        let mut outputs = Outputs::default();
        assert_eq!(outputs.interrupted(), Some(vec![]));
        // While an output is written: the run ends, and its temporary file goes.
        outputs.pending.push(tmp.clone());
        assert_eq!(outputs.interrupted(), Some(vec![tmp.clone()]));
        assert!(outputs.pending.is_empty());
        // Once published, the run goes on to its end, as if never interrupted.
        outputs.published = true;
        assert_eq!(outputs.interrupted(), None);
        // But not while another output is written.
        outputs.pending.push(tmp.clone());
        assert_eq!(outputs.interrupted(), Some(vec![tmp]));
    }

    #[test]
    fn an_output_that_is_an_input_is_refused_even_with_force() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("games.pmn");
        fs::write(&input, "[Game \"Tsoro\"]\n\n*\n").unwrap();
        let inputs = [Input::File(input.clone())];
        // By the same name, another name of the same path, and a hard link.
        let other_name = dir.path().join(".").join("games.pmn");
        let hard = dir.path().join("hard.pmn");
        fs::hard_link(&input, &hard).unwrap();
        for path in [&input, &other_name, &hard] {
            for force in [false, true] {
                let e = write_output(Some(path), force, &inputs, b"csv").unwrap_err();
                assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "{path:?}");
                assert!(e.to_string().contains("is the input"), "{e}");
            }
        }
        assert_eq!(
            fs::read_to_string(&input).unwrap(),
            "[Game \"Tsoro\"]\n\n*\n"
        );
        // Another file is replaced with --force.
        let other = dir.path().join("other.csv");
        fs::write(&other, "old").unwrap();
        write_output(Some(&other), true, &inputs, b"new").unwrap();
        assert_eq!(fs::read_to_string(&other).unwrap(), "new");
    }

    #[test]
    fn a_folder_is_said_to_be_a_folder() {
        let dir = tempfile::tempdir().unwrap();
        for force in [false, true] {
            let e = write_output(Some(dir.path()), force, &[], b"x").unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::IsADirectory);
            assert!(e.to_string().contains("a folder"), "{e}");
            assert!(!e.to_string().contains("--force"), "{e}");
        }
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_missing_folder_is_said_without_a_temporary_name() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("missing").join("out.csv");
        let e = write_output(Some(&out), false, &[], b"x").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert!(!e.to_string().contains(".sow-"), "{e}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_failure_of_the_output_is_the_outputs_whatever_the_writer_makes_of_it() {
        // The writer reports the full device as its own failure, with its own words.
        let full = Path::new("/dev/full");
        let write = |out: &mut dyn Write| {
            out.write_all(&[b'x'; 100_000])
                .map_err(|e| format!("row 1: {e}"))
        };
        for whole in [false, true] {
            let e = if whole {
                stream_whole_output(Some(full), false, &[], write)
            } else {
                stream_output(Some(full), false, &[], write)
            };
            match e {
                Err(StreamError::Io(e)) => assert_eq!(e.raw_os_error(), Some(libc::ENOSPC)),
                e => panic!("{e:?}"),
            }
        }
        // The writer's own failure stays its own.
        let e = stream_output(Some(Path::new("/dev/null")), false, &[], |_| {
            Err("bad game")
        });
        assert!(matches!(e, Err(StreamError::Write("bad game"))), "{e:?}");
    }

    #[test]
    fn never_overwrites_without_force() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.csv");
        write_output(Some(&p), false, &[], b"one").unwrap();
        let e = write_output(Some(&p), false, &[], b"two").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(fs::read(&p).unwrap(), b"one");
        write_output(Some(&p), true, &[], b"three").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"three");
        // No temporary file is left behind.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
