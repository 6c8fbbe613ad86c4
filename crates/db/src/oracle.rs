//! Oracle exports: a CSV of `V$FILESTAT` / `V$TEMPSTAT` joined with `V$DATAFILE` /
//! `V$TEMPFILE` (times in centiseconds), and the "File IO Stats" section of an AWR text
//! report (reads with their average time, writes without).

use crate::error::DbError;
use crate::kind;
use crate::snapshot::Snapshot;
use crate::table::Table;
use dbio_model::advise::ObjectIo;

const REQUIRED: &[&str] = &[
    "name",
    "bytes",
    "phyrds",
    "phywrts",
    "phyblkrd",
    "phyblkwrt",
    "readtim",
    "writetim",
];
const OPTIONAL: &[&str] = &[
    "file_type",
    "file#",
    "tablespace_name",
    "block_size",
    "singleblkrds",
    "singleblkrdtim",
    "seconds_since_startup",
    "startup_time",
];

/// Whether a CSV header is the Oracle form.
pub fn detect(header: &str) -> bool {
    header.to_ascii_lowercase().contains("phyrds")
}

/// Reads a V$FILESTAT CSV export.
pub fn parse(text: &str, file: &str) -> Result<Snapshot, DbError> {
    let t = Table::parse(text, file)?;
    t.check("Oracle V$FILESTAT", REQUIRED, OPTIONAL)?;
    let mut s = Snapshot::new("oracle", file);
    let mut since = 0u64;
    let mut default_block = false;
    for r in t.rows() {
        let ft = t.has("file_type").then(|| r.text("file_type"));
        let k = kind::oracle(ft, r.text("tablespace_name"));
        let block = match r.opt_num("block_size")? {
            Some(b) if b > 0.0 => b as u64,
            _ => {
                default_block = true;
                8192
            }
        };
        let mut o = ObjectIo::new(r.text("name"), k);
        o.size_bytes = Some(r.count("bytes")?);
        o.reads = r.count("phyrds")?;
        o.writes = r.count("phywrts")?;
        // Saturating: counts past u64 are refused by their sum (Snapshot::checked).
        o.bytes_read = r.count("phyblkrd")?.saturating_mul(block);
        o.bytes_written = r.count("phyblkwrt")?.saturating_mul(block);
        o.read_ms = Some(r.num("readtim")? * 10.0);
        o.write_ms = Some(r.num("writetim")? * 10.0);
        since = since.max(r.count("seconds_since_startup")?);
        if s.server_started.is_none() && !r.text("startup_time").is_empty() {
            s.server_started = Some(r.text("startup_time").to_string());
        }
        s.objects.push(o);
    }
    if since > 0 {
        let ms = since.checked_mul(1000).ok_or_else(|| {
            DbError::export(
                file,
                format!(
                    "SECONDS_SINCE_STARTUP {since} is more seconds than any server has run; check that column of the export"
                ),
            )
        })?;
        s.counting_ms = Some(ms);
    }
    if default_block {
        s.notes
            .push("no BLOCK_SIZE for some files: bytes counted in 8 KiB blocks".into());
    }
    Ok(s)
}

/// Whether a text holds an AWR "File IO Stats" section.
pub fn detect_awr(text: &str) -> bool {
    text.contains("File IO Stats")
}

/// Reads the "File IO Stats" section of an AWR text report: per file, the tablespace line
/// and a line of numbers (8 of them up to 11g; 10 from 12c, with the single-block columns).
pub fn parse_awr(text: &str, file: &str) -> Result<Snapshot, DbError> {
    let mut lines = text
        .lines()
        .enumerate()
        .skip_while(|(_, l)| !l.contains("File IO Stats"));
    // Past the column header: the second line of dashes after the title.
    let mut dashes = 0;
    for (_, l) in lines.by_ref() {
        if is_rule(l) && l.contains(' ') {
            dashes += 1;
            if dashes == 2 {
                break;
            }
        }
    }
    if dashes < 2 {
        return Err(DbError::export(
            file,
            "the File IO Stats section has no column header; paste the section as the AWR text report prints it",
        ));
    }
    let mut s = Snapshot::new("oracle-awr", file);
    s.is_delta = true;
    let mut current: Option<(String, String)> = None;
    for (i, l) in lines {
        let t = l.trim();
        if t.is_empty() {
            continue;
        }
        if is_rule(t) || t.starts_with("File Read Histogram") || t.contains("End of Report") {
            break;
        }
        let tokens: Vec<&str> = t.split_whitespace().collect();
        if number(tokens[0]).is_none() {
            let (ts, name) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
            current = Some((ts.to_string(), name.trim().to_string()));
            continue;
        }
        let Some((ts, name)) = current.take() else {
            return Err(DbError::line(
                file,
                i as u64 + 1,
                "numbers without a tablespace and file line before them",
            ));
        };
        s.objects.push(awr_file(&ts, &name, &tokens, file, i + 1)?);
    }
    if s.objects.is_empty() {
        return Err(DbError::export(
            file,
            "the File IO Stats section lists no files",
        ));
    }
    s.counting_ms = elapsed_ms(text);
    s.notes.push("AWR File IO Stats: read times only (writes have none); bytes from Av Blks/Rd and one 8 KiB block per write; sizes come from --sizes".into());
    Ok(s)
}

