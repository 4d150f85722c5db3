//! Output too large to hold as a value: bytes held in memory while they are few, and in
//! an unnamed temporary file (tempfile's spooled file) past a bound, so that memory does
//! not grow with what is written. A long game's output as a replay plays it spills past
//! 1 MiB; a command's output held until the run ends (standard output) past 8 MiB, and
//! stays in memory where no temporary file can be made.

use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::ops::Range;

use tempfile::{SpooledData, SpooledTempFile};

/// Bytes of a long game's output held in memory; past it, the spool goes to a file.
const IN_MEMORY: usize = 1 << 20;

/// Bytes of a command's output held in memory until the run ends.
const OUTPUT_IN_MEMORY: usize = 8 << 20;

/// Written bytes, and how many.
#[derive(Debug)]
pub(crate) struct Spool {
    out: BufWriter<Held>,
    len: u64,
}

/// Where a spool's bytes are.
#[derive(Debug)]
enum Held {
    /// In memory, then in a temporary file; with `fallback`, in memory for good when no
    /// temporary file can be made. `purpose` says what the file holds, in its errors.
    Spooled {
        file: SpooledTempFile,
        fallback: bool,
        purpose: &'static str,
    },
    /// In memory: no temporary file could be made.
    Memory(Vec<u8>),
}

impl Spool {
    /// A spool of a long game's output, written as a replay plays it.
    pub(crate) fn new() -> Spool {
        Spool::holding(IN_MEMORY, false, "a long game's output until it is written")
    }

    /// A spool of a command's output, held until the run ends.
    pub(crate) fn for_output() -> Spool {
        Spool::holding(OUTPUT_IN_MEMORY, true, "the output until the run ends")
    }

    fn holding(memory: usize, fallback: bool, purpose: &'static str) -> Spool {
        let file = tempfile::spooled_tempfile(memory);
        Spool {
            out: BufWriter::new(Held::Spooled {
                file,
                fallback,
                purpose,
            }),
            len: 0,
        }
    }

    /// The bytes written.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Copies the bytes of `range` to `out`; the spool must be flushed.
    pub(crate) fn copy(&mut self, range: &Range<u64>, out: &mut dyn Write) -> io::Result<()> {
        match self.out.get_mut() {
            Held::Spooled { file, purpose, .. } => {
                let purpose = *purpose;
                (file.seek(SeekFrom::Start(range.start))).map_err(|e| spool_error(purpose, e))?;
                copy_out(file, range.end - range.start, out, purpose)
            }
            Held::Memory(bytes) => {
                let (start, end) = (range.start as usize, range.end as usize);
                out.write_all(bytes.get(start..end).unwrap_or_default())
            }
        }
    }

    /// Writes every byte written to `out`: those held in memory at once.
    pub(crate) fn write_to(self, out: &mut dyn Write) -> io::Result<()> {
        let len = self.len;
        let held = (self.out.into_inner()).map_err(|e| e.into_error())?;
        match held {
            Held::Memory(bytes) => out.write_all(&bytes),
            Held::Spooled { file, purpose, .. } => match file.into_inner() {
                SpooledData::InMemory(bytes) => out.write_all(bytes.get_ref()),
                SpooledData::OnDisk(mut file) => {
                    (file.seek(SeekFrom::Start(0))).map_err(|e| spool_error(purpose, e))?;
                    copy_out(&mut file, len, out, purpose)
                }
            },
        }
    }
}

impl Write for Held {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let (file, fallback, purpose) = match self {
            Held::Memory(bytes) => {
                bytes.extend_from_slice(buf);
                return Ok(buf.len());
            }
            Held::Spooled {
                file,
                fallback,
                purpose,
            } => (file, *fallback, *purpose),
        };
        match file.write(buf) {
            // No temporary file could be made to spill into: what memory holds stays.
            Err(e) if fallback && !file.is_rolled() => {
                let Held::Spooled { file, .. } = std::mem::replace(self, Held::Memory(Vec::new()))
                else {
                    unreachable!("matched as spooled above");
                };
                match file.into_inner() {
                    SpooledData::InMemory(held) => {
                        *self = Held::Memory(held.into_inner());
                        self.write(buf)
                    }
                    // A spool not rolled over is in memory; were it not, nothing is lost
                    // silently.
                    SpooledData::OnDisk(_) => Err(spool_error(purpose, e)),
                }
            }
            written => written.map_err(|e| spool_error(purpose, e)),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Held::Memory(_) => Ok(()),
            Held::Spooled { file, purpose, .. } => {
                file.flush().map_err(|e| spool_error(purpose, e))
            }
        }
    }
}

/// Copies `len` bytes of the spool's `file` to `out`: a failure to read is the spool's,
/// one to write is the output's own.
fn copy_out(
    file: &mut impl Read,
    len: u64,
    out: &mut dyn Write,
    purpose: &'static str,
) -> io::Result<()> {
    let mut chunk = vec![0; 64 << 10];
    let mut left = len;
    while left > 0 {
        let want = left.min(chunk.len() as u64) as usize;
        let read = file
            .read(&mut chunk[..want])
            .map_err(|e| spool_error(purpose, e))?;
        if read == 0 {
            return Err(spool_error(purpose, io::ErrorKind::UnexpectedEof.into()));
        }
        out.write_all(&chunk[..read])?;
        left -= read as u64;
    }
    Ok(())
}

/// A failure of the spool's temporary file, saying which file it is and what it holds:
/// not the output, which the message names.
fn spool_error(purpose: &str, e: io::Error) -> io::Error {
    let folder = std::env::temp_dir();
    let message = format!(
        "the temporary file in {} that holds {purpose}: {e}",
        folder.display()
    );
    io::Error::new(e.kind(), message)
}

impl Write for Spool {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        self.len += n as u64;
        Ok(n)
    }

    // Writers of JSON write a few bytes at a time: each goes straight to the buffer.
    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.out.write_all(buf)?;
        self.len += buf.len() as u64;
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
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
    fn an_output_gives_back_what_it_held_in_memory_or_past_it() {
        for len in [0, 1000, OUTPUT_IN_MEMORY + 12_345] {
            let bytes: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let mut spool = Spool::for_output();
            // Writes of an odd size, so that doubling would overshoot the bound.
            for chunk in bytes.chunks(3001) {
                spool.write_all(chunk).unwrap();
            }
            spool.flush().unwrap();
            let Held::Spooled { file, .. } = spool.out.get_ref() else {
                panic!("a temporary file can be made here");
            };
            assert_eq!(file.is_rolled(), len > OUTPUT_IN_MEMORY, "spilled at {len}");
            let mut out = Vec::new();
            spool.write_to(&mut out).unwrap();
            assert!(out == bytes, "{len} bytes");
        }
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
