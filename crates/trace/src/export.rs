//! A trace in other tools' formats: fio's iolog version 3 (`fio --read_iolog`), each request
//! at its issue time in microseconds from the start, on `/dev/NAME` of its device.

use crate::event::Op;
use crate::format::TraceReader;
use crate::TraceError;
use std::io::{BufRead, Write};

/// How much of a trace an export holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Exported {
    pub requests: u64,
    /// The trace ended with its trailer (else it was cut, and the export stops at the cut).
    pub complete: bool,
}

/// Writes the trace file `from` as fio's iolog v3 into the new file `out`; says what it
/// wrote, or names the file and what is wrong.
pub fn fio_iolog_file(from: &str, out: &str) -> Result<String, String> {
    let rd = crate::format::open_file(from)?;
    let file = crate::create_new(out, "an export")?;
    let done = fio_iolog(rd, std::io::BufWriter::new(file)).map_err(|e| format!("{from}: {e}"))?;
    let cut = if done.complete {
        ""
    } else {
        " (the trace has no end: the requests up to its cut)"
    };
    Ok(format!(
        "{} requests as fio's iolog v3{cut}; replay with fio --name=replay --read_iolog={out} --replay_redirect=/dev/TARGET",
        done.requests
    ))
}

/// Writes the trace read by `rd` as fio's iolog v3 into `out`.
pub fn fio_iolog<R: BufRead, W: Write>(
    mut rd: TraceReader<R>,
    mut out: W,
) -> Result<Exported, TraceError> {
    let start = rd.header.start_ns;
    let files: Vec<String> = (rd.header.devices.iter())
        .map(|d| format!("/dev/{}", d.name))
        .collect();
    writeln!(out, "fio version 3 iolog")?;
    for f in &files {
        writeln!(out, "0 {f} add")?;
    }
    for f in &files {
        writeln!(out, "0 {f} open")?;
    }
    let (mut requests, mut last_us) = (0u64, 0u64);
    let complete = loop {
        let r = match rd.next_record() {
            Ok(Some(r)) => r,
            Ok(None) => break true,
            Err(TraceError::Truncated(_)) => break false,
            Err(e) => return Err(e),
        };
        let us = r.issue_ns.saturating_sub(start) / 1000;
        last_us = us;
        let f = &files[r.device as usize];
        let (offset, len) = (r.sector * 512, r.bytes());
        match r.op {
            Op::Read => writeln!(out, "{us} {f} read {offset} {len}")?,
            Op::Write => writeln!(out, "{us} {f} write {offset} {len}")?,
            Op::Discard => writeln!(out, "{us} {f} trim {offset} {len}")?,
            // A cache flush of a block device is what its fsync asks for.
            Op::Flush => writeln!(out, "{us} {f} sync 0 0")?,
        }
        requests += 1;
    };
    for f in &files {
        writeln!(out, "{last_us} {f} close")?;
    }
    out.flush()?;
    Ok(Exported { requests, complete })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::tests::{header, rec};
    use crate::format::{TraceWriter, Trailer};

    #[test]
    fn each_request_is_a_line_at_its_issue_time_in_microseconds() {
        let h = header(1, 5_000_000);
        let mut w = TraceWriter::new(Vec::new(), &h).unwrap();
        for r in [
            rec(5_000_000, Op::Read, 16, 16, 10),
            rec(5_002_500, Op::Write, 0, 8, 10),
            rec(6_000_000, Op::Flush, 0, 0, 10),
            rec(7_000_999, Op::Discard, 2048, 2048, 10),
        ] {
            w.record(&r).unwrap();
        }
        let bytes = w.finish(&Trailer::default()).unwrap();
        let mut out = Vec::new();
        let done = fio_iolog(TraceReader::new(&bytes[..]).unwrap(), &mut out).unwrap();
        assert_eq!(
            done,
            Exported {
                requests: 4,
                complete: true
            }
        );
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "fio version 3 iolog\n0 /dev/loop0 add\n0 /dev/loop0 open\n\
             0 /dev/loop0 read 8192 8192\n2 /dev/loop0 write 0 4096\n\
             1000 /dev/loop0 sync 0 0\n2000 /dev/loop0 trim 1048576 1048576\n\
             2000 /dev/loop0 close\n"
        );
    }
}
