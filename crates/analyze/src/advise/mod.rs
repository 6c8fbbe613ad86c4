//! Placement on flash from a database's own I/O statistics: per-object figures, the skew,
//! and the set of objects that saves the most stall within a flash budget, with what not to
//! move and why, and the expected gain bounded by Amdahl's law.

pub mod devices;
pub mod kept;
pub mod knapsack;
pub mod measured;
mod options;
mod place;
pub mod request;
pub mod skew;
mod worth;

use dbio_model::advise::{
    AdviseResult, ObjectFigures, ObjectIo, ObjectKind, SourceInfo, Totals, ADVISE_SCHEMA,
};
pub use options::{Latency, Options};
pub use worth::LARGE_IO;
use worth::{never_moved, value_of};

/// Bytes in a GiB, the unit of every per-capacity figure.
pub const GIB: f64 = 1_073_741_824.0;

/// The whole advice for `objects` counted over `source.interval_secs`.
pub fn advise(
    objects: &[ObjectIo],
    source: SourceInfo,
    notes: Vec<String>,
    made_at: String,
    o: &Options,
) -> AdviseResult {
    // Ranked by stall when the objects that may move have times: a log timed on its own
    // (PostgreSQL's track_wal_io_timing without track_io_timing) does not make the others so.
    let timed = objects
        .iter()
        .any(|x| x.kind != ObjectKind::Log && x.stall().is_some());
    let totals = totals(objects);
    let mut figs: Vec<ObjectFigures> = objects
        .iter()
        .map(|x| figures(x, &totals, source.interval_secs, &o.latency))
        .collect();
    for f in figs.iter_mut().filter(|f| never_moved(f).is_some()) {
        f.saved_ms = None;
    }
    let mut figs = ranked(figs, timed);
    for (i, f) in figs.iter_mut().enumerate() {
        f.rank = i as u32 + 1;
    }
    let sized: Vec<(u64, u64)> = figs
        .iter()
        .filter_map(|f| f.size_bytes.map(|s| (s, f.reads + f.writes)))
        .collect();
    let placement = o.budget.map(|b| place::place(&figs, b, timed, &totals, o));
    AdviseResult {
        schema: ADVISE_SCHEMA.into(),
        dbio_version: env!("CARGO_PKG_VERSION").into(),
        made_at,
        source,
        notes,
        ranked_by: if timed {
            "stall saved per GiB".into()
        } else {
            "I/Os per GiB".into()
        },
        totals,
        skew: skew::skew(&sized),
        objects: figs,
        placement,
    }
}

/// `figs` in the order of the ranking: tier, value per GiB, busy-ness, value, then name.
/// The keys are worked out once and indices sorted, not the (large) figures.
fn ranked(figs: Vec<ObjectFigures>, timed: bool) -> Vec<ObjectFigures> {
    let keys: Vec<(u8, f64, f64, f64)> = figs
        .iter()
        .map(|f| (tier(f), density(f, timed), busy(f), value_of(f, timed)))
        .collect();
    let mut order: Vec<usize> = (0..figs.len()).collect();
    order.sort_by(|&i, &j| {
        let (a, b) = (&keys[i], &keys[j]);
        a.0.cmp(&b.0)
            .then(b.1.total_cmp(&a.1))
            .then(b.2.total_cmp(&a.2))
            .then(b.3.total_cmp(&a.3))
            .then(figs[i].name.cmp(&figs[j].name))
    });
    let mut slots: Vec<Option<ObjectFigures>> = figs.into_iter().map(Some).collect();
    order
        .iter()
        .map(|&i| slots[i].take().expect("each index once"))
        .collect()
}

/// The ranking's first key: candidates (0), then temp objects, which only get what the
/// candidates leave (1), then what is never moved (2).
fn tier(f: &ObjectFigures) -> u8 {
    if never_moved(f).is_some() {
        2
    } else if f.kind == ObjectKind::Temp {
        1
    } else {
        0
    }
}

/// Stall per GiB, then I/Os per GiB: the order among objects that save the same (nothing,
/// when every I/O is already as fast as the flash assumed).
fn busy(f: &ObjectFigures) -> f64 {
    f.stall_ms_per_gib
        .or(f.iops_per_gib)
        .unwrap_or_else(|| (f.reads + f.writes) as f64 / f.size_bytes.unwrap_or(1).max(1) as f64)
}

