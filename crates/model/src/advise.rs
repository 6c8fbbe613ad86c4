//! `dbio advise`: what a database's own I/O statistics say to move to flash (schema
//! `schema/advise-result.v1.json`). [`ObjectIo`] is what a source counted per object;
//! [`AdviseResult`] is the analysis: per-object figures, the skew and the placement.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Identifier and version of the advise-result JSON format.
pub const ADVISE_SCHEMA: &str = "dbio.advise/1";

/// What an object holds, which decides whether flash helps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ObjectKind {
    /// Tables, data files, tablespaces.
    Data,
    /// Indexes (PostgreSQL indexes; files or tablespaces named as index ones).
    Index,
    /// Transaction log: SQL Server .ldf, Oracle redo, PostgreSQL WAL, InnoDB redo, binlogs.
    Log,
    /// TempDB, TEMP tablespaces, InnoDB temporary tablespace.
    Temp,
    /// Anything else (undo, system tablespace, whole devices).
    Other,
}

impl ObjectKind {
    /// The lower-case name used in text and JSON.
    pub fn name(self) -> &'static str {
        match self {
            ObjectKind::Data => "data",
            ObjectKind::Index => "index",
            ObjectKind::Log => "log",
            ObjectKind::Temp => "temp",
            ObjectKind::Other => "other",
        }
    }
}

/// What a source counted for one object over the interval (a delta of two snapshots, or
/// the counts since the server started).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ObjectIo {
    /// The object's own name: schema.table, a file's logical name and path, a device.
    pub name: String,
    pub kind: ObjectKind,
    /// Bytes it occupies; None when the source does not say.
    pub size_bytes: Option<u64>,
    pub reads: u64,
    pub writes: u64,
    pub bytes_read: u64,
    pub bytes_written: u64,
    /// Time spent waiting on reads in ms; None when the source has no read times.
    pub read_ms: Option<f64>,
    /// Time spent waiting on writes in ms; None when the source has no write times.
    pub write_ms: Option<f64>,
    /// Read and write stall together, for sources that only give the sum (SQL Server
    /// Figure 5 form's IOStallMS); None otherwise.
    pub stall_ms: Option<f64>,
}

impl ObjectIo {
    /// An object with no I/O counted yet.
    pub fn new(name: impl Into<String>, kind: ObjectKind) -> ObjectIo {
        ObjectIo {
            name: name.into(),
            kind,
            size_bytes: None,
            reads: 0,
            writes: 0,
            bytes_read: 0,
            bytes_written: 0,
            read_ms: None,
            write_ms: None,
            stall_ms: None,
        }
    }

    /// Reads plus writes.
    pub fn ios(&self) -> u64 {
        self.reads + self.writes
    }

    /// Adds `o`'s counts to these (the size stays; a time either side has is kept).
    pub fn add(&mut self, o: &ObjectIo) {
        self.reads += o.reads;
        self.writes += o.writes;
        self.bytes_read += o.bytes_read;
        self.bytes_written += o.bytes_written;
        let f = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => Some(a + b),
            (a, None) => a,
            (None, b) => b,
        };
        self.read_ms = f(self.read_ms, o.read_ms);
        self.write_ms = f(self.write_ms, o.write_ms);
        self.stall_ms = f(self.stall_ms, o.stall_ms);
    }

    /// Total stall in ms: the combined figure, else reads plus writes; None without times.
    pub fn stall(&self) -> Option<f64> {
        self.stall_ms.or(match (self.read_ms, self.write_ms) {
            (None, None) => None,
            (r, w) => Some(r.unwrap_or(0.0) + w.unwrap_or(0.0)),
        })
    }
}

/// Everything one `dbio advise` found and recommends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AdviseResult {
    /// Always [`ADVISE_SCHEMA`].
    pub schema: String,
    pub dbio_version: String,
    /// When the advice was made, RFC 3339 UTC.
    pub made_at: String,
    pub source: SourceInfo,
    /// What the reader should know: timings off, figures apportioned, objects skipped.
    pub notes: Vec<String>,
    /// "stall saved per GiB" when the source has times, else "I/Os per GiB".
    pub ranked_by: String,
    pub totals: Totals,
    /// Every object with I/O or a size, best candidate for flash first; temp objects come
    /// after the candidates, and what is never moved (logs, no I/O, large I/O) last.
    pub objects: Vec<ObjectFigures>,
    pub skew: Option<Skew>,
    /// The choice within `--flash SIZE`; None without a budget.
    pub placement: Option<Placement>,
}

/// Where the figures came from. Never holds a password.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SourceInfo {
    /// postgresql, mariadb, sqlserver, oracle, oracle-awr, diskstats or capture (a dbio trace
    /// attributed to files).
    pub system: String,
    /// The URL (password removed) or the files read.
    pub name: String,
    /// Seconds the counts cover.
    pub interval_secs: f64,
    /// True when the counts run from the server's start (one export), not a delta.
    pub since_start: bool,
}

