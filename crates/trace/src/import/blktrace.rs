//! blktrace's binary output: per-CPU files of `struct blk_io_trace` (version 7, 48 bytes,
//! or version 8, 64 bytes with a 64-bit action), each followed by `pdu_len` bytes of
//! payload, in the recording machine's byte order. The issues (D) and completions (C) of
//! file-system requests are paired into requests as a capture pairs the tracepoints.

use crate::event::{BlockEvent, Op, Rwbs};
use std::io::{BufReader, Read};

const MAGIC: u32 = 0x6561_7400;
const TA_ISSUE: u64 = 7;
const TA_COMPLETE: u64 = 8;
/// Categories, above the action's low 16 bits.
const TC_WRITE: u64 = 1 << 1;
const TC_FLUSH: u64 = 1 << 2;
const TC_SYNC: u64 = 1 << 3;
const TC_PC: u64 = 1 << 9;
const TC_NOTIFY: u64 = 1 << 10;
const TC_DISCARD: u64 = 1 << 13;
const TC_FUA: u64 = 1 << 15;

/// One event of a blktrace file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Event {
    /// Nanoseconds on the recording machine's clock.
    pub time: u64,
    pub sector: u64,
    pub bytes: u32,
    pub action: u64,
    /// The kernel's dev_t: major << 20 | minor.
    pub device: u32,
}

/// What an event is to a trace.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Kind {
    Issue(BlockEvent),
    Complete(BlockEvent),
    /// Anything else: queueing, merges, notes, passthrough commands.
    Other,
}

impl Event {
    /// The event as an issue or a completion of a request with data or a flush.
    pub fn kind(&self) -> Kind {
        let cat = self.action >> 16;
        let act = self.action & 0xff;
        if cat & (TC_PC | TC_NOTIFY) != 0 || !(act == TA_ISSUE || act == TA_COMPLETE) {
            return Kind::Other;
        }
        let op = match (cat & TC_DISCARD != 0, cat & TC_WRITE != 0, self.bytes) {
            (true, _, _) => Op::Discard,
            (false, true, _) => Op::Write,
            (false, false, 0) if cat & TC_FLUSH != 0 => Op::Flush,
            (false, false, 0) => return Kind::Other,
            (false, false, _) => Op::Read,
        };
        let e = BlockEvent {
            dev: self.device,
            sector: self.sector,
            sectors: self.bytes / 512,
            rwbs: Rwbs {
                op,
                preflush: op != Op::Flush && cat & TC_FLUSH != 0,
                fua: cat & TC_FUA != 0,
                sync: cat & TC_SYNC != 0,
            },
        };
        if act == TA_ISSUE {
            Kind::Issue(e)
        } else {
            Kind::Complete(e)
        }
    }
}

/// Whether `head` (a file's first bytes) begins with a blktrace event's magic.
pub(crate) fn looks_like(head: &[u8]) -> bool {
    let Some(m) = head.get(..4) else {
        return false;
    };
    let m: [u8; 4] = m.try_into().expect("four bytes");
    [u32::from_le_bytes(m), u32::from_be_bytes(m)]
        .iter()
        .any(|m| m & 0xffff_ff00 == MAGIC)
}

/// Reads one blktrace file event by event.
pub(crate) struct EventReader<R: Read> {
    input: R,
    path: String,
    /// Bytes read so far.
    pub offset: u64,
    /// The file stops inside an event (blktrace was killed, or the copy cut short).
    pub cut: bool,
}

impl EventReader<BufReader<std::fs::File>> {
    pub fn open(path: &str) -> Result<Self, String> {
        let f = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        Ok(EventReader::new(BufReader::with_capacity(1 << 20, f), path))
    }
}

impl<R: Read> EventReader<R> {
    pub fn new(input: R, path: &str) -> Self {
        EventReader {
            input,
            path: path.to_string(),
            offset: 0,
            cut: false,
        }
    }

