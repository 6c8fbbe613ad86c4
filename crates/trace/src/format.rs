//! dbio's trace file: `DBIOTRC1`, a JSON header (the devices, the clock, when it began),
//! then one compact record per request in issue order, then an end marker and a JSON
//! trailer (counts and losses). A record is a tag byte (operation and flags) and varints:
//! nanoseconds since the previous issue, the device's index when it changes, the start in
//! 512-byte sectors against where the device's previous request ended (zigzag), the length
//! in sectors and the device's latency in nanoseconds: 10 to 14 bytes for random I/O, less
//! for sequential. A trace cut short (a kill, a full disk) reads up to its last whole record.

use crate::event::Op;
use crate::TraceError;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Read, Write};

pub const MAGIC: &[u8; 8] = b"DBIOTRC1";

/// Whether the file at `path` begins as a dbio trace does (its first 8 bytes).
pub fn is_trace(path: &std::path::Path) -> bool {
    let mut magic = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok()
        && &magic == MAGIC
}
pub const VERSION: u32 = 1;
/// The tag byte of the end marker (no record's tag has every bit set).
const END: u8 = 0xff;
const FUA: u8 = 1 << 2;
const PREFLUSH: u8 = 1 << 3;
const SYNC: u8 = 1 << 4;
const DEVICE: u8 = 1 << 5;

/// One device of a trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceDevice {
    /// Its name in /dev, e.g. "nvme0n1".
    pub name: String,
    /// "major:minor".
    pub dev: String,
    pub size_bytes: u64,
}

/// What a trace file says before its records.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub version: u32,
    pub dbio_version: String,
    /// Wall-clock start, RFC 3339 UTC.
    pub started_at: String,
    /// The trace clock (CLOCK_MONOTONIC) at the start, in ns: records' times count from it.
    pub start_ns: u64,
    pub clock: String,
    pub devices: Vec<TraceDevice>,
    /// Set for a trace converted from another tool's files (what they lack).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported: Option<dbio_model::capture::Imported>,
}

/// What a trace file says after its records.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Trailer {
    pub requests: u64,
    /// The trace clock at the end, in ns.
    pub end_ns: u64,
    /// Events the kernel's buffers lost (overwritten or dropped): requests may be missing.
    pub lost_events: u64,
    /// Completions whose issue the capture did not see (issued before it began, or lost).
    pub unmatched_completions: u64,
    /// Requests still in flight when the capture ended (not in the trace).
    pub in_flight_at_end: u64,
    /// The capture was ended by the user (Ctrl-C) before its duration.
    pub interrupted: bool,
}

/// One request: issued at `issue_ns` (trace clock), on device `device` (index in the
/// header), `sectors` from `sector`, done `latency_ns` later.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Record {
    pub issue_ns: u64,
    pub device: u32,
    pub op: Op,
    pub preflush: bool,
    pub fua: bool,
    pub sync: bool,
    pub sector: u64,
    pub sectors: u32,
    pub latency_ns: u64,
}

impl Record {
    pub fn bytes(&self) -> u64 {
        u64::from(self.sectors) * 512
    }
}

fn op_bits(op: Op) -> u8 {
    match op {
        Op::Read => 0,
        Op::Write => 1,
        Op::Discard => 2,
        Op::Flush => 3,
    }
}

/// Writes a trace: the header at once, records as they come, the trailer at the end.
pub struct TraceWriter<W: Write> {
    pub(crate) out: W,
    last_ns: u64,
    device: u32,
    /// Per device: where its previous request ended, in sectors.
    ends: Vec<u64>,
    pub requests: u64,
    buf: Vec<u8>,
}

impl<W: Write> TraceWriter<W> {
    /// A trace written to `out`, its header written (and flushed) first.
    pub fn new(mut out: W, header: &Header) -> std::io::Result<Self> {
        let json = serde_json::to_vec(header)?;
        out.write_all(MAGIC)?;
        out.write_all(&(json.len() as u32).to_le_bytes())?;
        out.write_all(&json)?;
        // The header reaches the file at once: a trace that has it is recording (a script,
        // or a test, may start its load then).
        out.flush()?;
        Ok(TraceWriter {
            out,
            last_ns: header.start_ns,
            device: 0,
            ends: vec![0; header.devices.len()],
            requests: 0,
            buf: Vec::with_capacity(32),
        })
    }

    /// Appends `r`; records must come in issue order, on devices of the header.
    pub fn record(&mut self, r: &Record) -> std::io::Result<()> {
        let b = &mut self.buf;
        b.clear();
        let mut tag = op_bits(r.op);
        for (on, bit) in [(r.fua, FUA), (r.preflush, PREFLUSH), (r.sync, SYNC)] {
            if on {
                tag |= bit;
            }
        }
        let new_device = r.device != self.device;
        if new_device {
            tag |= DEVICE;
        }
        b.push(tag);
        varint(b, r.issue_ns.saturating_sub(self.last_ns));
        if new_device {
            varint(b, u64::from(r.device));
            self.device = r.device;
        }
        let end = &mut self.ends[r.device as usize];
        varint(b, zigzag(r.sector as i64 - *end as i64));
        varint(b, u64::from(r.sectors));
        varint(b, r.latency_ns);
        *end = r.sector + u64::from(r.sectors);
        self.last_ns = self.last_ns.max(r.issue_ns);
        self.requests += 1;
        self.out.write_all(b)
    }

