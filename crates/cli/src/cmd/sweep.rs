//! `dbio sweep`: one run per value of a setting, a table row per step as it finishes (in the
//! spirit of SLOB's AWR tables), then the knee, the saturation point and where bandwidth
//! levels off. The whole sweep is one JSON result.

use crate::args::SweepArgs;
use crate::cmd::report::write_html;
use crate::exit::Exit;
use crate::history;
use crate::job::job_spec;
use crate::output::{check_outputs, emit_json, Transcript};
use crate::progress::Progress;
use crate::signals::stop_flag;
use crate::vary::{apply, parse_vary, Vary};
use dbio_analyze::knee::{knee, reaches_90_pct, saturation};
use dbio_analyze::slo::{latency, Dir, Slo};
use dbio_model::sweep::{SweepPoint, SweepResult, SWEEP_SCHEMA};
use dbio_model::{EngineKind, JobSpec, Outcome, RunResult};
use dbio_report::item::Item;
use dbio_runner::RunError;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A sweep checked and ready to run: every step is validated before the first one runs.
pub struct Plan {
    /// Seconds planned after the sweep (by a suite), for the time left in all.
    pub after_secs: f64,
    /// Without an objective, say that --slo would find the knee (not in a suite, which has
    /// no --slo).
    pub knee_hint: bool,
    vary: Vary,
    slo_text: Option<String>,
    slo: Option<Slo>,
    search: bool,
    specs: Vec<JobSpec>,
}

/// Checks `--vary`, the objective and every step's settings; the message says what is wrong.
pub fn plan(a: &SweepArgs) -> Result<Plan, String> {
    let vary = parse_vary(&a.vary)?;
    let search = a.target_latency.is_some();
    let slo_text = a.slo.clone().or(a.target_latency.clone());
    let slo = match slo_text.as_deref().map(Slo::parse).transpose() {
        Ok(s) => s,
        Err(m) if search => return Err(m.replace("--slo", "--target-latency")),
        Err(m) => return Err(m),
    };
    if search && !matches!(vary.key, "qd" | "threads" | "rate") {
        return Err(format!(
            "--target-latency searches qd, threads or rate for the highest load within the objective, not {}",
            vary.key
        ));
    }
    let mut specs: Vec<JobSpec> = Vec::new();
    for v in &vary.values {
        let mut args = a.run.clone();
        apply(&mut args, vary.key, v);
        specs.push(job_spec(&args).map_err(|m| format!("step {}={v}: {m}", vary.key))?);
    }
    // An objective on a direction that no step does would never be met, whatever the device.
    // (Session mode writes redo whatever its read share; it is left to the run.)
    if let Some(s) = slo
        .as_ref()
        .filter(|_| specs.iter().all(|j| j.session.is_none()))
    {
        let (does, what) = match s.dir {
            Dir::Read => (specs.iter().any(|j| j.read_pct > 0), "reads"),
            Dir::Write => (specs.iter().any(|j| j.read_pct < 100), "writes"),
            Dir::All => (true, ""),
        };
        if !does {
            let flag = if search { "--target-latency" } else { "--slo" };
            return Err(format!(
                "{flag} {}: no step {what}; bound the direction the steps do, or all I/O (e.g. p99<1ms)",
                slo_text.as_deref().unwrap_or_default()
            ));
        }
    }
    Ok(Plan {
        after_secs: 0.0,
        knee_hint: true,
        vary,
        slo_text,
        slo,
        search,
        specs,
    })
}

