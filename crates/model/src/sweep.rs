//! The result of a sweep: one run per step of a varied setting, and what the steps show
//! (schema `schema/sweep-result.v1.json`).

use crate::result::RunResult;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Identifier and version of the sweep-result JSON format.
pub const SWEEP_SCHEMA: &str = "dbio.sweep/1";

/// A sweep: the same job run once per value of one setting.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SweepResult {
    /// Always [`SWEEP_SCHEMA`].
    pub schema: String,
    pub dbio_version: String,
    /// The varied setting: qd, threads, bs, mix or rate.
    pub vary: String,
    /// Its values, one per step, as given.
    pub values: Vec<String>,
    /// The latency objective of the knee, as given (e.g. "p99<1ms").
    pub slo: Option<String>,
    /// The step with the most IOPS that meets the objective.
    pub knee: Option<SweepPoint>,
    /// The last step before more load stopped adding IOPS (≤ 5 %) while latency grew.
    pub saturation: Option<SweepPoint>,
    /// The first step whose bandwidth reached 90 % of the sweep's best.
    pub bandwidth_90: Option<SweepPoint>,
    /// True when the sweep was interrupted or a step failed before the last value.
    pub partial: bool,
    /// One full run result per step that ran.
    pub steps: Vec<RunResult>,
}

/// A step singled out by the analysis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SweepPoint {
    /// Index into `steps`.
    pub step: usize,
    /// The varied setting's value there.
    pub value: String,
    pub iops: f64,
    pub mb_s: f64,
}
