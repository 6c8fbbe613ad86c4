//! The sources as the reading workers share them: a cursor hands out the next chunk of the
//! current source (opening each source when its turn comes), reads fall back to the page
//! cache when the file system refuses O_DIRECT, and what each source gave is kept.

use super::sources::{self, Source};
use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// One source while it is read.
pub struct Opened {
    /// Its place in the list.
    pub index: usize,
    file: File,
    direct: bool,
    /// The buffered reopen, once an O_DIRECT read was refused (None: the reopen failed).
    fallback: OnceLock<Option<File>>,
    /// A read failed: the rest of the source is not handed out.
    failed: AtomicBool,
}

/// What one source gave.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Opened (sources that could not be opened are in `skipped`).
    pub opened: bool,
    pub bytes: u64,
    /// Read with O_DIRECT throughout.
    pub direct: bool,
    /// The first read error.
    pub error: Option<io::Error>,
    /// Size and modification time when it was opened.
    pub before: Option<(u64, i64, i64)>,
    /// The open failed with this error.
    pub open_error: Option<io::Error>,
}

/// A chunk handed to a worker: `len` bytes at `offset` of `open`.
pub struct Claim {
    pub open: Arc<Opened>,
    pub offset: u64,
    pub len: usize,
    pub device: bool,
}

struct At {
    index: usize,
    offset: u64,
    open: Option<Arc<Opened>>,
}

/// The shared cursor over a list of sources.
pub struct Cursor<'a> {
    list: &'a [Source],
    buffered: bool,
    chunk: usize,
    at: Mutex<At>,
    outcomes: Vec<Mutex<Outcome>>,
    bytes: AtomicU64,
    /// Stopped before the end (Ctrl-C).
    pub partial: AtomicBool,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `list`, handing out `chunk` bytes at a time.
    pub fn new(list: &'a [Source], buffered: bool, chunk: usize) -> Self {
        Cursor {
            list,
            buffered,
            chunk,
            at: Mutex::new(At {
                index: 0,
                offset: 0,
                open: None,
            }),
            outcomes: list.iter().map(|_| Mutex::default()).collect(),
            bytes: AtomicU64::new(0),
            partial: AtomicBool::new(false),
        }
    }

    /// Bytes read so far by all workers.
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// The next chunk to read, or None at the end (or once `stop` is set).
    pub fn claim(&self, stop: &AtomicBool) -> Option<Claim> {
        let mut at = self.at.lock().expect("no worker panics holding it");
        loop {
            if stop.load(Ordering::Relaxed) {
                self.partial.store(true, Ordering::Relaxed);
                return None;
            }
            let src = self.list.get(at.index)?;
            let open = match &at.open {
                Some(o) => o.clone(),
                None => match self.open(at.index) {
                    Some(o) => {
                        at.open = Some(o.clone());
                        o
                    }
                    None => {
                        (at.index, at.offset) = (at.index + 1, 0);
                        continue;
                    }
                },
            };
            if at.offset >= src.size || open.failed.load(Ordering::Relaxed) {
                (at.index, at.offset, at.open) = (at.index + 1, 0, None);
                continue;
            }
            let len = (src.size - at.offset).min(self.chunk as u64) as usize;
            let offset = at.offset;
            at.offset += len as u64;
            return Some(Claim {
                open,
                offset,
                len,
                device: src.device,
            });
        }
    }

    fn open(&self, index: usize) -> Option<Arc<Opened>> {
        let path = &self.list[index].path;
        let before = sources::stamp(path);
        let mut out = self.outcome(index);
        match sources::open(path, self.buffered, self.list[index].device) {
            Ok((file, direct)) => {
                *out = Outcome {
                    opened: true,
                    direct,
                    before,
                    ..Outcome::default()
                };
                Some(Arc::new(Opened {
                    index,
                    file,
                    direct,
                    fallback: OnceLock::new(),
                    failed: AtomicBool::new(false),
                }))
            }
            Err(e) => {
                out.open_error = Some(e);
                None
            }
        }
    }

    fn outcome(&self, index: usize) -> std::sync::MutexGuard<'_, Outcome> {
        self.outcomes[index]
            .lock()
            .expect("no worker panics holding it")
    }

    /// Reads the claim into `buf` (at least `c.len` bytes); returns the bytes read, fewer
    /// at the end of a file that shrank or after an error (recorded against the source).
    pub fn read(&self, c: &Claim, buf: &mut [u8]) -> usize {
        let o = &c.open;
        let mut len = 0;
        let mut direct = o.direct && o.fallback.get().is_none();
        while len < c.len {
            let file = if direct {
                &o.file
            } else {
                match o.fallback.get() {
                    Some(Some(f)) => f,
                    Some(None) => {
                        let e =
                            io::Error::other("O_DIRECT refused and the reopen without it failed");
                        self.fail(o, c.offset + len as u64, e);
                        break;
                    }
                    None => &o.file,
                }
            };
            match file.read_at(&mut buf[len..c.len], c.offset + len as u64) {
                Ok(0) => break,
                Ok(n) => {
                    len += n;
                    if direct && len % 512 != 0 {
                        break;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if direct && e.raw_os_error() == Some(libc::EINVAL) => {
                    // The file system refused this O_DIRECT read: the page cache from here on
                    // (a plain open: a device's exclusive claim is already held).
                    let path = &self.list[o.index].path;
                    o.fallback
                        .get_or_init(|| dbio_engine::device::open_noatime(path, false, 0).ok());
                    self.outcome(o.index).direct = false;
                    direct = false;
                }
                Err(e) => {
                    self.fail(o, c.offset + len as u64, e);
                    break;
                }
            }
        }
        if len > 0 {
            self.outcome(o.index).bytes += len as u64;
            self.bytes.fetch_add(len as u64, Ordering::Relaxed);
        }
        len
    }

    /// Records the first read error of a source and hands out no more of it.
    fn fail(&self, o: &Opened, at: u64, e: io::Error) {
        o.failed.store(true, Ordering::Relaxed);
        self.outcome(o.index)
            .error
            .get_or_insert_with(|| io::Error::new(e.kind(), format!("read at byte {at}: {e}")));
    }

    /// What each source gave, in list order.
    pub fn into_outcomes(self) -> Vec<Outcome> {
        self.outcomes
            .into_iter()
            .map(|m| m.into_inner().expect("workers are done"))
            .collect()
    }
}
