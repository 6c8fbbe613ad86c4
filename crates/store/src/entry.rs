//! A stored result: what is stored, what a listing shows, and which a listing picks.

/// What is stored for one result.
#[derive(Debug, Clone, Default)]
pub struct NewEntry {
    /// "run" or "sweep".
    pub kind: String,
    /// Start of the measured window, RFC 3339 UTC.
    pub started_at: String,
    pub label: Option<String>,
    pub profile: String,
    /// Targets joined by ", " (or the simulated device).
    pub targets: String,
    pub host: String,
    pub iops: f64,
    pub mb_s: f64,
    pub p99_us: f64,
    /// The result's JSON exactly as written with `--json` (of an advice on more than 1000
    /// objects, its first 1000 of each list, with a note saying so).
    pub json: String,
    /// The summary exactly as printed.
    pub summary: String,
}

/// One stored result as `dbio history` lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub id: i64,
    pub kind: String,
    pub started_at: String,
    pub label: Option<String>,
    pub profile: String,
    pub targets: String,
    pub host: String,
    pub iops: f64,
    pub mb_s: f64,
    pub p99_us: f64,
}

/// Which entries `dbio history` lists; every set field must match.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Substring of the targets.
    pub target: Option<String>,
    pub profile: Option<String>,
    /// RFC 3339 time (or a prefix of one, e.g. a date): entries started at or after it.
    pub since: Option<String>,
    pub label: Option<String>,
    /// At most this many, newest first.
    pub limit: Option<u32>,
}
