//! The `jobs[]` entries of a run in fio's JSON: the whole run, each stream (fio's jobs run
//! at once), and for a job of several threads (fio's `numjobs=N` without
//! `group_reporting`) each thread as fio reports each clone of the job: the same jobname
//! and job options, the clone's own counts, latency (from its own histogram) and CPU.

use dbio_model::histogram::{new_histogram, LatencyHistogram};
use dbio_model::{DirStats, JobSpec, LatencySummary, RunResult, ThreadDir, ThreadStats};
use dbio_model::{TimePoint, WorkerCpu};
use std::borrow::Cow;

/// Which `jobs[]` entries a run of several streams (fio jobs run at once) or threads (fio's
/// `numjobs`) is written as.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FioJobs {
    /// One entry per stream, named by the stream, and one per thread of a job or stream of
    /// several, named by it (fio without `group_reporting`).
    #[default]
    PerJob,
    /// One entry for all the streams together, named by the first (fio's `group_reporting`).
    Group,
}

/// What one `jobs[]` entry reports: the whole run, one stream of it, or one thread.
pub(crate) struct Entry<'a> {
    pub name: String,
    pub job: &'a JobSpec,
    pub read: Option<Cow<'a, DirStats>>,
    pub write: Option<Cow<'a, DirStats>>,
    pub flush: Option<Cow<'a, DirStats>>,
    pub secs: f64,
    /// The per-second points (the whole run's; a stream or a thread has none of its own).
    pub seconds: &'a [TimePoint],
    /// User and system CPU seconds.
    pub cpu: (f64, f64),
}

/// The entries of `r`: the whole run (a single job, or a group named by its first job, as
/// fio names it), or each stream with the CPU of its own worker threads; with `PerJob`, a
/// job or stream of several threads is an entry per thread when the result kept each
/// thread's histograms (else one for them all, as before it kept them).
pub(crate) fn entries(r: &RunResult, how: FioJobs) -> Vec<Entry<'_>> {
    let whole = Entry {
        name: r.label.clone().unwrap_or_else(|| r.job.profile.clone()),
        job: &r.job,
        read: r.read.as_ref().map(Cow::Borrowed),
        write: r.write.as_ref().map(Cow::Borrowed),
        flush: r.flush.as_ref().map(Cow::Borrowed),
        secs: r.measured_secs,
        seconds: &r.timeseries,
        cpu: (r.cpu.process_user_s, r.cpu.process_sys_s),
    };
    match (r.streams.first(), how) {
        (None, FioJobs::Group) => vec![whole],
        (None, FioJobs::PerJob) => {
            let workers = (r.cpu.workers.len() == r.threads.len()).then_some(&r.cpu.workers[..]);
            clones(&whole, &r.threads, workers).unwrap_or_else(|| vec![whole])
        }
        (Some(first), FioJobs::Group) => vec![Entry {
            name: first.name.clone(),
            ..whole
        }],
        (Some(_), FioJobs::PerJob) => per_stream(r),
    }
}

/// Each stream of `r` (its workers are listed stream by stream, each stream's threads in
/// turn), or each thread of a stream of several.
fn per_stream(r: &RunResult) -> Vec<Entry<'_>> {
    let threads: usize = r.streams.iter().map(|s| s.job.threads as usize).sum();
    let cpu_known = threads == r.cpu.workers.len();
    let threads_known = threads == r.threads.len();
    let mut at = 0;
    let mut out = Vec::new();
    for s in &r.streams {
        let n = s.job.threads as usize;
        let workers = cpu_known.then(|| &r.cpu.workers[at..at + n]);
        let cpu = workers.map_or((0.0, 0.0), |w| {
            w.iter()
                .fold((0.0, 0.0), |(u, y), w| (u + w.user_s, y + w.sys_s))
        });
        let entry = Entry {
            name: s.name.clone(),
            job: &s.job,
            read: s.read.as_ref().map(Cow::Borrowed),
            write: s.write.as_ref().map(Cow::Borrowed),
            flush: s.flush.as_ref().map(Cow::Borrowed),
            secs: s.measured_secs,
            seconds: &[],
            cpu,
        };
        let mine = if threads_known {
            &r.threads[at..at + n]
        } else {
            &[]
        };
        match clones(&entry, mine, workers) {
            Some(each) => out.extend(each),
            None => out.push(entry),
        }
        at += n;
    }
    out
}

/// An entry per thread of `e` (fio's clones: its name, job and window, each thread's own
/// figures and, where `workers` are known, CPU); None for fewer than two threads or when a
/// thread with I/O kept no histogram of it.
fn clones<'a>(
    e: &Entry<'a>,
    threads: &[ThreadStats],
    workers: Option<&[WorkerCpu]>,
) -> Option<Vec<Entry<'a>>> {
    let kept = |d: &ThreadDir| d.ios == 0 || d.histogram.is_some();
    if threads.len() < 2
        || !threads
            .iter()
            .all(|t| kept(&t.read) && kept(&t.write) && kept(&t.flush))
    {
        return None;
    }
    let dir = |parent: &Option<Cow<DirStats>>, d: &ThreadDir| {
        parent.as_ref().map(|_| Cow::Owned(thread_dir(d, e.secs)))
    };
    let each = threads.iter().enumerate().map(|(i, t)| Entry {
        name: e.name.clone(),
        job: e.job,
        read: dir(&e.read, &t.read),
        write: dir(&e.write, &t.write),
        flush: dir(&e.flush, &t.flush),
        secs: e.secs,
        seconds: &[],
        cpu: workers
            .and_then(|w| w.get(i))
            .map_or((0.0, 0.0), |w| (w.user_s, w.sys_s)),
    });
    Some(each.collect())
}

/// One thread's direction as the run's figures are kept, over the `secs` of its entry: its
/// latency summary from its own histogram, with its mean as the thread measured it.
fn thread_dir(d: &ThreadDir, secs: f64) -> DirStats {
    let h = d.latency().unwrap_or_else(new_histogram);
    let per_s = |x: u64| if secs > 0.0 { x as f64 / secs } else { 0.0 };
    let mut latency_ns = LatencySummary::of(&h);
    if d.ios > 0 {
        latency_ns.mean = d.mean_ns;
    }
    DirStats {
        ios: d.ios,
        bytes: d.bytes,
        iops: per_s(d.ios),
        mb_s: per_s(d.bytes) / 1e6,
        mib_s: per_s(d.bytes) / (1u64 << 20) as f64,
        latency_ns,
        histogram: LatencyHistogram::from_hdr(&h),
    }
}
