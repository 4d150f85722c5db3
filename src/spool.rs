//! Output written while a replay plays, too large to hold as a value: bytes held in
//! memory while they are few, and in an unnamed temporary file past [`IN_MEMORY`], so
//! that the memory a long game takes does not grow with what is written of it.

use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::ops::Range;

use tempfile::{SpooledData, SpooledTempFile};

/// Bytes of one spool held in memory; past it, the spool goes to a file.
const IN_MEMORY: usize = 1 << 20;

/// Written bytes, and how many.
#[derive(Debug)]
pub(crate) struct Spool {
    out: BufWriter<SpooledTempFile>,
    len: u64,
}

impl Spool {
    pub(crate) fn new() -> Spool {
        Spool {
            out: BufWriter::new(tempfile::spooled_tempfile(IN_MEMORY)),
            len: 0,
        }
    }

    /// The bytes written.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Copies the bytes of `range` to `out`; the spool must be flushed.
    pub(crate) fn copy(&mut self, range: &Range<u64>, out: &mut dyn Write) -> io::Result<()> {
        let file = self.out.get_mut();
        file.seek(SeekFrom::Start(range.start))
            .map_err(spool_error)?;
        copy_out(file, range.end - range.start, out)
    }

    /// Writes every byte written to `out`: those held in memory at once.
    pub(crate) fn write_to(self, out: &mut dyn Write) -> io::Result<()> {
        let len = self.len;
        let file = (self.out.into_inner()).map_err(|e| spool_error(e.into_error()))?;
        match file.into_inner() {
            SpooledData::InMemory(bytes) => out.write_all(bytes.get_ref()),
            SpooledData::OnDisk(mut file) => {
                file.seek(SeekFrom::Start(0)).map_err(spool_error)?;
                copy_out(&mut file, len, out)
            }
        }
    }
}

/// Copies `len` bytes of the spool's `file` to `out`: a failure to read is the spool's,
/// one to write is the output's own.
fn copy_out(file: &mut impl Read, len: u64, out: &mut dyn Write) -> io::Result<()> {
    let mut chunk = vec![0; 64 << 10];
    let mut left = len;
    while left > 0 {
        let want = left.min(chunk.len() as u64) as usize;
        let read = file.read(&mut chunk[..want]).map_err(spool_error)?;
        if read == 0 {
            return Err(spool_error(io::ErrorKind::UnexpectedEof.into()));
        }
        out.write_all(&chunk[..read])?;
        left -= read as u64;
    }
    Ok(())
}

/// A failure of the spool's temporary file, saying which file it is: not the output,
/// which the message names.
fn spool_error(e: io::Error) -> io::Error {
    let folder = std::env::temp_dir();
    let message = format!(
        "the temporary file in {} that holds a long game's output until it is written: {e}",
        folder.display()
    );
    io::Error::new(e.kind(), message)
}

impl Write for Spool {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf).map_err(spool_error)?;
        self.len += n as u64;
        Ok(n)
    }

    // Writers of JSON write a few bytes at a time: each goes straight to the buffer.
    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.out.write_all(buf).map_err(spool_error)?;
        self.len += buf.len() as u64;
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush().map_err(spool_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_past_the_memory_bound_are_copied_back_whole_and_in_ranges() {
        let mut spool = Spool::new();
        let line: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        let mut written = Vec::new();
        while written.len() <= IN_MEMORY * 2 {
            spool.write_all(&line).unwrap();
            written.extend_from_slice(&line);
        }
        assert_eq!(spool.len(), written.len() as u64);
        spool.flush().unwrap();
        let mut part = Vec::new();
        let range = IN_MEMORY as u64 - 7..IN_MEMORY as u64 + 13;
        spool.copy(&range, &mut part).unwrap();
        assert_eq!(part, written[range.start as usize..range.end as usize]);
        let mut all = Vec::new();
        spool.write_to(&mut all).unwrap();
        assert!(all == written, "the copy differs from what was written");
    }

    #[test]
    fn bytes_held_in_memory_are_written_whole() {
        let mut spool = Spool::new();
        spool.write_all(b"one ").unwrap();
        write!(spool, "{}", 2).unwrap();
        let mut all = Vec::new();
        spool.write_to(&mut all).unwrap();
        assert_eq!(all, b"one 2");
    }
}
