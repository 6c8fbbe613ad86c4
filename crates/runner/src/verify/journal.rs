//! The verify journal (`--verify-journal FILE`): the last acknowledged write of every block,
//! kept on disk so that `dbio verify --journal FILE` can check the targets after a crash.
//!
//! Layout: the magic `DBIOJNL1`, a little-endian u32 length, that many bytes of JSON
//! ([`JournalHeader`]), then per target a table of one little-endian u64 per 4 KiB block
//! (its last acknowledged write's sequence in bits 0..59; bit 62 set: not to be checked; bit
//! 61 set: found bad during the run, as the kind in bits 59..61, so reported bad by every
//! later check), each table at a multiple of 4096. A thread copies the changed 4 KiB pages of the tables into the file and
//! syncs it every [`SYNC_EVERY`]: a write acknowledged before the last sync must be found
//! (or a later one); one acknowledged after it may be found old or new. Entries only grow,
//! so a page half-updated by a power cut holds nothing false. A journal the run could not
//! write has its magic replaced by `DBIOJNL!` (incomplete), which `dbio verify` refuses.

use super::error::{CheckError, JournalError, KeepError};
use super::pass::Expected;
use super::table::{bad_kind, StreamVerify, BUSY, SEQ, SKIP};
use dbio_model::verify::{JournalHeader, JournalTarget, JOURNAL_FORMAT, VERIFY_UNIT};
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The journal's magic value.
pub const MAGIC: [u8; 8] = *b"DBIOJNL1";
/// The magic of a journal its run could not keep up to date: `dbio verify` refuses it.
pub const FAILED_MAGIC: [u8; 8] = *b"DBIOJNL!";
/// How often the journal is brought up to date and synced.
pub const SYNC_EVERY: Duration = Duration::from_millis(100);
/// Entries per 4 KiB page of a table.
const PER_PAGE: usize = 512;
/// Longest header a journal may have.
const MAX_HEADER: usize = 1 << 20;

/// A journal being kept by its thread.
pub struct JournalWriter {
    path: String,
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Result<(), KeepError>>,
}

fn page_up(n: u64) -> u64 {
    n.div_ceil(4096) * 4096
}

impl JournalWriter {
    /// Creates the journal `path` (which must not exist) for the tables of `streams` and
    /// starts its thread. Should the journal fail to be written, its thread marks it failed
    /// and sets `run_abort` (the run's own stop, never the user's Ctrl-C flag), so the run
    /// ends.
    pub fn create(
        path: &str,
        run: u64,
        streams: &[Arc<StreamVerify>],
        run_abort: Arc<AtomicBool>,
    ) -> Result<Self, JournalError> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::AlreadyExists => JournalError::Exists { path: path.into() },
                _ => JournalError::Create {
                    path: path.into(),
                    source: e,
                },
            })?;
        let (header, at) = journal_header(run, streams);
        let mut head = MAGIC.to_vec();
        let json = serde_json::to_vec(&header).expect("a header serialises");
        head.extend((json.len() as u32).to_le_bytes());
        head.extend(json);
        let fail = |e: std::io::Error| {
            let _ = std::fs::remove_file(path);
            JournalError::Header {
                path: path.into(),
                source: e,
            }
        };
        file.set_len(at).map_err(fail)?;
        file.write_all_at(&head, 0).map_err(fail)?;
        file.sync_all().map_err(fail)?;
        if let Some(dir) = std::path::Path::new(path).parent() {
            let dir = if dir.as_os_str().is_empty() {
                std::path::Path::new(".")
            } else {
                dir
            };
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        let stop = Arc::new(AtomicBool::new(false));
        let tables: Vec<(Arc<StreamVerify>, usize, u64)> = streams
            .iter()
            .flat_map(|s| (0..s.targets.len()).map(move |i| (s.clone(), i, 0)))
            .zip(&header.targets)
            .map(|((s, i, _), t)| (s, i, t.table_at))
            .collect();
        let flag = stop.clone();
        let thread = std::thread::Builder::new()
            .name("dbio-journal".into())
            .spawn(move || {
                let kept = keep(&file, tables, flag);
                if kept.is_err() {
                    mark_failed(&file);
                    run_abort.store(true, Ordering::Release);
                }
                kept
            })
            .map_err(|e| JournalError::Thread {
                path: path.into(),
                source: e,
            })?;
        Ok(JournalWriter {
            path: path.to_string(),
            stop,
            thread,
        })
    }

    /// Brings the journal up to date a last time, syncs it and ends its thread. The error
    /// names the journal, the offset and what failed.
    pub fn close(self) -> Result<(), JournalError> {
        self.stop.store(true, Ordering::Release);
        let kept = self.thread.join().unwrap_or(Err(KeepError::Panicked));
        kept.map_err(|e| JournalError::NotKept {
            path: self.path,
            source: e,
        })
    }
}

