//! A multi-stream run: every stream's targets are prepared first, then all streams start
//! on one timeline with their own workers, rings and targets, and one stop flag ends them
//! all. The result holds each stream on its own and the totals over all of them.

use crate::assemble::{assemble, dir_totals, directions, wall_secs, Assembly};
use crate::error::RunError;
use crate::event::Event;
use crate::measure::measure;
use crate::prepare::prepare;
use crate::worker::WorkerReport;
use dbio_engine::facts::target_facts;
use dbio_model::*;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Runs every stream in `streams` together until its end (or until `stop` is set).
pub fn run_streams(
    streams: &[StreamSpec],
    stop: Arc<AtomicBool>,
    on_event: &mut dyn FnMut(Event),
) -> Result<RunResult, RunError> {
    let Some(first) = streams.first() else {
        return Err(RunError::Invalid("a run needs at least one stream".into()));
    };
    if let Some(s) = streams
        .iter()
        .find(|s| s.job.stop != first.job.stop || s.job.ramp_secs != first.job.ramp_secs)
    {
        return Err(RunError::Invalid(format!(
            "stream {} ends or ramps differently from stream {}; streams share one measuring window",
            s.name, first.name
        )));
    }
    let specs: Vec<&JobSpec> = streams.iter().map(|s| &s.job).collect();
    let mut warnings = Vec::new();
    let disks = crate::device_latency::disks(&specs)?;
    let prepared = prepare(&specs, &stop, on_event, &mut warnings)?;
    let probe = crate::device_latency::start(disks)?;
    let m = measure(
        &specs,
        &prepared,
        stop,
        on_event,
        &mut warnings,
        (None, probe),
    )?;
    let mut results = Vec::new();
    // Each paced stream is judged on its own schedule (the totals' spec is the first's).
    let mut behind = Vec::new();
    for ((s, p), reports) in streams.iter().zip(&prepared).zip(&m.reports) {
        let these: Vec<&WorkerReport> = reports.iter().collect();
        let secs = wall_secs(these.iter().copied());
        let [read, write, flush] = dir_totals(&these, directions(&s.job), secs);
        let result = StreamResult {
            name: s.name.clone(),
            role: s.role.clone(),
            job: s.job.clone(),
            targets: p.targets.iter().map(target_facts).collect(),
            measured_secs: secs,
            read,
            write,
            flush,
        };
        if let (Some(rate), true) = (s.job.rate, these.iter().any(|r| r.behind)) {
            let ios = result.total_ios();
            behind.push(crate::warn::rate_not_kept(Some(&s.name), rate, ios, secs));
        }
        results.push(result);
    }
    let dirs = specs
        .iter()
        .map(|s| directions(s))
        .fold([false; 3], |a, d| {
            [a[0] || d[0], a[1] || d[1], a[2] || d[2]]
        });
    let mut targets = Vec::new();
    let mut prefilled = Vec::new();
    let mut sampled = Vec::new();
    let mut engines = Vec::new();
    // A file two streams share is one target of the run: listed, and its content said, once.
    for p in prepared {
        targets.extend(crate::shared::once(p.targets, &p.shared));
        prefilled.extend(crate::shared::once(p.prefilled, &p.shared));
        sampled.extend(p.sampled);
        engines.push((p.engine, p.features));
    }
    // The result names one engine: the first stream's (every stream asks for the same one).
    let (engine_kind, features) = engines.swap_remove(0);
    let per_stream: Vec<usize> = m.reports.iter().map(Vec::len).collect();
    let mut r = assemble(Assembly {
        spec: &first.job,
        dirs,
        engine_kind,
        features,
        targets: &targets,
        prefilled,
        sampled,
        reports: m.reports.into_iter().flatten().collect(),
        window: m.window,
        interrupted: m.interrupted,
        warnings,
        steady: m.steady,
    });
    // The totals judged the rate with the first stream's spec: the per-stream verdicts replace it.
    r.warnings.retain(|w| w.code != "rate-not-kept");
    r.warnings.extend(behind);
    r.streams = results;
    alone_without_histograms(&mut r.threads, &per_stream);
    r.verify = m.verify;
    r.device_latency = m.device_latency;
    crate::assemble::fail_verify(&mut r, m.verify_failure, m.aborted);
    Ok(r)
}

/// Drops the histograms of the thread of each stream that has one (`per_stream`: each
/// stream's count of threads, in the order of `threads`): that stream's are the same.
fn alone_without_histograms(threads: &mut [ThreadStats], per_stream: &[usize]) {
    let mut at = 0;
    for &n in per_stream {
        if n == 1 {
            if let Some(t) = threads.get_mut(at) {
                t.read.histogram = None;
                t.write.histogram = None;
                t.flush.histogram = None;
            }
        }
        at += n;
    }
}