/// One file's numbers line.
fn awr_file(
    ts: &str,
    name: &str,
    tokens: &[&str],
    file: &str,
    line: usize,
) -> Result<ObjectIo, DbError> {
    let n: Vec<f64> = tokens.iter().map(|t| number(t).unwrap_or(0.0)).collect();
    let (reads, av_rd, blks, writes) = match n.len() {
        8 => (n[0], n[2], n[3], n[4]),
        10 => (n[0], n[2], n[3], n[6]),
        k => {
            return Err(DbError::line(
                file,
                line as u64,
                format!(
                "{k} numbers for {name}; the File IO Stats layout has 8 (up to 11g) or 10 (12c on)"
            ),
            ))
        }
    };
    let mut o = ObjectIo::new(name, kind::oracle(None, ts));
    o.reads = reads as u64;
    o.writes = writes as u64;
    o.bytes_read = (reads * blks.max(1.0) * 8192.0) as u64;
    // In f64 like the reads: a cast saturates where u64 arithmetic would overflow.
    o.bytes_written = (writes * 8192.0) as u64;
    o.read_ms = Some(reads * av_rd);
    Ok(o)
}

/// A number as AWR prints it (1,187; 4.6); None for text.
fn number(t: &str) -> Option<f64> {
    let c = t.replace(',', "");
    match c.parse::<f64>() {
        Ok(v) if v.is_finite() => Some(v),
        _ if t.chars().all(|c| c == '#') => Some(0.0),
        _ => None,
    }
}

/// A line of dashes (with or without column gaps).
fn is_rule(l: &str) -> bool {
    let t = l.trim();
    t.len() >= 10 && t.chars().all(|c| c == '-' || c == ' ')
}

/// "Elapsed:  60.02 (mins)" of the report's header, in ms.
fn elapsed_ms(text: &str) -> Option<u64> {
    let l = text
        .lines()
        .find(|l| l.trim_start().starts_with("Elapsed:"))?;
    let v: f64 = l.split_whitespace().nth(1)?.replace(',', "").parse().ok()?;
    l.contains("(mins)").then_some((v * 60_000.0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 12c layout adds "1-bk Rds/s" and "Av 1-bk Rd(ms)" after Av Blks/Rd: 10 numbers.
    #[test]
    fn awr_12c_layout() {
        let text = "   Elapsed:               30.00 (mins)
File IO Stats                             DB/Inst: X/x  Snaps: 1-2
-> ordered by Tablespace, File

Tablespace               Filename
------------------------ ----------------------------------------------------
                        Av       Av     Av                    1-bk  Av 1-bk          Writes   Buffer  Av Buf
         Reads Reads/s Rd(ms) Blks/Rd       Writes Writes/s Rds/s Rd(ms)   avg Waits Wt(ms)
-------------- ------- ------ ------- ------------ -------- ------- ------- -------- ------ ------
USERS_IDX                +DATA/X/DATAFILE/users_idx.270.1
         2,000       1    4.5     1.0       1     4.4        1,000        1        0      0    0.0
TEMP                     +DATA/X/TEMPFILE/temp.264.1
           100       0    1.0    16.0       0     0.0          300        0        0      0    0.0
";
        // 10 numbers on the first line (one too many) are refused with the count.
        assert!(parse_awr(text, "a")
            .unwrap_err()
            .to_string()
            .contains("11 numbers"));
        let text = text.replace("        0      0    0.0\n", "        0    0.0\n");
        assert!(!text.contains("0      0    0.0"));
        let s = parse_awr(&text, "a").unwrap();
        assert_eq!(s.counting_ms, Some(1_800_000));
        let idx = &s.objects[0];
        assert_eq!(
            (idx.name.as_str(), idx.kind),
            (
                "+DATA/X/DATAFILE/users_idx.270.1",
                dbio_model::advise::ObjectKind::Index
            )
        );
        assert_eq!(
            (idx.reads, idx.writes, idx.read_ms),
            (2000, 1000, Some(9000.0))
        );
        assert_eq!(s.objects[1].kind, dbio_model::advise::ObjectKind::Temp);
        assert_eq!(s.objects[1].bytes_read, 100 * 16 * 8192);
    }

    /// Found by the `exports` fuzz target: a writes figure past u64::MAX / 8192 overflowed.
    #[test]
    fn awr_writes_beyond_u64_do_not_overflow() {
        let o = awr_file(
            "USERS",
            "f",
            &["1", "0", "1.0", "1.0", "9e18", "0", "0", "0"],
            "a",
            1,
        )
        .unwrap();
        assert_eq!(o.bytes_written, u64::MAX);
    }

    /// Found by the `exports` fuzz target in CI: SECONDS_SINCE_STARTUP near u64::MAX overflowed
    /// on its way to milliseconds; it is refused, naming the column.
    #[test]
    fn filestat_uptime_beyond_u64_ms_is_refused() {
        let head = "FILE_TYPE,FILE#,TABLESPACE_NAME,NAME,BYTES,BLOCK_SIZE,PHYRDS,PHYWRTS,PHYBLKRD,PHYBLKWRT,READTIM,WRITETIM,SECONDS_SINCE_STARTUP,STARTUP_TIME";
        let row = |secs: &str| {
            format!("{head}\nDATA,5,USERS,/u02/users01.dbf,8192,8192,1,2,1,2,3,4,{secs},2009-11-02 08:00:00\n")
        };
        let e = parse(&row("99999999999999999999"), "f.csv")
            .unwrap_err()
            .to_string();
        assert!(e.contains("SECONDS_SINCE_STARTUP"), "{e}");
        // The largest that fits is kept as milliseconds.
        let s = parse(&row("98000"), "f.csv").unwrap();
        assert_eq!(s.counting_ms, Some(98_000_000));
    }
}