/// The header of the journal of `streams` in run `run`, with every table placed, and the
/// journal's length.
fn journal_header(run: u64, streams: &[Arc<StreamVerify>]) -> (JournalHeader, u64) {
    let mut header = JournalHeader {
        format: JOURNAL_FORMAT.into(),
        run_id: format!("{run:016x}"),
        unit_bytes: VERIFY_UNIT,
        sync_every_ms: SYNC_EVERY.as_millis() as u64,
        targets: Vec::new(),
    };
    for s in streams {
        for t in &s.targets {
            header.targets.push(JournalTarget {
                path: absolute(&t.name),
                tag: format!("{:016x}", t.tag),
                start: t.start,
                blocks: t.blocks.len() as u64,
                // Offsets take at most 20 digits each: the header is sized with the widest.
                table_at: u64::MAX,
            });
        }
    }
    let widest = serde_json::to_vec(&header)
        .expect("a header serialises")
        .len() as u64;
    let mut at = page_up(12 + widest);
    for t in &mut header.targets {
        t.table_at = at;
        at += page_up(t.blocks * 8);
    }
    (header, at)
}

/// `path` as an absolute path, so that `dbio verify` finds the target from any working
/// directory. Symbolic links are kept: a stable name such as /dev/disk/by-id/... must stay
/// that name after a reboot.
fn absolute(path: &str) -> String {
    std::path::absolute(path).map_or_else(|_| path.to_string(), |p| p.display().to_string())
}

/// Marks the journal `file` failed (its magic becomes [`FAILED_MAGIC`]), as far as the file
/// still takes writes: its first page was written and synced when it was created.
fn mark_failed(file: &File) {
    if file.write_all_at(&FAILED_MAGIC, 0).is_ok() {
        let _ = file.sync_data();
    }
}