    /// Writes the end marker and `trailer`, and gives the output back.
    pub fn finish(mut self, trailer: &Trailer) -> std::io::Result<W> {
        let json = serde_json::to_vec(trailer)?;
        self.out.write_all(&[END])?;
        self.out.write_all(&(json.len() as u32).to_le_bytes())?;
        self.out.write_all(&json)?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Opens the trace file at `path` and reads its header; the message names the file and
/// what is wrong (missing, foreign, newer, damaged).
pub fn open_file(path: &str) -> Result<TraceReader<std::io::BufReader<std::fs::File>>, String> {
    let f = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    TraceReader::new(std::io::BufReader::with_capacity(1 << 20, f))
        .map_err(|e| format!("{path}: {e}"))
}

/// Reads a trace record by record; `trailer` is set once the end marker is read.
pub struct TraceReader<R: BufRead> {
    input: R,
    pub header: Header,
    pub trailer: Option<Trailer>,
    last_ns: u64,
    device: u32,
    ends: Vec<u64>,
    /// Bytes read so far (for messages about where a trace breaks).
    pub offset: u64,
}

impl<R: BufRead> TraceReader<R> {
    /// Reads the magic and the header; a foreign or newer file is refused.
    pub fn new(mut input: R) -> Result<Self, TraceError> {
        let mut magic = [0u8; 8];
        read_exact(&mut input, &mut magic, 0)?;
        if &magic != MAGIC {
            return Err(TraceError::Foreign);
        }
        let mut len = [0u8; 4];
        read_exact(&mut input, &mut len, 8)?;
        let len = u32::from_le_bytes(len) as usize;
        if len > 1 << 24 {
            return Err(TraceError::Corrupt(8, "a header past 16 MiB".into()));
        }
        let mut json = vec![0u8; len];
        read_exact(&mut input, &mut json, 12)?;
        let header: Header = serde_json::from_slice(&json)
            .map_err(|e| TraceError::Corrupt(12, format!("its header: {e}")))?;
        if header.version > VERSION {
            return Err(TraceError::Newer(header.version));
        }
        Ok(TraceReader {
            input,
            last_ns: header.start_ns,
            ends: vec![0; header.devices.len()],
            header,
            trailer: None,
            device: 0,
            offset: 12 + len as u64,
        })
    }

    /// The next record; None at the end marker. A trace that stops mid-record, or without
    /// its end marker, is `TraceError::Truncated`.
    pub fn next_record(&mut self) -> Result<Option<Record>, TraceError> {
        if self.trailer.is_some() {
            return Ok(None);
        }
        let Some(tag) = self.byte()? else {
            return Err(TraceError::Truncated(self.offset));
        };
        if tag == END {
            let mut len = [0u8; 4];
            read_exact(&mut self.input, &mut len, self.offset)?;
            let mut json = vec![0u8; (u32::from_le_bytes(len) as usize).min(1 << 24)];
            read_exact(&mut self.input, &mut json, self.offset + 4)?;
            let trailer = serde_json::from_slice(&json)
                .map_err(|e| TraceError::Corrupt(self.offset, format!("its trailer: {e}")))?;
            self.trailer = Some(trailer);
            return Ok(None);
        }
        let at = self.offset - 1;
        let delta = self.varint()?;
        if tag & DEVICE != 0 {
            let d = self.varint()?;
            if d >= self.ends.len() as u64 {
                return Err(TraceError::Corrupt(
                    at,
                    format!("device {d} of {}", self.ends.len()),
                ));
            }
            self.device = d as u32;
        }
        let rel = unzigzag(self.varint()?);
        let sectors = self.varint()?;
        let latency_ns = self.varint()?;
        let end = &mut self.ends[self.device as usize];
        let sector = (*end as i64).checked_add(rel).filter(|s| *s >= 0);
        let (Some(sector), Ok(sectors)) = (sector, u32::try_from(sectors)) else {
            return Err(TraceError::Corrupt(at, "a record out of range".into()));
        };
        let sector = sector as u64;
        *end = sector + u64::from(sectors);
        self.last_ns = self.last_ns.saturating_add(delta);
        let op = [Op::Read, Op::Write, Op::Discard, Op::Flush][usize::from(tag & 3)];
        Ok(Some(Record {
            issue_ns: self.last_ns,
            device: self.device,
            op,
            preflush: tag & PREFLUSH != 0,
            fua: tag & FUA != 0,
            sync: tag & SYNC != 0,
            sector,
            sectors,
            latency_ns,
        }))
    }

    fn byte(&mut self) -> Result<Option<u8>, TraceError> {
        let Some(&b) = self.input.fill_buf()?.first() else {
            return Ok(None);
        };
        self.input.consume(1);
        self.offset += 1;
        Ok(Some(b))
    }

    fn varint(&mut self) -> Result<u64, TraceError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let Some(b) = self.byte()? else {
                return Err(TraceError::Truncated(self.offset));
            };
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(TraceError::Corrupt(
            self.offset,
            "a number past 64 bits".into(),
        ))
    }
}

fn read_exact(input: &mut impl Read, buf: &mut [u8], at: u64) -> Result<(), TraceError> {
    input.read_exact(buf).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof if at == 0 => TraceError::Foreign,
        std::io::ErrorKind::UnexpectedEof => TraceError::Truncated(at),
        _ => TraceError::Io(e),
    })
}

fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A trace header of `devices` 1 GiB devices (`loop0`…) starting at `start_ns`: the
    /// trace crate's tests' own.
    pub(crate) fn header(devices: usize, start_ns: u64) -> Header {
        Header {
            version: VERSION,
            dbio_version: "test".into(),
            started_at: "2026-11-27T00:00:00Z".into(),
            start_ns,
            clock: "mono".into(),
            devices: (0..devices)
                .map(|i| TraceDevice {
                    name: format!("loop{i}"),
                    dev: format!("7:{i}"),
                    size_bytes: 1 << 30,
                })
                .collect(),
            imported: None,
        }
    }

    /// A request on device 0 at `ns`, of `sectors` from `sector`, done `lat` later.
    pub(crate) fn rec(ns: u64, op: Op, sector: u64, sectors: u32, lat: u64) -> Record {
        Record {
            issue_ns: ns,
            device: 0,
            op,
            preflush: false,
            fua: false,
            sync: false,
            sector,
            sectors,
            latency_ns: lat,
        }
    }

    fn records() -> Vec<Record> {
        let mut rng = 12345u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut t = 1_000_000;
        (0..2000)
            .map(|i| {
                t += next() % 50_000;
                let op = [Op::Read, Op::Write, Op::Discard, Op::Flush][(next() % 4) as usize];
                Record {
                    issue_ns: t,
                    device: (i % 3 == 0) as u32,
                    op,
                    preflush: next() % 2 == 0,
                    fua: next() % 2 == 0,
                    sync: next() % 2 == 0,
                    sector: if i % 5 == 0 { 0 } else { next() % (1 << 21) },
                    sectors: (next() % 256) as u32,
                    latency_ns: next() % 10_000_000,
                }
            })
            .collect()
    }

    #[test]
    fn records_read_back_as_written_with_the_trailer() {
        let recs = records();
        let mut w = TraceWriter::new(Vec::new(), &header(2, 1_000_000)).unwrap();
        for r in &recs {
            w.record(r).unwrap();
        }
        let trailer = Trailer {
            requests: recs.len() as u64,
            lost_events: 3,
            ..Trailer::default()
        };
        let bytes = w.finish(&trailer).unwrap();
        let mut rd = TraceReader::new(&bytes[..]).unwrap();
        assert_eq!(rd.header, header(2, 1_000_000));
        let mut back = Vec::new();
        while let Some(r) = rd.next_record().unwrap() {
            back.push(r);
        }
        assert_eq!(back, recs);
        assert_eq!(rd.trailer, Some(trailer));
        let per = bytes.len() as f64 / recs.len() as f64;
        assert!(per < 16.0, "{per} bytes a request");
    }

    #[test]
    fn a_cut_trace_reads_to_its_last_whole_record_then_says_truncated() {
        let recs = records();
        let mut w = TraceWriter::new(Vec::new(), &header(2, 1_000_000)).unwrap();
        for r in &recs[..10] {
            w.record(r).unwrap();
        }
        // Killed mid-write: no end marker, the last record cut; or the trailer cut.
        let unfinished = w.out.clone();
        let finished = w.finish(&Trailer::default()).unwrap();
        for (bytes, whole) in [
            (&unfinished[..unfinished.len() - 3], 9),
            (&unfinished[..], 10),
            (&finished[..finished.len() - 5], 10),
        ] {
            let mut rd = TraceReader::new(bytes).unwrap();
            let mut n = 0;
            let err = loop {
                match rd.next_record() {
                    Ok(Some(r)) => {
                        assert_eq!(r, recs[n]);
                        n += 1
                    }
                    Ok(None) => panic!("a cut trace has no end"),
                    Err(e) => break e,
                }
            };
            assert_eq!(n, whole);
            assert!(matches!(err, TraceError::Truncated(_)), "{err}");
        }
    }

    #[test]
    fn a_foreign_or_newer_file_is_refused() {
        assert!(matches!(
            TraceReader::new(&b"hello"[..]),
            Err(TraceError::Foreign)
        ));
        assert!(matches!(
            TraceReader::new(&[0u8; 64][..]),
            Err(TraceError::Foreign)
        ));
        let mut h = header(1, 1_000_000);
        h.version = 99;
        let bytes = TraceWriter::new(Vec::new(), &h).unwrap().out;
        assert!(matches!(
            TraceReader::new(&bytes[..]),
            Err(TraceError::Newer(99))
        ));
    }
}
