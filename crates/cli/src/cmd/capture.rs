//! `dbio capture`: records what the block layer issued to devices into a trace, or
//! summarises a trace.

use crate::args::CaptureArgs;
use crate::exit::Exit;
use crate::prologue::{failure, usage};
use dbio_model::capture::CaptureSummary;
use dbio_trace::capture::{capture, Progress};
use dbio_trace::files::summary;
use dbio_trace::import::import_files;

const CMD: &str = "dbio capture";

/// Runs `dbio capture` and returns its exit status.
pub fn run(a: CaptureArgs) -> Result<Exit, Exit> {
    // No output may overwrite the trace, a file imported or the trace being written.
    let read: Vec<&String> = (a
        .summary
        .iter()
        .chain(&a.from)
        .chain(&a.import)
        .chain(&a.out))
    .collect();
    let outputs = [("--json", a.json.as_deref()), ("--html", a.html.as_deref())];
    dbio_store::files::check_outputs(&outputs, &read).map_err(usage(CMD))?;
    let of_file = |trace: &str| summary(trace, a.files.as_deref());
    if let Some(trace) = &a.summary {
        return show(&of_file(trace).map_err(usage(CMD))?, &a);
    }
    let made = match (&a.from, &a.profile, &a.out) {
        (_, _, Some(o)) if !a.import.is_empty() => Some((o, import_files(&a.import, o))),
        (Some(from), Some(p), _) => Some((p, dbio_trace::profile::profile_file(from, p))),
        (Some(from), None, Some(o)) => Some((o, dbio_trace::export::fio_iolog_file(from, o))),
        _ => None,
    };
    if let Some((out, done)) = made {
        eprintln!("{CMD}: wrote {out}: {}", done.map_err(usage(CMD))?);
        // An imported trace is summarised as a capture is.
        if a.import.is_empty() {
            return Ok(Exit::Ok);
        }
        return show(&of_file(out).map_err(failure(CMD))?, &a);
    }
    let (dur, out) = (a.duration.as_deref(), a.out.as_deref());
    let opts = dbio_trace::plan::plan(&a.devices, &a.paths, dur, out).map_err(usage(CMD))?;
    if let Some(dir) = &a.files {
        dbio_trace::files::FileMap::of_dir(dir, &opts.device_numbers()).map_err(usage(CMD))?;
    }
    let file = dbio_trace::create_new(&opts.out, "a trace").map_err(usage(CMD))?;
    let bar = (!a.quiet).then(|| crate::progress::bar(None, "{spinner} {msg}"));
    let shown = |p: Progress| {
        if let Some(b) = &bar {
            let secs = p.elapsed.as_secs_f64();
            let (n, lost) = (p.requests, p.lost_events);
            b.set_message(format!(
                "capturing {secs:.0} s: {n} requests, {lost} events lost"
            ));
        }
    };
    let ended = capture(&opts, file, &crate::signals::stop_flag(), shown);
    bar.inspect(|b| b.finish_and_clear());
    // A capture that failed part way (a full disk) keeps the requests it wrote.
    let trailer = ended.map_err(|e| {
        match dbio_trace::summary::of_file(&opts.out).map(|s| s.requests) {
            Ok(n) if n > 0 => eprintln!("{CMD}: {} keeps the {n} requests before this", opts.out),
            _ => drop(std::fs::remove_file(&opts.out)),
        }
        failure(CMD)(e)
    })?;
    eprintln!("{CMD}: wrote {}: {} requests", opts.out, trailer.requests);
    let status = show(&of_file(&opts.out).map_err(failure(CMD))?, &a)?;
    Ok(if trailer.interrupted {
        Exit::Interrupted
    } else {
        status
    })
}

/// Prints the summary, and its JSON where asked (to stdout with '-', instead of the text),
/// and writes its HTML page where asked.
fn show(s: &CaptureSummary, a: &CaptureArgs) -> Result<Exit, Exit> {
    if let Some(path) = &a.html {
        let page = dbio_report::html::capture::page(s);
        std::fs::write(path, page).map_err(|e| failure(CMD)(format!("{path}: {e}")))?;
    }
    let text = dbio_report::capture::capture_text(s);
    let body = serde_json::to_string_pretty(s).expect("a summary serialises");
    match a.json.as_deref() {
        Some("-") => println!("{body}"),
        Some(path) => {
            std::fs::write(path, body + "\n").map_err(|e| failure(CMD)(format!("{path}: {e}")))?;
            print!("{text}");
        }
        None => print!("{text}"),
    }
    Ok(Exit::Ok)
}