/// The journal thread: copies changed pages and syncs, every [`SYNC_EVERY`], until told to
/// stop (then once more). The error names the offset and the failed call.
fn keep(
    file: &File,
    tables: Vec<(Arc<StreamVerify>, usize, u64)>,
    stop: Arc<AtomicBool>,
) -> Result<(), KeepError> {
    let mut copies: Vec<Vec<u64>> = tables
        .iter()
        .map(|(s, i, _)| vec![0; s.targets[*i].blocks.len()])
        .collect();
    let mut page = Vec::with_capacity(PER_PAGE * 8);
    loop {
        let last = stop.load(Ordering::Acquire);
        let mut wrote = None;
        for ((s, i, at), copy) in tables.iter().zip(&mut copies) {
            let t = &s.targets[*i];
            for (p, (now, kept)) in t
                .blocks
                .chunks(PER_PAGE)
                .zip(copy.chunks_mut(PER_PAGE))
                .enumerate()
            {
                let mut changed = false;
                for (e, k) in now.iter().zip(kept.iter_mut()) {
                    let v = e.load(Ordering::Acquire) & !BUSY;
                    if v != *k {
                        *k = v;
                        changed = true;
                    }
                }
                if changed {
                    page.clear();
                    kept.iter().for_each(|v| page.extend(v.to_le_bytes()));
                    let off = at + (p * PER_PAGE * 8) as u64;
                    file.write_all_at(&page, off)
                        .map_err(|e| KeepError::Write {
                            offset: off,
                            source: e,
                        })?;
                    wrote = Some(off);
                }
            }
        }
        if let Some(off) = wrote {
            file.sync_data().map_err(|e| KeepError::Sync {
                offset: off,
                source: e,
            })?;
        }
        if last {
            return Ok(());
        }
        let until = Instant::now() + SYNC_EVERY;
        while Instant::now() < until && !stop.load(Ordering::Acquire) {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// A journal read back: its header, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Journal {
    pub header: JournalHeader,
    pub run: u64,
    /// Per target, its tag.
    pub tags: Vec<u64>,
}

/// Parses the start of a journal file (`head`: its first bytes, up to the header's end or
/// more) of `len` bytes in all. Every refusal says what is wrong.
pub fn parse_header(head: &[u8], len: u64) -> Result<Journal, CheckError> {
    if head.len() >= 8 && head[..8] == FAILED_MAGIC {
        return Err(CheckError::Incomplete);
    }
    if head.len() < 12 || head[..8] != MAGIC {
        return Err(CheckError::NotAJournal);
    }
    let n = u32::from_le_bytes(head[8..12].try_into().expect("4 bytes")) as usize;
    if n > MAX_HEADER || head.len() < 12 + n {
        return Err(CheckError::HeaderLength {
            claims: n,
            has: head.len().saturating_sub(12),
        });
    }
    let header: JournalHeader =
        serde_json::from_slice(&head[12..12 + n]).map_err(CheckError::HeaderInvalid)?;
    if header.format != JOURNAL_FORMAT {
        return Err(CheckError::Format(header.format.clone()));
    }
    if header.unit_bytes != VERIFY_UNIT {
        return Err(CheckError::Unit(header.unit_bytes));
    }
    let hex = |s: &str, what: &'static str| {
        u64::from_str_radix(s, 16)
            .ok()
            .filter(|_| s.len() == 16)
            .ok_or_else(|| CheckError::NotHex {
                what,
                value: s.to_string(),
            })
    };
    let run = hex(&header.run_id, "the run id")?;
    let mut tags = Vec::new();
    if header.targets.is_empty() {
        return Err(CheckError::NoTarget);
    }
    let mut end = page_up(12 + n as u64);
    for t in &header.targets {
        tags.push(hex(&t.tag, "a target tag")?);
        let table_end = t
            .blocks
            .checked_mul(8)
            .and_then(|b| t.table_at.checked_add(b));
        let region_end = t
            .blocks
            .checked_mul(VERIFY_UNIT)
            .and_then(|b| t.start.checked_add(b));
        match (table_end, region_end) {
            (Some(e), Some(_))
                if t.table_at >= end
                    && t.table_at.is_multiple_of(4096)
                    && e <= len
                    && t.blocks > 0 =>
            {
                end = e
            }
            _ => {
                return Err(CheckError::TableFit {
                    path: t.path.clone(),
                    at: t.table_at,
                    blocks: t.blocks,
                    len,
                })
            }
        }
        if !t.start.is_multiple_of(VERIFY_UNIT) {
            return Err(CheckError::RegionStart {
                path: t.path.clone(),
                start: t.start,
            });
        }
    }
    Ok(Journal { header, run, tags })
}

/// Reads and checks the header of the journal `file`.
pub fn read_header(file: &File) -> Result<Journal, CheckError> {
    let len = file.metadata().map_err(CheckError::Metadata)?.len();
    let mut head = vec![0u8; (12 + MAX_HEADER).min(len as usize)];
    file.read_exact_at(&mut head, 0)
        .map_err(CheckError::ReadHeader)?;
    parse_header(&head, len)
}

/// Reads the table of target `i` of journal `j`.
pub fn read_table(file: &File, j: &Journal, i: usize) -> Result<Vec<u64>, CheckError> {
    let t = &j.header.targets[i];
    let mut bytes = vec![0u8; t.blocks as usize * 8];
    file.read_exact_at(&mut bytes, t.table_at)
        .map_err(|e| CheckError::ReadTable {
            path: t.path.clone(),
            source: e,
        })?;
    Ok(bytes
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect())
}

/// Opens a target to check it: read-only, O_DIRECT where the file system takes it (so the
/// blocks come from the device, not the page cache).
fn open_target(path: &str) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECT)
        .open(path)
    {
        Err(e) if e.raw_os_error() == Some(libc::EINVAL) => File::open(path),
        r => r,
    }
}

