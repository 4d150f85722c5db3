//! Writing output files: atomically (a temporary file in the same folder, then a
//! rename), and never over an existing file unless asked (`--force`).

use std::fs;
use std::io::{self, Write};
use std::path::Path;

/// Writes `bytes` to `path`, or to standard output when `path` is `None`.
pub fn write_output(path: Option<&Path>, force: bool, bytes: &[u8]) -> io::Result<()> {
    let Some(path) = path else {
        let mut out = io::stdout().lock();
        out.write_all(bytes)?;
        return out.flush();
    };
    if path.exists() && !force {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!(
                "{} exists; not overwritten (use --force to replace it)",
                path.display()
            ),
        ));
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
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
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