/// Runs the steps of `p` (every one, or a bisection with --target-latency), printing the table
/// through `say`. Err when the first step cannot run at all; a later failure or Ctrl-C ends
/// the sweep early with the steps so far, marked partial.
pub fn execute(
    p: &Plan,
    quiet: bool,
    stop: &Arc<AtomicBool>,
    say: &dyn Fn(&str),
) -> Result<SweepResult, String> {
    let (vary, specs) = (&p.vary, &p.specs);
    say(&format!(
        "dbio sweep: {} on {}, varying {}\n{:>10} {:>12} {:>8} {:>10} {:>10} {:>10} {:>9} {:>6}\n",
        specs[0].profile,
        dbio_report::text::place(&specs[0]),
        vary.key,
        vary.key,
        "Waits",
        "Time(s)",
        "Avg(µs)",
        "p99(µs)",
        "IOPS",
        "MB/s",
        "CPU%"
    ));
    let mut ran: Vec<(usize, RunResult)> = Vec::new();
    let mut partial = false;
    // One step: None when the sweep must stop (interrupted, or the step failed).
    let run_step = |i: usize, ran: &mut Vec<(usize, RunResult)>| -> Result<Option<bool>, String> {
        let value = &vary.values[i];
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let later: f64 = specs[i + 1..].iter().map(planned_secs).sum();
        let mut progress = Progress::new(quiet).more_after(later + p.after_secs);
        let result = dbio_runner::run(&specs[i], stop.clone(), &mut |ev| progress.on(ev));
        progress.finish();
        let r = match result {
            Ok(r) => crate::cmd::run::judged(r),
            Err(RunError::Interrupted) => return Ok(None),
            Err(e) if ran.is_empty() => return Err(e.to_string()),
            Err(e) => {
                eprintln!("dbio sweep: step {}={value}: {e}", vary.key);
                return Ok(None);
            }
        };
        say(&row(value, &r));
        let complete = r.outcome == Outcome::Complete;
        let met = p.slo.is_some_and(|s| s.met_by(&r));
        ran.push((i, r));
        Ok(complete.then_some(met))
    };
    if p.search {
        // Bisection for the highest value that meets the objective, assuming latency grows
        // with load: about log2(steps) runs instead of all of them.
        let (mut lo, mut hi) = (0i64, vary.values.len() as i64 - 1);
        while lo <= hi {
            let mid = (lo + hi) / 2;
            match run_step(mid as usize, &mut ran)? {
                None => {
                    partial = true;
                    break;
                }
                Some(true) => lo = mid + 1,
                Some(false) => hi = mid - 1,
            }
        }
    } else {
        for i in 0..vary.values.len() {
            if run_step(i, &mut ran)?.is_none() {
                partial = true;
                break;
            }
        }
    }
    ran.sort_by_key(|(i, _)| *i);
    let values: Vec<String> = ran.iter().map(|(i, _)| vary.values[*i].clone()).collect();
    let steps: Vec<RunResult> = ran.into_iter().map(|(_, r)| r).collect();
    let sweep = analyse(
        vary.key,
        &values,
        p.slo_text.clone(),
        p.slo,
        p.search,
        steps,
        partial,
    );
    say(&conclusions(&sweep, p.knee_hint));
    Ok(sweep)
}

/// Seconds a step is planned to take (ramp and measuring; 0 for size-based steps).
pub fn planned_secs(s: &JobSpec) -> f64 {
    match s.stop {
        dbio_model::StopAfter::Seconds(x) => x + s.ramp_secs,
        _ => 0.0,
    }
}

/// Runs `dbio sweep` and returns its exit status.
pub fn run(a: SweepArgs) -> Exit {
    let outputs = [
        ("--json", a.run.json.as_deref()),
        ("--html", a.run.html.as_deref()),
    ];
    let inputs = crate::cmd::run::inputs(&a.run);
    let plan = match check_outputs(&outputs, &inputs).and_then(|()| plan(&a)) {
        Ok(p) => p,
        Err(m) => return Exit::usage(format!("dbio sweep: {m}")),
    };
    let store = match history::store_unless(&a.run.store) {
        Ok(s) => s,
        Err(m) => return Exit::usage(format!("dbio sweep: {m}")),
    };
    let stop = stop_flag();
    let transcript = Transcript::new(a.run.quiet, a.run.json.as_deref());
    let say = |s: &str| transcript.say(s);
    let sweep = match execute(&plan, a.run.quiet, &stop, &say) {
        Ok(s) => s,
        Err(m) => return Exit::usage(format!("dbio sweep: {m}")),
    };
    let json = dbio_report::json::to_json(&sweep);
    if let Some(store) = &store {
        let entry = history::sweep_entry(
            &sweep,
            &json,
            &transcript.text(),
            a.run.store.label.as_deref(),
        );
        history::keep(store, &entry, a.run.quiet, "dbio sweep");
    }
    if let Some(path) = a.run.json.as_deref() {
        if let Err(e) = emit_json(path, &json) {
            return Exit::Failure.with(format!(
                "dbio sweep: cannot write the JSON result to {path}: {e}"
            ));
        }
    }
    let partial = sweep.partial;
    if let Some(path) = a.run.html.as_deref() {
        let name = a
            .run
            .store
            .label
            .clone()
            .unwrap_or_else(|| format!("vary {}", sweep.vary));
        let item = Item {
            name,
            result: dbio_report::item::Result::Sweep(Box::new(sweep)),
        };
        if let Err(m) = write_html(path, item) {
            return Exit::Failure.with(format!("dbio sweep: {m}"));
        }
    }
    match (partial, stop.load(Ordering::Relaxed)) {
        (_, true) => Exit::Interrupted,
        (true, false) => Exit::Failure,
        (false, false) => Exit::Ok,
    }
}

