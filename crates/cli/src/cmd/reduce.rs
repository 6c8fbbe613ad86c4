//! `dbio reduce`: validate the flags, read the paths once with a progress bar, print and
//! write the estimate. Exit 1 when a path was skipped, 2 when the paths gave nothing to read.

use crate::args::ReduceArgs;
use crate::deliver::{keep_and_write, Delivery};
use crate::exit::Exit;
use crate::history;
use crate::output::print_summary;
use crate::prologue::prologue;
use dbio_reduce::flags::{FlagError, ReduceFlags};
use dbio_reduce::{reduce, ReduceEvent, ReduceOptions};
use dbio_report::entry::ReduceEntry;
use indicatif::ProgressBar;

/// Runs `dbio reduce` and returns its exit status.
pub fn run(a: ReduceArgs) -> Result<Exit, Exit> {
    let mut inputs = a.paths.clone();
    inputs.extend(history::stored_in(&a.store));
    let outputs = [("--json", a.out.json.as_deref())];
    // The history is opened first: a bad --db stops before anything is read.
    let ready = prologue("dbio reduce", &outputs, &inputs, &a.store, || options(&a));
    let (o, store, stop) = ready.map(|r| (r.work, r.store, r.stop.flag()))?;
    let mut bar: Option<ProgressBar> = None;
    let quiet = a.out.quiet;
    let result = reduce(&a.paths, &o, &stop, &mut |ev| match ev {
        ReduceEvent::Start { total } if !quiet => {
            let template = "reading [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec}, {eta} left";
            bar = Some(crate::progress::bar(Some(total), template));
        }
        ReduceEvent::Progress { done } => {
            if let Some(b) = &bar {
                b.set_position(done);
            }
        }
        ReduceEvent::Notice(m) => match &bar {
            Some(b) => b.println(format!("dbio reduce: {m}")),
            None => eprintln!("dbio reduce: {m}"),
        },
        _ => {}
    });
    if let Some(b) = bar.take() {
        b.finish_and_clear();
    }
    // Nothing read (2: nothing is estimated, stored or written) or reading failed (1).
    let r = result.map_err(|e| Exit::of_error("dbio reduce", &e))?;
    for k in &r.skipped {
        eprintln!("dbio reduce: skipped {}: {}", k.path, k.error);
    }
    let json = dbio_report::json::to_json(&r);
    let summary = dbio_report::reduce::summary(&r);
    let label = a.store.label.as_deref();
    let entry = || ReduceEntry::now(&a.paths, label).entry(&r, &json, &summary);
    let d = Delivery::new(&a.out, None, &a.store);
    keep_and_write(store.as_ref(), entry, &json, &d, "dbio reduce")
        .inspect_err(|_| eprint!("{summary}"))?;
    print_summary(&summary, a.out.json.as_deref(), a.out.quiet);
    Ok(if r.partial {
        Exit::Interrupted
    } else if !r.skipped.is_empty() {
        Exit::Failure
    } else {
        Exit::Ok
    })
}

/// The flags as dbio-reduce takes them, checked there.
fn options(a: &ReduceArgs) -> Result<ReduceOptions, FlagError> {
    let flags = ReduceFlags {
        unit: a.unit.clone(),
        compress: a.compress.clone(),
        buckets: a.buckets.clone(),
        compress_sample: a.compress_sample,
        mem: a.mem.clone(),
        sample: a.sample,
        seed: a.seed,
        threads: a.threads,
        buffered: a.buffered,
    };
    dbio_reduce::flags::options(&flags, dbio_spec::buckets::parse)
}