    /// The next event; None at the end of the file (or where it was cut).
    pub fn next_event(&mut self) -> Result<Option<Event>, String> {
        let mut b = [0u8; 64];
        if !self.fill(&mut b[..48])? {
            return Ok(None);
        }
        let m: [u8; 4] = b[..4].try_into().expect("four bytes");
        let big = if u32::from_le_bytes(m) & 0xffff_ff00 == MAGIC {
            false
        } else if u32::from_be_bytes(m) & 0xffff_ff00 == MAGIC {
            true
        } else {
            let at = self.offset - 48;
            return Err(format!(
                "{}: no blktrace event at byte {at} (a damaged file, or not blktrace's output)",
                self.path
            ));
        };
        let version = if big { b[3] } else { b[0] };
        if version == 8 && !self.fill(&mut b[48..])? {
            return Ok(None);
        }
        let u16_at = |k: usize| {
            let v = [b[k], b[k + 1]];
            u64::from(if big {
                u16::from_be_bytes(v)
            } else {
                u16::from_le_bytes(v)
            })
        };
        let u32_at = |k: usize| {
            let v = b[k..k + 4].try_into().expect("four bytes");
            u64::from(if big {
                u32::from_be_bytes(v)
            } else {
                u32::from_le_bytes(v)
            })
        };
        let u64_at = |k: usize| {
            let v = b[k..k + 8].try_into().expect("eight bytes");
            if big {
                u64::from_be_bytes(v)
            } else {
                u64::from_le_bytes(v)
            }
        };
        let (action, device, pdu) = match version {
            7 => (u32_at(28), u32_at(36), u16_at(46)),
            8 => (u64_at(32), u32_at(40), u16_at(50)),
            v => {
                return Err(format!(
                    "{}: blktrace events of version {v}; dbio reads versions 7 and 8",
                    self.path
                ))
            }
        };
        let e = Event {
            time: u64_at(8),
            sector: u64_at(16),
            bytes: u32_at(24) as u32,
            action,
            device: device as u32,
        };
        let skipped = std::io::copy(&mut (&mut self.input).take(pdu), &mut std::io::sink())
            .map_err(|e| format!("{}: {e}", self.path))?;
        self.offset += skipped;
        if skipped < pdu {
            self.cut = true;
            return Ok(None);
        }
        Ok(Some(e))
    }

