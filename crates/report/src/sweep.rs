//! A sweep as text, in the spirit of SLOB's AWR tables: its header, a row per step as it
//! finishes, then the conclusions (the knee, the saturation point, where bandwidth levels off).

use crate::awr::{awr_info, AWR_INFO_HEADER};
use crate::text::place;
use dbio_analyze::slo::{latency, Dir};
use dbio_model::sweep::SweepResult;
use dbio_model::{EngineKind, JobSpec, Outcome, RunResult};

/// The table's heading: what runs where, the varied setting `key`, and the columns.
pub fn header(first: &JobSpec, key: &str) -> String {
    format!(
        "dbio sweep: {} on {}, varying {}\n{:>10} {:>12} {:>8} {:>10} {:>10} {:>10} {:>9} {:>6}\n",
        first.profile,
        place(first),
        key,
        key,
        "Waits",
        "Time(s)",
        "Avg(µs)",
        "p99(µs)",
        "IOPS",
        "MB/s",
        "CPU%"
    )
}

/// One table row: value, waits (I/Os), time, average and p99 latency, IOPS, MB/s, CPU %
/// ("-" for a simulated step: no process did its work).
pub fn row(value: &str, r: &RunResult) -> String {
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

/// Why step `key`=`value` failed, after the first: the sweep stops with what it has.
pub fn step_failed(key: &str, value: &str, why: &str) -> String {
    format!("dbio sweep: step {key}={value}: {why}")
}

/// What the sweep found: SLOB's awr_info table for session runs, the knee (or, with
/// `knee_hint` and no objective, how to find it), the saturation point, where bandwidth
/// levels off, unsettled steps and why a partial sweep stopped.
pub fn conclusions(s: &SweepResult, knee_hint: bool) -> String {
    let mut out = String::new();
    // Session runs: SLOB's awr_info table, one line per step.
    let awr: Vec<String> = s.steps.iter().filter_map(awr_info).collect();
    if !awr.is_empty() {
        out += &format!("\n{}\n{}\n\n", AWR_INFO_HEADER, awr.join("\n"));
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
pub fn why_stopped(s: &SweepResult) -> String {
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