/// One table row: value, waits (I/Os), time, average and p99 latency, IOPS, MB/s, CPU %
/// ("-" for a simulated step: no process did its work).
fn row(value: &str, r: &RunResult) -> String {
    let h = latency(r, Dir::All);
    let ios = r.total_ios();
    let cpu = if r.job.engine == EngineKind::Sim {
        "-".to_string()
    } else {
        let pct = (r.cpu.process_user_s + r.cpu.process_sys_s) / r.measured_secs.max(1e-9) * 100.0;
        format!("{pct:.0}")
    };
    // A step that did not reach steady state within --steady-max is marked.
    let mark = if r.steady.as_ref().is_some_and(|s| !s.settled) {
        "*"
    } else {
        " "
    };
    format!(
        "{mark}{value:>9} {ios:>12} {:>8.1} {:>10.1} {:>10.1} {:>10.0} {:>9.1} {cpu:>6}\n",
        r.measured_secs,
        h.mean() / 1000.0,
        h.value_at_quantile(0.99) as f64 / 1000.0,
        r.total_iops(),
        r.total_mb_s(),
    )
}

fn analyse(
    key: &str,
    values: &[String],
    slo_text: Option<String>,
    slo: Option<Slo>,
    search: bool,
    steps: Vec<RunResult>,
    partial: bool,
) -> SweepResult {
    let iops_v: Vec<f64> = steps.iter().map(RunResult::total_iops).collect();
    let mb_v: Vec<f64> = steps.iter().map(RunResult::total_mb_s).collect();
    let mean_v: Vec<f64> = steps.iter().map(|r| latency(r, Dir::All).mean()).collect();
    let point = |i: usize| SweepPoint {
        step: i,
        value: values[i].clone(),
        iops: iops_v[i],
        mb_s: mb_v[i],
    };
    let knee_at = slo.and_then(|s| {
        if search {
            // A latency-target search answers with the highest load that met the objective.
            return steps.iter().rposition(|r| s.met_by(r));
        }
        let lat: Vec<Option<f64>> = steps.iter().map(|r| s.value(r)).collect();
        knee(&iops_v, &lat, s.limit_ns as f64)
    });
    SweepResult {
        schema: SWEEP_SCHEMA.to_string(),
        dbio_version: env!("CARGO_PKG_VERSION").to_string(),
        vary: key.to_string(),
        values: values.to_vec(),
        slo: slo_text,
        knee: knee_at.map(point),
        saturation: saturation(&iops_v, &mean_v).map(point),
        bandwidth_90: if key == "bs" {
            reaches_90_pct(&mb_v).map(point)
        } else {
            None
        },
        partial,
        steps,
    }
}

fn conclusions(s: &SweepResult, knee_hint: bool) -> String {
    let mut out = String::new();
    // Session runs: SLOB's awr_info table, one line per step.
    let awr: Vec<String> = s
        .steps
        .iter()
        .filter_map(dbio_report::awr::awr_info)
        .collect();
    if !awr.is_empty() {
        out += &format!(
            "\n{}\n{}\n\n",
            dbio_report::awr::AWR_INFO_HEADER,
            awr.join("\n")
        );
    }
    match (&s.slo, &s.knee) {
        (Some(slo), Some(k)) => {
            out += &format!(
                "knee: {}={} gives {:.0} IOPS within {slo}\n",
                s.vary, k.value, k.iops
            )
        }
        (Some(slo), None) => out += &format!("knee: no step met {slo}\n"),
        (None, _) if knee_hint => {
            out +=
                "knee: give --slo (e.g. p99<1ms) to find the most IOPS within a latency objective\n"
        }
        (None, _) => {}
    }
    match &s.saturation {
        Some(p) => out += &format!(
            "saturation: from {}={} on, more load adds under 5 % IOPS while latency grows ({:.0} IOPS)\n",
            s.vary, p.value, p.iops
        ),
        None => out += "saturation: not reached; every step still added IOPS\n",
    }
    if let Some(p) = &s.bandwidth_90 {
        out += &format!(
            "bandwidth reaches 90 % of its best at bs={} ({:.1} MB/s)\n",
            p.value, p.mb_s
        );
    }
    let unsettled = s
        .steps
        .iter()
        .filter(|r| r.steady.as_ref().is_some_and(|st| !st.settled))
        .count();
    if unsettled > 0 {
        out += &format!(
            "* {unsettled} step(s) did not reach steady state within --steady-max and were measured anyway\n"
        );
    }
    if s.partial {
        out += "partial: the sweep stopped before its last step\n";
    }
    out
}