    /// Fills `buf`; false at the end of the file (and `cut` when it ends part way).
    fn fill(&mut self, buf: &mut [u8]) -> Result<bool, String> {
        let mut got = 0;
        while got < buf.len() {
            match self.input.read(&mut buf[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(format!("{}: {e}", self.path)),
            }
        }
        self.offset += got as u64;
        self.cut |= got > 0 && got < buf.len();
        Ok(got == buf.len())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A version 7 event in little-endian order with `pdu` bytes of payload.
    pub(crate) fn v7(time: u64, sector: u64, bytes: u32, action: u32, pdu: &[u8]) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend((MAGIC | 7).to_le_bytes());
        b.extend(0u32.to_le_bytes());
        b.extend(time.to_le_bytes());
        b.extend(sector.to_le_bytes());
        b.extend(bytes.to_le_bytes());
        b.extend(action.to_le_bytes());
        b.extend(42u32.to_le_bytes());
        b.extend(((7u32 << 20) | 3).to_le_bytes());
        b.extend(1u32.to_le_bytes());
        b.extend(0u16.to_le_bytes());
        b.extend((pdu.len() as u16).to_le_bytes());
        b.extend(pdu);
        b
    }

    const READ_ISSUE: u32 = 7 | (1 << 16) | (1 << 22);
    const WRITE_COMPLETE: u32 = 8 | (2 << 16) | (1 << 23);

    #[test]
    fn version_7_events_in_either_byte_order_with_payloads_skipped() {
        let mut bytes = v7(100, 2048, 4096, READ_ISSUE, b"fio\0");
        bytes.extend(v7(250, 16, 8192, WRITE_COMPLETE | (1 << 31), &[]));
        let mut rd = EventReader::new(&bytes[..], "t");
        let e = rd.next_event().unwrap().unwrap();
        assert_eq!(
            (e.time, e.sector, e.bytes, e.device),
            (100, 2048, 4096, (7 << 20) | 3)
        );
        let Kind::Issue(i) = e.kind() else {
            panic!("{e:?}")
        };
        assert_eq!((i.rwbs.op, i.sectors), (Op::Read, 8));
        let Kind::Complete(c) = rd.next_event().unwrap().unwrap().kind() else {
            panic!()
        };
        assert_eq!((c.rwbs.op, c.rwbs.fua), (Op::Write, true));
        assert_eq!(rd.next_event().unwrap(), None);
        assert!(!rd.cut);
        // The same event written big-endian.
        let mut be = bytes[..48].to_vec();
        for (k, w) in [
            (0, 4),
            (4, 4),
            (8, 8),
            (16, 8),
            (24, 4),
            (28, 4),
            (32, 4),
            (36, 4),
            (40, 4),
            (44, 2),
            (46, 2),
        ] {
            be[k..k + w].reverse();
        }
        be.extend(b"fio\0");
        assert_eq!(
            EventReader::new(&be[..], "t").next_event().unwrap(),
            Some(e)
        );
    }

    #[test]
    fn version_8_events_have_a_wide_action_and_64_bytes() {
        let mut b = Vec::new();
        b.extend((MAGIC | 8).to_le_bytes());
        b.extend(0u32.to_le_bytes());
        b.extend(500u64.to_le_bytes());
        b.extend(64u64.to_le_bytes());
        b.extend(4096u32.to_le_bytes());
        b.extend(42u32.to_le_bytes());
        b.extend(u64::from(READ_ISSUE).to_le_bytes());
        b.extend((8u32 << 20).to_le_bytes());
        b.extend(0u32.to_le_bytes());
        b.extend(0u16.to_le_bytes());
        b.extend(0u16.to_le_bytes());
        b.extend([0u8; 12]);
        assert_eq!(b.len(), 64);
        let e = EventReader::new(&b[..], "t").next_event().unwrap().unwrap();
        assert_eq!((e.time, e.sector, e.device), (500, 64, 8 << 20));
        assert!(matches!(e.kind(), Kind::Issue(_)));
    }

    #[test]
    fn a_cut_file_stops_at_its_last_whole_event_and_a_foreign_one_is_named() {
        let mut bytes = v7(100, 0, 4096, READ_ISSUE, &[]);
        bytes.extend(&v7(200, 0, 4096, READ_ISSUE, &[])[..30]);
        let mut rd = EventReader::new(&bytes[..], "t");
        assert!(rd.next_event().unwrap().is_some());
        assert_eq!(rd.next_event().unwrap(), None);
        assert!(rd.cut);
        let err = EventReader::new(&[7u8; 64][..], "x.blktrace.0")
            .next_event()
            .unwrap_err();
        assert!(
            err.contains("x.blktrace.0: no blktrace event at byte 0"),
            "{err}"
        );
    }

    #[test]
    fn flushes_discards_and_passthrough() {
        let ev = |action: u64, bytes| Event {
            time: 0,
            sector: 0,
            bytes,
            action,
            device: 0,
        };
        let flush = ev(7 | ((1 | TC_FLUSH) << 16), 0).kind();
        assert!(matches!(flush, Kind::Issue(e) if e.rwbs.op == Op::Flush && !e.rwbs.preflush));
        let pre = ev(7 | ((TC_WRITE | TC_FLUSH) << 16), 4096).kind();
        assert!(matches!(pre, Kind::Issue(e) if e.rwbs.op == Op::Write && e.rwbs.preflush));
        let trim = ev(8 | ((TC_WRITE | TC_DISCARD) << 16), 1 << 20).kind();
        assert!(matches!(trim, Kind::Complete(e) if e.rwbs.op == Op::Discard));
        assert_eq!(ev(7 | (TC_PC << 16), 512).kind(), Kind::Other);
        assert_eq!(ev(1 | (1 << 16), 4096).kind(), Kind::Other, "a queue event");
    }
}
