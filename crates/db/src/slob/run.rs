//! `dbio db run`: N sessions, each one connection doing SLOB's operation (an index range scan
//! of `work_unit` random keys, some updated and committed), measured after a ramp between two
//! snapshots of the database's counters, the device's and the processes' CPU.

use super::procfs::{cpu_of, cpu_s, device_of, Disk};
use super::{Conn, Layout, Session};
use crate::error::DbError;
use dbio_model::histogram::new_histogram;
use dbio_model::TimePoint;
use hdrhistogram::Histogram;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU8, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

/// Keys an update changes (pgio's 8, SLOB's UPDATE_PCT unit): the first of the operation's
/// range, so that updates dirty a few blocks each rather than every block read.
pub const UPDATE_UNIT: u64 = 8;

/// The settings of a run.
#[derive(Debug, Clone, Copy)]
pub struct RunOpts {
    pub sessions: u32,
    pub work_unit: u32,
    pub update_pct: u8,
    pub think_ns: Option<(u64, u64)>,
    pub ramp: Duration,
    pub duration: Duration,
    pub seed: u64,
    /// Bytes of memory the caller holds locked while the run measures (`--lock-memory`), so
    /// the page cache has that much less; 0 for none.
    pub lock_bytes: u64,
}

/// What a run tells its caller as it goes.
pub enum Progress<'a> {
    /// Measuring started, for this many seconds.
    Measuring(f64),
    /// One more second: the database's reads per second and the client's p99.
    Second(&'a TimePoint),
}

/// Why a run gave no result.
#[derive(Debug)]
pub enum NoResult {
    /// Stopped before measuring began.
    Interrupted,
    /// The run failed: the [`DbError`]'s text (a String until orchestrate's database
    /// executor takes the type; issue 24's bridge).
    Failed(String),
}

/// Counters at one end of the window.
#[derive(Debug, Clone)]
pub struct Ends {
    pub db: super::Counters,
    pub disk: Option<Disk>,
    pub server_cpu: Vec<(u32, f64)>,
    pub dbio_cpu_s: f64,
    pub host: (u64, u64),
}

/// Everything measured: for the report and the run result.
pub struct Measured {
    pub server: super::Server,
    pub layout: Layout,
    pub opts: RunOpts,
    pub data_file: Option<String>,
    pub device: Option<String>,
    pub data_set_bytes: u64,
    /// The memory limit of the server's cgroup (its page cache counts against it), when it
    /// runs on this host in a limited cgroup.
    pub server_memory_limit: Option<u64>,
    pub before: Ends,
    pub after: Ends,
    pub secs: f64,
    pub started_at: SystemTime,
    pub read: Histogram<u64>,
    pub update: Histogram<u64>,
    pub commit: Histogram<u64>,
    pub timeseries: Vec<TimePoint>,
    /// Set when a session failed mid-run; the window ended there.
    pub error: Option<String>,
    pub interrupted: bool,
}

const RAMP: u8 = 0;
const MEASURE: u8 = 1;
const STOP: u8 = 2;

/// State the sessions and the run share.
struct Shared {
    phase: AtomicU8,
    opened: AtomicU32,
    entered: AtomicU32,
    left: AtomicU32,
    close: AtomicBool,
    error: Mutex<Option<DbError>>,
    interval: Mutex<Histogram<u64>>,
}

impl Shared {
    fn fail(&self, e: DbError) {
        self.error.lock().expect("not poisoned").get_or_insert(e);
        self.phase.store(STOP, Ordering::SeqCst);
    }
    fn failed(&self) -> bool {
        self.error.lock().expect("not poisoned").is_some()
    }
}

/// One session's histograms: read operations, update statements, commits.
type Hists = [Histogram<u64>; 3];

/// SplitMix64: the sessions' random keys.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// Counters at one end of the window.
fn ends(mon: &mut Conn, url: &str, device: &Option<String>, pids: &[u32]) -> Result<Ends, DbError> {
    let host = super::procfs::host_ticks();
    Ok(Ends {
        db: mon.counters(url)?,
        disk: device.as_deref().and_then(Disk::read),
        server_cpu: cpu_of(pids),
        dbio_cpu_s: cpu_s("self").unwrap_or(0.0),
        host,
    })
}

