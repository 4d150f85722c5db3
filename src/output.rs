//! Writing output files: atomically (a temporary file in the same folder, then a
//! rename), and never over an existing file unless asked (`--force`).

use std::fs;
use std::io::{self, Write};
use std::path::Path;

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
    if path.exists() && !force {
        return Err(StreamError::Io(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!(
                "{} exists; not overwritten (use --force to replace it)",
                path.display()
            ),
        )));
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
    let result = (|| {
        let file = fs::File::create(&tmp)?;
        let mut out = io::BufWriter::new(file);
        write(&mut out).map_err(StreamError::Write)?;
        let file = out
            .into_inner()
            .map_err(|e| StreamError::Io(e.into_error()))?;
        file.sync_all()?;
        fs::rename(&tmp, path)?;
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

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
