//! `dbio sweep`: one run per value of a setting, a table row per step as it finishes (in the
//! spirit of SLOB's AWR tables), then the knee, the saturation point and where bandwidth
//! levels off. The whole sweep is one JSON result.

use crate::args::RunArgs;
use crate::args::SweepArgs;
use crate::cmd::fleet::executor;
use crate::deliver::{html, keep_and_write, Delivery};
use crate::error::CliError;
use crate::exit::Exit;
use crate::history;
use crate::output::Transcript;
use crate::progress::Progress;
use crate::prologue::prologue;
use crate::raw::job_spec;
use dbio_analyze::slo::{latency, Dir, Slo};
use dbio_model::sweep::SweepResult;
use dbio_model::{EngineKind, JobSpec, Outcome, RunResult};
use dbio_orchestrate::executor::Executor;
use dbio_orchestrate::sweep::{run_sweep, SweepObserver, SweepPlan};
use dbio_report::item::Item;
use dbio_spec::vary::{Vary, Varying};
use dbio_spec::vary_flag::parse_vary;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A sweep checked and ready to run: every step is validated before the first one runs.
pub struct Plan {
    /// Without an objective, say that --slo would find the knee (not for a database sweep,
    /// which has no --slo).
    pub knee_hint: bool,
    pub steps: SweepPlan,
}

/// Checks `--vary`, the objective and every step's job; the message says what is wrong. The
/// steps are the job of the flags with the varied setting changed, each checked again as a job.
pub fn plan(a: &SweepArgs) -> Result<Plan, CliError> {
    let vary = parse_vary(&a.vary)?;
    let search = a.target_latency.is_some();
    let slo_text = a.slo.clone().or(a.target_latency.clone());
    let slo = match slo_text.as_deref().map(Slo::parse).transpose() {
        Ok(s) => s,
        Err(m) if search => return Err(m.to_string().replace("--slo", "--target-latency").into()),
        Err(m) => return Err(m.into()),
    };
    let base = base_job(&a.run, &vary)?;
    let steps =
        SweepPlan::new(&base, vary, slo_text.zip(slo), search).map_err(|e| e.to_string())?;
    Ok(Plan {
        knee_hint: true,
        steps,
    })
}

/// The job every step varies: the flags' own. Where the varied setting decides what kind of
/// job it is (sessions: session mode; rate: an open loop) and the flags leave it out, the
/// first step's value stands in, so the base is a job of that kind.
fn base_job(run: &RunArgs, vary: &Varying) -> Result<JobSpec, CliError> {
    let mut run = run.clone();
    match vary.steps.first() {
        Some(Vary::Sessions(n)) if run.sessions.is_none() => run.sessions = Some(*n),
        Some(Vary::Rate(r)) if run.rate.is_none() => run.rate = Some(*r),
        _ => {}
    }
    Ok(job_spec(&run)?)
}

/// The sweep's table as it goes: its header, a progress display per step, a row per
/// finished step, and the conclusions.
pub struct Table<'a> {
    /// Seconds planned after the sweep (by a suite), for the time left in all.
    after_secs: f64,
    /// Without an objective, say that --slo would find the knee.
    knee_hint: bool,
    quiet: bool,
    /// The varied setting and its values, as written.
    key: &'static str,
    values: Vec<String>,
    progress: Option<Progress>,
    say: &'a dyn Fn(&str),
}

impl<'a> Table<'a> {
    /// A table printed through `say`, `after_secs` planned after the sweep.
    pub fn new(after_secs: f64, knee_hint: bool, quiet: bool, say: &'a dyn Fn(&str)) -> Self {
        Table {
            after_secs,
            knee_hint,
            quiet,
            key: "",
            values: Vec::new(),
            progress: None,
            say,
        }
    }
}