/// The path to read each target of `j` from: as journaled, unless `moved` (`dbio verify
/// --target`) names its new path, as `OLD=NEW` or, for a journal of one target, `NEW`.
pub fn target_paths(j: &Journal, moved: &[String]) -> Result<Vec<String>, CheckError> {
    let mut paths: Vec<String> = j.header.targets.iter().map(|t| t.path.clone()).collect();
    let names = || paths_list(j);
    for m in moved {
        match m.split_once('=') {
            Some((old, new)) if !new.is_empty() => {
                let i = j
                    .header
                    .targets
                    .iter()
                    .position(|t| t.path == old || t.path == absolute(old))
                    .ok_or_else(|| CheckError::NoSuchTarget {
                        arg: m.clone(),
                        old: old.to_string(),
                        names: names(),
                    })?;
                paths[i] = new.to_string();
            }
            None if !m.is_empty() && paths.len() == 1 => paths[0] = m.clone(),
            None if !m.is_empty() => {
                return Err(CheckError::WhichTarget {
                    arg: m.clone(),
                    count: paths.len(),
                    names: names(),
                })
            }
            _ => return Err(CheckError::BadTarget(m.clone())),
        }
    }
    Ok(paths)
}

/// The targets of `j`, as a list for messages.
fn paths_list(j: &Journal) -> String {
    let v: Vec<&str> = j.header.targets.iter().map(|t| t.path.as_str()).collect();
    v.join(", ")
}

/// What block `k` of a journaled table must hold: None for a block not to check (a write to
/// it failed); a block found bad during the run stays bad.
fn expected(table: &[u64], k: usize) -> Option<Expected> {
    let e = table[k];
    let found_bad = bad_kind(e);
    (e & SKIP == 0 || found_bad.is_some()).then_some(Expected {
        seq: e & SEQ,
        found_bad,
    })
}

/// `dbio verify --journal PATH [--target ...]`: reads every block of every target the
/// journal names (at the paths [`target_paths`] gives) and judges it against the last
/// acknowledged write the journal kept. An unusable journal is an `Err`; a target that
/// cannot be opened or read stops the check and says so in `final_pass` (anything found
/// until then is kept).
pub fn check(path: &str, moved: &[String]) -> Result<dbio_model::verify::VerifyReport, CheckError> {
    use dbio_model::verify::{CorruptionCounts, VerifyReport, FIRST_LISTED};
    let within = |e: CheckError| CheckError::In {
        path: path.to_string(),
        source: Box::new(e),
    };
    let file = File::open(path).map_err(|e| CheckError::Open {
        path: path.to_string(),
        source: e,
    })?;
    let j = read_header(&file).map_err(within)?;
    let paths = target_paths(&j, moved)?;
    let mut counts = CorruptionCounts::default();
    let mut first = Vec::new();
    let (mut written, mut checked, mut unwritten) = (0u64, 0u64, 0u64);
    let mut final_pass = "done".to_string();
    for (i, (t, tpath)) in j.header.targets.iter().zip(&paths).enumerate() {
        let table = read_table(&file, &j, i).map_err(within)?;
        written += table.iter().filter(|e| **e & SEQ > 0).count() as u64;
        let target = match open_target(tpath) {
            Ok(f) => f,
            Err(e) => {
                final_pass = format!(
                    "stopped: cannot open {tpath}: {e} (if it has a new path, give it with --target)"
                );
                break;
            }
        };
        let mut bad = |c: dbio_model::verify::Corruption| {
            counts.add(c.kind);
            if first.len() < FIRST_LISTED {
                first.push(c);
            }
        };
        let s = super::pass::scan(
            None,
            &target,
            tpath,
            j.run,
            j.tags[i],
            t.start,
            t.blocks,
            &mut |k| expected(&table, k),
            &mut bad,
            "journal",
        );
        checked += s.checked;
        unwritten += s.unwritten;
        if let Some(e) = s.stopped {
            final_pass = format!("stopped: {e}");
            break;
        }
    }
    Ok(VerifyReport {
        run_id: j.header.run_id.clone(),
        unit_bytes: VERIFY_UNIT,
        blocks_written: written,
        blocks_checked_by_reads: 0,
        blocks_checked_after: checked,
        blocks_unwritten: unwritten,
        final_pass,
        journal: Some(path.to_string()),
        corrupt: counts,
        first,
    })
}
