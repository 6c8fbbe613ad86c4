//! A trace replayed as a run (`dbio replay`): what was asked of the replay, and how closely
//! it kept the trace's times.

use crate::histogram::LatencySummary;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What a replay runs: the trace, which captured device goes to which target, and how.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ReplaySpec {
    /// The trace file (dbio's trace format).
    pub trace: String,
    /// For each target (in the job's order), the captured device whose requests go to it.
    pub devices: Vec<String>,
    /// Times divided by this (2.0: twice the captured load; `--speed`).
    pub speed: f64,
    /// Ignore the times and keep `qd` requests in flight, in the trace's order.
    pub as_fast_as_possible: bool,
    /// The captured requests that are replayed (reads, writes and flushes of mapped devices).
    pub requests: u64,
    /// Nanoseconds from the first request's issue to the last's, as captured.
    pub span_ns: u64,
    /// Captured reads and writes of each second (all mapped devices), for the fidelity per
    /// second.
    pub captured_per_second: Vec<u64>,
}

/// How closely a replay kept the trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ReplayReport {
    pub trace: String,
    pub speed: f64,
    pub as_fast_as_possible: bool,
    /// Requests issued (of `ReplaySpec::requests`).
    pub issued: u64,
    pub requests: u64,
    /// Discards in the trace, not replayed (a discard would destroy the target's data
    /// without measuring anything dbio reports).
    pub discards_skipped: u64,
    /// Requests whose offset lay beyond the target's end, folded into it: offset modulo
    /// the target's usable length, aligned down to 4 KiB (512 bytes for requests that were
    /// not 4 KiB aligned).
    pub folded: u64,
    /// Share of requests issued within 100 µs of their scheduled time (timed replays).
    pub on_time_pct: f64,
    /// How late requests were issued against their scheduled time, in nanoseconds.
    pub lag_ns: LatencySummary,
    /// Seconds in which the achieved I/O count was within 5 % of the captured one (scaled
    /// by the speed), in percent of the seconds compared.
    pub seconds_within_5_pct: f64,
    /// The lowest achieved/captured ratio of any second with at least 100 captured requests.
    pub worst_second_ratio: Option<f64>,
}