/// Sums over all objects.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Totals {
    /// Bytes of the objects whose size is known.
    pub size_bytes: u64,
    pub reads: u64,
    pub writes: u64,
    pub bytes_read: u64,
    pub bytes_written: u64,
    /// Stall in ms; None when no object has times.
    pub stall_ms: Option<f64>,
}

/// The figures of one object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ObjectFigures {
    /// 1 for the best candidate.
    pub rank: u32,
    pub name: String,
    pub kind: ObjectKind,
    pub size_bytes: Option<u64>,
    pub reads: u64,
    pub writes: u64,
    pub bytes_read: u64,
    pub bytes_written: u64,
    /// Bytes per I/O, both directions.
    pub avg_io_bytes: Option<f64>,
    pub avg_read_ms: Option<f64>,
    pub avg_write_ms: Option<f64>,
    /// Read and write stall in ms.
    pub stall_ms: Option<f64>,
    /// Share of all I/Os (0..1).
    pub io_share: f64,
    /// Share of the known capacity (0..1).
    pub capacity_share: Option<f64>,
    /// Share of all stall (0..1).
    pub stall_share: Option<f64>,
    /// I/Os per second per GiB.
    pub iops_per_gib: Option<f64>,
    /// Stall ms per GiB over the interval.
    pub stall_ms_per_gib: Option<f64>,
    /// Its mean latency now and on flash (ms) as the saving used them.
    pub current_ms: Option<f64>,
    pub flash_ms: Option<f64>,
    /// Stall it would save on flash (ms); None without times, or for an object never moved.
    pub saved_ms: Option<f64>,
}

/// Cumulative I/O against cumulative capacity, densest objects first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Skew {
    /// The curve from (0, 0) to (1, 1), one point per object.
    pub points: Vec<SkewPoint>,
    /// The skew point: where the two shares add to 1.
    pub io_share: f64,
    pub capacity_share: f64,
    /// "61 % of the I/O is in 39 % of the capacity".
    pub sentence: String,
}

/// One point of the skew curve.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SkewPoint {
    pub capacity_share: f64,
    pub io_share: f64,
}

/// The recommendation within the flash budget.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Placement {
    pub budget_bytes: u64,
    pub used_bytes: u64,
    /// How the set was chosen, in words (e.g. "exact: 0/1 knapsack by dynamic programming").
    pub method: String,
    /// True when the choice is proven the best; false gives `gap`.
    pub exact: bool,
    /// How far the choice may be from the best, as a share of the best's upper bound.
    pub gap: f64,
    /// The objects to move, largest saving per GiB first.
    pub to_move: Vec<Moved>,
    /// The objects to leave where they are, with why.
    pub to_leave: Vec<Left>,
    /// None when the source has no times (the choice then maximises I/Os moved).
    pub gain: Option<Gain>,
}

/// An object to move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Moved {
    pub name: String,
    pub kind: ObjectKind,
    pub size_bytes: u64,
    pub stall_ms: Option<f64>,
    pub saved_ms: f64,
}

/// Why an object stays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LeaveReason {
    /// A transaction log: sequential writes gained nothing on flash in seed 002.
    Log,
    /// Average I/O of 256 KiB or more: large sequential transfers gain little.
    LargeIo,
    /// Temp objects go only after the I/O-intensive parts, and the budget ran out.
    TempLast,
    /// No I/O in the interval.
    NoIo,
    /// Its I/O is already as fast as flash: nothing to save.
    NoGain,
    /// The source gives no size, so it cannot be placed.
    SizeUnknown,
    /// Larger than the whole budget.
    TooBig,
    /// Others save more within the budget.
    NotChosen,
}

/// An object to leave.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Left {
    pub name: String,
    pub kind: ObjectKind,
    pub size_bytes: Option<u64>,
    pub reason: LeaveReason,
    /// The reason in words.
    pub why: String,
}

/// What moving the chosen set is expected to give.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Gain {
    /// Stall of the moved objects now, and what moving them saves (ms).
    pub moved_stall_ms: f64,
    pub saved_ms: f64,
    /// Share of all stall the moved objects carry (f).
    pub moved_stall_share: f64,
    /// Latency ratio current / flash over the moved objects (k).
    pub latency_ratio: f64,
    /// Where the latencies came from: the flash latency assumed, or the measured runs.
    pub latency_basis: String,
    /// Share of the time spent waiting on I/O (p), and where it came from.
    pub io_wait_share: Option<f64>,
    pub io_wait_from: Option<String>,
    /// Bound on the overall speed-up: 1 / ((1 - p·f) + p·f / k); with p = 1 when unknown.
    pub speedup_bound: f64,
}
