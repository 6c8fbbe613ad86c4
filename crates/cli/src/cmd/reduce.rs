//! `dbio reduce`: validate the flags, read the paths once with a progress bar, print and
//! write the estimate. Exit 1 when a path was skipped, 2 when the paths gave nothing to read.

use crate::args::ReduceArgs;
use crate::exit::Exit;
use crate::history;
use crate::output::{check_outputs, emit_json, print_out};
use crate::signals::stop_flag;
use dbio_model::units::parse_size;
use dbio_reduce::block::CompressSpec;
use dbio_reduce::{reduce, ReduceError, ReduceEvent, ReduceOptions};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::Duration;

/// Runs `dbio reduce` and returns its exit status.
pub fn run(a: ReduceArgs) -> Exit {
    let mut inputs = a.paths.clone();
    inputs.extend(history::stored_in(&a.store));
    let o = match check_outputs(&[("--json", a.out.json.as_deref())], &inputs)
        .and_then(|()| options(&a))
    {
        Ok(o) => o,
        Err(m) => return Exit::usage(format!("dbio reduce: {m}")),
    };
    // The history is opened first: a bad --db stops before anything is read.
    let store = match history::store_unless(&a.store) {
        Ok(s) => s,
        Err(m) => return Exit::usage(format!("dbio reduce: {m}")),
    };
    let stop = stop_flag();
    let mut bar: Option<ProgressBar> = None;
    let quiet = a.out.quiet;
    let result = reduce(&a.paths, &o, &stop, &mut |ev| match ev {
        ReduceEvent::Start { total } if !quiet => {
            let b = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            b.set_style(
                ProgressStyle::with_template(
                    "reading [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec}, {eta} left",
                )
                .expect("valid template"),
            );
            b.enable_steady_tick(Duration::from_millis(250));
            bar = Some(b);
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
    let r = match result {
        Ok(r) => r,
        // Nothing was read, so nothing is estimated, stored or written.
        Err(e @ ReduceError::NothingToRead(_)) => return Exit::usage(format!("dbio reduce: {e}")),
        Err(e) => return Exit::Failure.with(format!("dbio reduce: {e}")),
    };
    for k in &r.skipped {
        eprintln!("dbio reduce: skipped {}: {}", k.path, k.error);
    }
    let json = dbio_report::json::to_json(&r);
    let summary = dbio_report::reduce::summary(&r);
    if let Some(store) = &store {
        let entry = dbio_report::entry::ReduceEntry {
            paths: &a.paths,
            made_at: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
            label: a.store.label.clone(),
        }
        .entry(&r, &json, &summary);
        history::keep(store, &entry, a.out.quiet, "dbio reduce");
    }
    if let Some(path) = a.out.json.as_deref() {
        if let Err(e) = emit_json(path, &json) {
            eprint!("{summary}");
            return Exit::Failure.with(format!(
                "dbio reduce: cannot write the JSON result to {path}: {e}"
            ));
        }
    }
    if !a.out.quiet {
        if a.out.json.as_deref() == Some("-") {
            eprint!("{summary}");
        } else {
            print_out(&summary);
        }
    }
    if r.partial {
        Exit::Interrupted
    } else if !r.skipped.is_empty() {
        Exit::Failure
    } else {
        Exit::Ok
    }
}

/// The flags checked and turned into the runner's options.
fn options(a: &ReduceArgs) -> Result<ReduceOptions, String> {
    let mut units = Vec::new();
    for s in a.unit.split(',') {
        let u = parse_size(s.trim())
            .map_err(|e| format!("--unit {s}: {e}; give sizes like 4k,8k,16k,32k,128k"))?;
        if !(1024..=128 * 1024).contains(&u) || !u.is_power_of_two() {
            return Err(format!(
                "--unit {s}: a dedupe unit is a power of two from 1k to 128k, e.g. 4k,8k,16k,32k,128k"
            ));
        }
        units.push(u);
    }
    let mut compress = CompressSpec::default();
    for c in a.compress.split(',').map(str::trim) {
        match c {
            "lz4" => compress.lz4 = true,
            "zstd" => compress.zstd = true,
            "none" if a.compress.trim() == "none" => {}
            _ => {
                return Err(format!(
                    "--compress {}: unknown compressor {c}; give lz4, zstd, lz4,zstd or none",
                    a.compress
                ))
            }
        }
    }
    let mut buckets_name = None;
    if let Some(b) = &a.buckets {
        if !compress.lz4 {
            return Err(format!(
                "--buckets {b}: buckets round LZ4 output; add lz4 to --compress"
            ));
        }
        let (name, sizes) = crate::buckets::parse(b)?;
        compress.buckets = sizes;
        buckets_name = Some(name);
    }
    if a.compress_sample == Some(0) {
        return Err("--compress-sample 0: give the number of unique blocks to compress, e.g. 38005 (±1 % at 99.9 %)".into());
    }
    if let Some(m @ (0 | 1)) = a.sample {
        return Err(format!(
            "--sample {m}: give a modulus of 2 or more, e.g. 16 keeps 1/16 of the fingerprints"
        ));
    }
    let mem = match &a.mem {
        Some(m) => match parse_size(m) {
            Ok(v) if v > 0 => v,
            Ok(_) => return Err(format!("--mem {m}: give a size above zero, e.g. 1GiB")),
            Err(e) => return Err(format!("--mem {m}: {e}; give a size like 512MiB or 4GiB")),
        },
        // Half of what the host has available (of 1 GiB when /proc/meminfo cannot be read).
        None => dbio_engine::facts::mem_available().unwrap_or(1 << 30) / 2,
    };
    let threads = match a.threads {
        Some(n) if n == 0 || n > 1024 => {
            return Err(format!("--threads {n}: use 1 to 1024 worker threads"))
        }
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    Ok(ReduceOptions {
        units,
        compress,
        buckets_name,
        compress_sample: a.compress_sample,
        mem,
        sample: a.sample,
        seed: a.seed,
        threads,
        buffered: a.buffered,
    })
}