/// Value per GiB, the ranking key: objects of size 0 with value first, unknown sizes last.
fn density(f: &ObjectFigures, timed: bool) -> f64 {
    let v = value_of(f, timed);
    match f.size_bytes {
        Some(0) if v > 0.0 => f64::INFINITY,
        Some(0) => 0.0,
        Some(s) => v / (s as f64 / GIB),
        None => -1.0,
    }
}

fn totals(objects: &[ObjectIo]) -> Totals {
    let stalls: Vec<f64> = objects.iter().filter_map(ObjectIo::stall).collect();
    Totals {
        size_bytes: objects.iter().filter_map(|x| x.size_bytes).sum(),
        reads: objects.iter().map(|x| x.reads).sum(),
        writes: objects.iter().map(|x| x.writes).sum(),
        bytes_read: objects.iter().map(|x| x.bytes_read).sum(),
        bytes_written: objects.iter().map(|x| x.bytes_written).sum(),
        stall_ms: (!stalls.is_empty()).then(|| stalls.iter().sum()),
    }
}

/// Share `a / b`, 0 when `b` is 0.
fn share(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        0.0
    }
}

/// The figures of one object (rank set later).
fn figures(x: &ObjectIo, t: &Totals, secs: f64, lat: &Latency) -> ObjectFigures {
    let ios = x.ios();
    let gib = x.size_bytes.filter(|&s| s > 0).map(|s| s as f64 / GIB);
    let stall = x.stall();
    let (current_ms, flash_ms, saved_ms) = saving(x, lat);
    let per = |n: u64, ms: Option<f64>| ms.filter(|_| n > 0).map(|m| m / n as f64);
    ObjectFigures {
        rank: 0,
        name: x.name.clone(),
        kind: x.kind,
        size_bytes: x.size_bytes,
        reads: x.reads,
        writes: x.writes,
        bytes_read: x.bytes_read,
        bytes_written: x.bytes_written,
        avg_io_bytes: (ios > 0 && x.bytes_read + x.bytes_written > 0)
            .then(|| (x.bytes_read + x.bytes_written) as f64 / ios as f64),
        avg_read_ms: per(x.reads, x.read_ms),
        avg_write_ms: per(x.writes, x.write_ms),
        stall_ms: stall,
        io_share: share(ios as f64, (t.reads + t.writes) as f64),
        capacity_share: x.size_bytes.map(|s| share(s as f64, t.size_bytes as f64)),
        stall_share: stall.map(|s| share(s, t.stall_ms.unwrap_or(0.0))),
        iops_per_gib: gib.filter(|_| secs > 0.0).map(|g| ios as f64 / secs / g),
        stall_ms_per_gib: gib.and_then(|g| stall.map(|s| s / g)),
        current_ms,
        flash_ms,
        saved_ms,
    }
}

/// (current latency, flash latency, stall saved) of an object; None without times.
fn saving(x: &ObjectIo, lat: &Latency) -> (Option<f64>, Option<f64>, Option<f64>) {
    let Some(stall) = x.stall() else {
        return (None, None, None);
    };
    let ios = x.ios();
    if ios == 0 {
        return (None, None, Some(0.0));
    }
    let cur = stall / ios as f64;
    let bytes = x.bytes_read + x.bytes_written;
    let avg = if bytes > 0 {
        bytes as f64 / ios as f64
    } else {
        8192.0
    };
    let rs = x.reads as f64 / ios as f64;
    let flash = match lat {
        Latency::Assumed { flash_ms } => *flash_ms,
        Latency::Measured {
            flash,
            current: None,
        } => flash.latency_ms(avg, rs),
        Latency::Measured {
            flash,
            current: Some(c),
        } => cur * flash.latency_ms(avg, rs) / c.latency_ms(avg, rs).max(1e-9),
    };
    let saved = if cur > 0.0 {
        (stall * (1.0 - flash / cur)).max(0.0)
    } else {
        0.0
    };
    (Some(cur), Some(flash), Some(saved))
}

#[cfg(test)]
mod tests;
