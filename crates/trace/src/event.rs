//! The block layer's `block_rq_issue` and `block_rq_complete` events: where their fields
//! are (read from each event's `format` file, which changes between kernels) and what one
//! event says.

use crate::page::{u32_at, u64_at};

/// An operation as the block layer's `rwbs` string names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Read,
    Write,
    Discard,
    /// A flush of the device's cache, no data.
    Flush,
}

/// An operation and its flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rwbs {
    pub op: Op,
    /// The device's cache is flushed before the data (REQ_PREFLUSH).
    pub preflush: bool,
    /// The data is written through the device's cache (REQ_FUA).
    pub fua: bool,
    pub sync: bool,
}

impl Rwbs {
    /// Reads the block layer's string: an optional `F` (preflush), the operation (`R`, `W`,
    /// `D`, `F` for a flush, `N` for none), then `F` (FUA), `A`, `S`, `M`.
    pub fn parse(s: &[u8]) -> Rwbs {
        let s = &s[..s.iter().position(|&c| c == 0).unwrap_or(s.len())];
        let op_at = s.iter().position(|c| b"RWDN".contains(c));
        let (op, preflush, after) = match op_at {
            Some(k) => {
                let op = match s[k] {
                    b'R' => Op::Read,
                    b'W' => Op::Write,
                    b'D' => Op::Discard,
                    _ => Op::Flush,
                };
                (op, k > 0 && s[0] == b'F', &s[k + 1..])
            }
            // "F" or "FF": a flush (after a preflush).
            None => (Op::Flush, s.len() > 1, &s[s.len().min(2)..]),
        };
        Rwbs {
            op,
            preflush,
            fua: op_at.is_some() && after.contains(&b'F'),
            sync: after.contains(&b'S'),
        }
    }
}

/// Where one event's fields are, and its id.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub id: u16,
    dev: usize,
    sector: usize,
    nr_sector: usize,
    rwbs: (usize, usize),
}

impl Layout {
    /// Reads an event's `format` file; None names the field it lacks.
    pub fn parse(format: &str) -> Result<Layout, String> {
        let id = format
            .lines()
            .find_map(|l| l.strip_prefix("ID:"))
            .and_then(|v| v.trim().parse().ok())
            .ok_or("no ID line")?;
        let field = |name: &str| -> Result<(usize, usize), String> {
            format
                .lines()
                .filter(|l| l.trim_start().starts_with("field:"))
                .find_map(|l| {
                    let mut parts = l.split(';').map(str::trim);
                    let decl = parts.next()?;
                    let decl = decl.split('[').next()?;
                    if decl.split_whitespace().last()? != name {
                        return None;
                    }
                    let num = |key: &str, p: Option<&str>| p?.strip_prefix(key)?.parse().ok();
                    Some((num("offset:", parts.next())?, num("size:", parts.next())?))
                })
                .ok_or_else(|| format!("no field {name}"))
        };
        let sized = |name: &str, size: usize| {
            let (at, n) = field(name)?;
            if n == size {
                Ok(at)
            } else {
                Err(format!("field {name} is {n} bytes, not {size}"))
            }
        };
        Ok(Layout {
            id,
            dev: sized("dev", 4)?,
            sector: sized("sector", 8)?,
            nr_sector: sized("nr_sector", 4)?,
            rwbs: field("rwbs")?,
        })
    }

    /// The event in `data` when it is of this layout (its id) and long enough.
    pub fn read(&self, data: &[u8]) -> Option<BlockEvent> {
        let (rwbs_at, rwbs_len) = self.rwbs;
        let needed = [
            self.dev + 4,
            self.sector + 8,
            self.nr_sector + 4,
            rwbs_at + rwbs_len,
        ];
        if data.len() < 2
            || u16::from_le_bytes([data[0], data[1]]) != self.id
            || needed.iter().any(|&n| n > data.len())
        {
            return None;
        }
        Some(BlockEvent {
            dev: u32_at(data, self.dev),
            sector: u64_at(data, self.sector),
            sectors: u32_at(data, self.nr_sector),
            rwbs: Rwbs::parse(&data[rwbs_at..rwbs_at + rwbs_len]),
        })
    }
}

/// What one issue or completion event says of its request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BlockEvent {
    /// The kernel's dev_t: major << 20 | minor.
    pub dev: u32,
    pub sector: u64,
    pub sectors: u32,
    pub rwbs: Rwbs,
}

/// The kernel's in-trace dev_t of a device's major and minor numbers.
pub fn kernel_dev(major: u32, minor: u32) -> u32 {
    (major << 20) | minor
}

#[cfg(test)]
mod tests {
    use super::*;

    const ISSUE: &str = "name: block_rq_issue\nID: 2104\nformat:\n\
\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\
\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n\
\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n\
\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n\
\tfield:unsigned int bytes;\toffset:28;\tsize:4;\tsigned:0;\n\
\tfield:char rwbs[10];\toffset:34;\tsize:10;\tsigned:0;\n";

    #[test]
    fn a_format_file_gives_each_field_s_place() {
        let l = Layout::parse(ISSUE).unwrap();
        let mut data = vec![0u8; 64];
        data[..2].copy_from_slice(&2104u16.to_le_bytes());
        data[8..12].copy_from_slice(&kernel_dev(7, 3).to_le_bytes());
        data[16..24].copy_from_slice(&123_456u64.to_le_bytes());
        data[24..28].copy_from_slice(&16u32.to_le_bytes());
        data[34..37].copy_from_slice(b"WFS");
        let e = l.read(&data).unwrap();
        assert_eq!((e.dev, e.sector, e.sectors), ((7 << 20) | 3, 123_456, 16));
        assert_eq!(
            e.rwbs,
            Rwbs {
                op: Op::Write,
                preflush: false,
                fua: true,
                sync: true
            }
        );
        data[0] = 0;
        assert_eq!(l.read(&data), None, "another event's id");
        assert_eq!(l.read(&data[..20]), None);
        let broken = ISSUE.replace("nr_sector", "nr_sect");
        assert_eq!(Layout::parse(&broken), Err("no field nr_sector".into()));
    }

    #[test]
    fn rwbs_strings_as_the_block_layer_writes_them() {
        let p = |s: &str| {
            let r = Rwbs::parse(s.as_bytes());
            (r.op, r.preflush, r.fua, r.sync)
        };
        assert_eq!(p("R"), (Op::Read, false, false, false));
        assert_eq!(p("RA"), (Op::Read, false, false, false));
        assert_eq!(p("WS"), (Op::Write, false, false, true));
        assert_eq!(p("FWS"), (Op::Write, true, false, true));
        assert_eq!(p("FWFS"), (Op::Write, true, true, true));
        assert_eq!(p("D"), (Op::Discard, false, false, false));
        assert_eq!(p("FF"), (Op::Flush, true, false, false));
        assert_eq!(p("F"), (Op::Flush, false, false, false));
        assert_eq!(p("FN"), (Op::Flush, true, false, false));
    }
}