impl SweepObserver for Table<'_> {
    fn start(&mut self, s: &SweepPlan) {
        self.key = s.key;
        self.values = s.values.clone();
        (self.say)(&format!(
            "dbio sweep: {} on {}, varying {}\n{:>10} {:>12} {:>8} {:>10} {:>10} {:>10} {:>9} {:>6}\n",
            s.specs[0].profile,
            dbio_report::text::place(&s.specs[0]),
            s.key,
            s.key,
            "Waits",
            "Time(s)",
            "Avg(µs)",
            "p99(µs)",
            "IOPS",
            "MB/s",
            "CPU%"
        ));
    }

    fn step_start(&mut self, _: usize, later_secs: f64) {
        let more = later_secs + self.after_secs;
        self.progress = Some(Progress::new(self.quiet).more_after(more));
    }

    fn event(&mut self, ev: dbio_runner::Event) {
        if let Some(p) = self.progress.as_mut() {
            p.on(ev);
        }
    }

    fn step_end(&mut self, i: usize, r: Option<&RunResult>) {
        if let Some(mut p) = self.progress.take() {
            p.finish();
        }
        if let Some(r) = r {
            (self.say)(&row(&self.values[i], r));
        }
    }

    fn step_failed(&mut self, i: usize, why: &str) {
        eprintln!("dbio sweep: step {}={}: {why}", self.key, self.values[i]);
    }

    fn end(&mut self, r: &SweepResult) {
        (self.say)(&conclusions(r, self.knee_hint));
    }
}

/// Runs the steps of `p` through `exec` (every one, or a bisection with --target-latency),
/// printing the table through `say`. Err when the first step cannot run at all; a later
/// failure or Ctrl-C ends the sweep early with the steps so far, marked partial.
pub fn execute(
    p: &Plan,
    exec: &mut dyn Executor,
    quiet: bool,
    stop: &Arc<AtomicBool>,
    say: &dyn Fn(&str),
) -> Result<SweepResult, CliError> {
    let mut table = Table::new(0.0, p.knee_hint, quiet, say);
    run_sweep(&p.steps, exec, stop, &mut table).map_err(CliError::from)
}

/// Runs `dbio sweep` and returns its exit status.
pub fn run(a: SweepArgs) -> Exit {
    const CMD: &str = "dbio sweep";
    let outputs = [
        ("--json", a.run.out.json.as_deref()),
        ("--html", a.run.html.as_deref()),
    ];
    let inputs = crate::cmd::run::inputs(&a.run);
    let ready = match prologue(CMD, &outputs, &inputs, &a.run.store, || plan(&a)) {
        Ok(r) => r,
        Err(exit) => return exit,
    };
    let stop = ready.stop.flag();
    let transcript = Transcript::new(a.run.out.quiet, a.run.out.json.as_deref());
    let say = |s: &str| transcript.say(s);
    let run = &a.run;
    let exec = executor(&run.fleet, run.store.label.as_deref(), run.out.quiet);
    let sweep =
        match exec.and_then(|mut e| execute(&ready.work, &mut *e, run.out.quiet, &stop, &say)) {
            Ok(s) => s,
            Err(m) => return Exit::usage(format!("{CMD}: {m}")),
        };
    let d = Delivery::of(run);
    let json = dbio_report::json::to_json(&sweep);
    let entry = || history::sweep_entry(&sweep, &json, &transcript.text(), d.label);
    if let Err(exit) = keep_and_write(ready.store.as_ref(), entry, &json, &d, CMD) {
        return exit;
    }
    let partial = sweep.partial;
    // --verify: any step whose writes did not all read back ends the sweep with status 3.
    let bad: u64 = sweep
        .steps
        .iter()
        .filter_map(|r| r.verify.as_ref().filter(|v| v.corrupt()))
        .map(|v| v.corrupt.total())
        .sum();
    let label = d.label;
    let item = move || Item {
        name: label.map_or_else(|| format!("vary {}", sweep.vary), str::to_string),
        result: dbio_report::item::Result::Sweep(Box::new(sweep)),
    };
    if let Err(exit) = html(&d, item, CMD) {
        return exit;
    }
    if bad > 0 {
        return Exit::Corrupt.with(format!(
            "{CMD}: verify found {bad} bad blocks (exit status 3)"
        ));
    }
    Exit::ended(partial, stop.load(Ordering::Relaxed))
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
        out += &format!(
            "partial: the sweep stopped before its last step{}\n",
            why_stopped(s)
        );
    }
    out
}

/// Why a partial sweep stopped, from the last step that ran: ", at step KEY=VALUE: REASON"
/// when that step ended with an I/O error (a journal that could not be kept, a failed read),
/// or was interrupted; "" when every step that ran was complete.
fn why_stopped(s: &SweepResult) -> String {
    let Some((r, value)) = s.steps.last().zip(s.values.last()) else {
        return String::new();
    };
    let why = match &r.outcome {
        Outcome::IoError(e) => e.as_str(),
        Outcome::Interrupted => "interrupted",
        Outcome::Complete => return String::new(),
    };
    format!(", at step {}={value}: {why}", s.vary)
}