/// One session: opens its connection, runs operations until told to stop.
fn session(url: &str, i: u32, l: Layout, o: &RunOpts, sh: &Shared) -> Hists {
    let mut h: Hists = [new_histogram(), new_histogram(), new_histogram()];
    let mut s = match Session::open(url, i % l.tables + 1) {
        Ok(s) => s,
        Err(e) => {
            sh.fail(e);
            sh.left.fetch_add(1, Ordering::SeqCst);
            return h;
        }
    };
    sh.opened.fetch_add(1, Ordering::SeqCst);
    let mut rng = Rng(o.seed ^ (u64::from(i) + 1).wrapping_mul(0xA076_1D64_78BD_642F));
    let wu = u64::from(o.work_unit);
    let (mut measuring, mut n) = (false, 0u64);
    loop {
        match sh.phase.load(Ordering::SeqCst) {
            RAMP => {}
            MEASURE if !measuring => {
                s.flush_stats();
                measuring = true;
                sh.entered.fetch_add(1, Ordering::SeqCst);
            }
            MEASURE => {}
            _ => break,
        }
        let lo = 1 + rng.below(l.rows - wu + 1) as i64;
        let hi = lo + wu as i64 - 1;
        let t = Instant::now();
        if let Err(e) = s.read(lo, hi) {
            sh.fail(DbError::Session {
                session: i + 1,
                source: Box::new(e),
            });
            break;
        }
        let ns = t.elapsed().as_nanos() as u64;
        // An exact quota of updates per 100 operations.
        let pct = u64::from(o.update_pct);
        let update = (n + 1) * pct / 100 > n * pct / 100;
        n += 1;
        if measuring {
            let _ = h[0].record(ns.max(1));
            let _ = sh.interval.lock().expect("not poisoned").record(ns.max(1));
        }
        if update {
            match s.update(lo, (lo + UPDATE_UNIT as i64 - 1).min(hi)) {
                Ok((u, c)) if measuring => {
                    let _ = h[1].record(u.max(1));
                    let _ = h[2].record(c.max(1));
                }
                Ok(_) => {}
                Err(e) => {
                    sh.fail(DbError::Session {
                        session: i + 1,
                        source: Box::new(e),
                    });
                    break;
                }
            }
        }
        if let Some((a, b)) = o.think_ns {
            std::thread::sleep(Duration::from_nanos(a + rng.below(b - a + 1)));
        }
    }
    s.flush_stats();
    sh.left.fetch_add(1, Ordering::SeqCst);
    // Kept open until the run has read the server's CPU at the end of the window.
    while !sh.close.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(5));
    }
    h
}

/// Why the run must stop for want of space beside the data, None while there is room: free
/// space under the data directory below [`super::procfs::reserve`] (updates grow the tables
/// and the log; a full disk stops the server). None too when the directory is not readable.
fn space_left(server: &super::Server) -> Option<DbError> {
    let dir = server.data_dir.as_deref()?;
    let (free, size) = super::procfs::space(dir)?;
    let keep = super::procfs::reserve(size);
    (free < keep).then(|| DbError::SpaceLow {
        dir: dir.to_string(),
        free_mib: free >> 20,
        keep_mib: keep >> 20,
    })
}

/// Waits until `cond` holds, the stop flag is set or `limit` passes; false when it did not hold.
fn wait_for(cond: impl Fn() -> bool, limit: Duration, stop: Option<&AtomicBool>) -> bool {
    let start = Instant::now();
    while !cond() {
        if start.elapsed() > limit || stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    true
}

/// Runs the sessions against dbio's schema at `url` and measures the window.
pub fn run(
    url: &str,
    o: &RunOpts,
    stop: &AtomicBool,
    on: &mut dyn FnMut(Progress),
) -> Result<Measured, NoResult> {
    let fail = |e: DbError| NoResult::Failed(e.to_string());
    let mut mon = Conn::open(url).map_err(fail)?;
    let server = mon.server(url).map_err(fail)?;
    let shown = crate::url::redact(url);
    let layout = mon.layout(url).map_err(fail)?.ok_or_else(|| {
        fail(DbError::Server {
            url: shown.clone(),
            said: format!(
"dbio's schema {} is not set up; run `dbio db setup --url {shown} --sessions N --size SIZE` first",
super::SCHEMA
),
        })
    })?;
    if layout.rows < u64::from(o.work_unit) * 2 {
        return Err(fail(DbError::WorkUnit {
            work_unit: o.work_unit,
            rows: layout.rows,
        }));
    }
    let data_file = mon.data_file(&server);
    let device = data_file.as_deref().and_then(device_of);
    let data_set_bytes = mon.data_set_bytes(url).map_err(fail)?;
    let server_memory_limit = mon
        .server_pids()
        .iter()
        .filter_map(|p| super::procfs::memory_limit(&p.to_string()))
        .min();
    if let Some(low) = space_left(&server) {
        return Err(fail(DbError::At {
            url: shown,
            source: Box::new(low),
        }));
    }
    let sh = Shared {
        phase: AtomicU8::new(RAMP),
        opened: AtomicU32::new(0),
        entered: AtomicU32::new(0),
        left: AtomicU32::new(0),
        close: AtomicBool::new(false),
        error: Mutex::new(None),
        interval: Mutex::new(new_histogram()),
    };
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..o.sessions)
            .map(|i| {
                let sh = &sh;
                scope.spawn(move || session(url, i, layout, o, sh))
            })
            .collect();
        let window = measure(url, o, stop, on, &mut mon, &device, &sh, &server);
        sh.phase.store(STOP, Ordering::SeqCst);
        sh.close.store(true, Ordering::SeqCst);
        let mut hists: Hists = [new_histogram(), new_histogram(), new_histogram()];
        for h in handles {
            let got = h.join().expect("a session does not panic");
            for (a, b) in hists.iter_mut().zip(got.iter()) {
                a.add(b).expect("equal bounds");
            }
        }
        let (before, after, secs, started_at, timeseries, interrupted) = window?;
        let [read, update, commit] = hists;
        Ok(Measured {
            server,
            layout,
            opts: *o,
            data_file,
            device,
            data_set_bytes,
            server_memory_limit,
            before,
            after,
            secs,
            started_at,
            read,
            update,
            commit,
            timeseries,
            error: sh
                .error
                .lock()
                .expect("not poisoned")
                .as_ref()
                .map(DbError::to_string),
            interrupted,
        })
    })
}

type Window = (Ends, Ends, f64, SystemTime, Vec<TimePoint>, bool);

/// The ramp, the start snapshot, a point per second, the end snapshot.
#[allow(clippy::too_many_arguments)]
fn measure(
    url: &str,
    o: &RunOpts,
    stop: &AtomicBool,
    on: &mut dyn FnMut(Progress),
    mon: &mut Conn,
    device: &Option<String>,
    sh: &Shared,
    server: &super::Server,
) -> Result<Window, NoResult> {
    let block = server.block_size;
    let fail = |e: DbError| NoResult::Failed(e.to_string());
    let n = o.sessions;
    wait_for(
        || sh.opened.load(Ordering::SeqCst) == n || sh.failed(),
        Duration::from_secs(60),
        Some(stop),
    );
    if let Some(e) = sh.error.lock().expect("not poisoned").clone() {
        return Err(fail(e));
    }
    wait_for(|| sh.failed(), o.ramp, Some(stop));
    if stop.load(Ordering::Relaxed) {
        return Err(NoResult::Interrupted);
    }
    sh.phase.store(MEASURE, Ordering::SeqCst);
    wait_for(
        || sh.entered.load(Ordering::SeqCst) == n || sh.failed(),
        Duration::from_secs(60),
        None,
    );
    let pids = mon.server_pids();
    let before = ends(mon, url, device, &pids).map_err(fail)?;
    let (t0, started_at) = (Instant::now(), SystemTime::now());
    on(Progress::Measuring(o.duration.as_secs_f64()));
    let mut series = Vec::new();
    let (mut last, mut last_t) = (before.db, 0.0);
    let mut interrupted = false;
    for sec in 1.. {
        let next = Duration::from_secs(sec).min(o.duration);
        wait_for(
            || sh.failed(),
            next.saturating_sub(t0.elapsed()),
            Some(stop),
        );
        if stop.load(Ordering::Relaxed) {
            interrupted = true;
            break;
        }
        if let Some(low) = space_left(server) {
            sh.fail(low);
        }
        if sh.failed() {
            break;
        }
        let t = t0.elapsed().as_secs_f64();
        if let Ok(now) = mon.counters(url) {
            let dt = (t - last_t).max(1e-3);
            let h = std::mem::replace(
                &mut *sh.interval.lock().expect("not poisoned"),
                new_histogram(),
            );
            let reads = now.reads.saturating_sub(last.reads) as f64;
            let p = TimePoint {
                t,
                read_iops: reads / dt,
                write_iops: now.log_writes.saturating_sub(last.log_writes) as f64 / dt,
                mb_s: reads * block as f64 / dt / 1e6,
                p99_us: h.value_at_quantile(0.99) as f64 / 1000.0,
                hist: None,
            };
            on(Progress::Second(&p));
            series.push(p);
            (last, last_t) = (now, t);
        }
        if next >= o.duration {
            break;
        }
    }
    sh.phase.store(STOP, Ordering::SeqCst);
    wait_for(
        || sh.left.load(Ordering::SeqCst) == n,
        Duration::from_secs(120),
        None,
    );
    let secs = t0.elapsed().as_secs_f64();
    let after = ends(mon, url, device, &pids).map_err(fail)?;
    Ok((before, after, secs, started_at, series, interrupted))
}
