//! The recommendation within the budget: which objects may move (logs, large sequential
//! I/O and objects without I/O or size never do), the knapsack over the I/O-intensive ones,
//! then temp objects in what they leave, and the expected gain.

use super::knapsack::{choose, Choice, Item, Method};
use super::options::{Latency, Options};
use super::worth::{never_moved, value_of};
use dbio_model::advise::{
    Gain, LeaveReason, Left, Moved, ObjectFigures, ObjectKind, Placement, Totals,
};
use dbio_model::units::format_size;

/// The placement of the ranked objects `figs` within `budget` bytes.
pub fn place(
    figs: &[ObjectFigures],
    budget: u64,
    timed: bool,
    totals: &Totals,
    o: &Options,
) -> Placement {
    let barred: Vec<Option<LeaveReason>> = figs.iter().map(|f| bar(f, budget, timed)).collect();
    let pick = |temp: bool| -> Vec<usize> {
        (0..figs.len())
            .filter(|&i| barred[i].is_none() && (figs[i].kind == ObjectKind::Temp) == temp)
            .collect()
    };
    let (main, temps) = (pick(false), pick(true));
    let first = run(figs, &main, budget, timed);
    let left = budget - first.weight;
    let second = run(figs, &temps, left, timed);
    let chosen: Vec<usize> = first
        .chosen
        .iter()
        .map(|&k| main[k])
        .chain(second.chosen.iter().map(|&k| temps[k]))
        .collect();
    let used = first.weight + second.weight;
    let mut is_chosen = vec![false; figs.len()];
    for &i in &chosen {
        is_chosen[i] = true;
    }
    let mut to_move = Vec::new();
    let mut to_leave = Vec::new();
    for (i, f) in figs.iter().enumerate() {
        if is_chosen[i] {
            to_move.push(Moved {
                name: f.name.clone(),
                kind: f.kind,
                size_bytes: f.size_bytes.unwrap_or(0),
                stall_ms: f.stall_ms,
                saved_ms: f.saved_ms.unwrap_or(0.0),
            });
            continue;
        }
        let reason = barred[i].unwrap_or(if f.kind == ObjectKind::Temp {
            LeaveReason::TempLast
        } else {
            LeaveReason::NotChosen
        });
        to_leave.push(Left {
            name: f.name.clone(),
            kind: f.kind,
            size_bytes: f.size_bytes,
            reason,
            why: why(reason, f, budget, budget - used, left),
        });
    }
    let (method, exact, gap) = describe(&first, &second, temps.len());
    Placement {
        budget_bytes: budget,
        used_bytes: used,
        method,
        exact,
        gap,
        gain: timed.then(|| gain(&to_move, totals, o)),
        to_move,
        to_leave,
    }
}

/// The knapsack over the objects `idx` of `figs`.
fn run(figs: &[ObjectFigures], idx: &[usize], cap: u64, timed: bool) -> Choice {
    let items: Vec<Item> = idx
        .iter()
        .map(|&i| Item {
            weight: figs[i].size_bytes.unwrap_or(0),
            value: value_of(&figs[i], timed),
        })
        .collect();
    choose(&items, cap)
}

/// Why an object cannot move whatever the budget, checked in this order.
fn bar(f: &ObjectFigures, budget: u64, timed: bool) -> Option<LeaveReason> {
    if let Some(r) = never_moved(f) {
        Some(r)
    } else if f.size_bytes.is_none() {
        Some(LeaveReason::SizeUnknown)
    } else if value_of(f, timed) <= 0.0 {
        Some(LeaveReason::NoGain)
    } else if f.size_bytes.is_some_and(|s| s > budget) {
        Some(LeaveReason::TooBig)
    } else {
        None
    }
}

/// The reason in words.
fn why(r: LeaveReason, f: &ObjectFigures, budget: u64, free: u64, temp_room: u64) -> String {
    let size = f.size_bytes.unwrap_or(0);
    match r {
        LeaveReason::Log => "transaction log: its sequential writes gained nothing on flash in the seed's tests; keep it on write-cache-backed disks and give flash to data and indexes".into(),
        LeaveReason::LargeIo => format!(
            "average I/O of {} (256 KiB or more): large sequential transfers gain little from flash",
            format_size(f.avg_io_bytes.unwrap_or(0.0) as u64)
        ),
        LeaveReason::NoIo => "no I/O in the interval".into(),
        LeaveReason::NoGain => match (f.current_ms, f.flash_ms) {
            (Some(c), Some(fl)) => format!(
                "already as fast as flash ({c:.3} ms per I/O now, {fl:.3} ms on flash): nothing to save"
            ),
            _ => "nothing to save".into(),
        },
        LeaveReason::SizeUnknown => {
            "the source gives no size for it, so it cannot be placed (give --sizes FILE)".into()
        }
        LeaveReason::TooBig => format!(
            "larger ({}) than the whole budget ({})",
            format_size(size),
            format_size(budget)
        ),
        LeaveReason::TempLast if size > temp_room => format!(
            "temp goes only after the I/O-intensive parts, and does not fit in the {} they leave",
            format_size(temp_room)
        ),
        LeaveReason::TempLast => format!(
            "temp goes only after the I/O-intensive parts; other temp objects save more in the {} they leave",
            format_size(temp_room)
        ),
        LeaveReason::NotChosen if size > free => format!(
            "does not fit in what is left of the budget ({}); the objects chosen save more",
            format_size(free)
        ),
        LeaveReason::NotChosen => "the objects chosen save more within the budget".into(),
    }
}

/// The method in words, whether it is proven best, and its gap.
fn describe(first: &Choice, second: &Choice, temps: usize) -> (String, bool, f64) {
    let one = |c: &Choice| {
        match c.method {
        Method::All => ("exact: every candidate fits".to_string(), true),
        Method::Dp { unit } => (
            format!(
                "exact: 0/1 knapsack by dynamic programming over the capacity in units of {} (the sizes' greatest common divisor)",
                format_size(unit)
            ),
            true,
        ),
        Method::BranchAndBound {
            nodes,
            finished: true,
        } => (
            format!("exact: 0/1 knapsack by branch and bound on the LP bound ({nodes} nodes)"),
            true,
        ),
        Method::BranchAndBound { nodes, .. } => (
            format!(
                "0/1 knapsack by branch and bound, stopped after {nodes} nodes: within {} of the best (LP bound)",
                if c.gap < 1e-6 { "under 0.0001 %".to_string() } else { format!("{:.4} %", c.gap * 100.0) }
            ),
            false,
        ),
    }
    };
    let (mut text, mut exact) = one(first);
    if temps > 0 {
        let (t, e) = one(second);
        text = format!("{text}; temp objects then in what was left ({t})");
        exact &= e;
    }
    (text, exact, first.gap.max(second.gap))
}

/// The expected gain of moving `moved`: stall saved, f, k and the Amdahl bound.
fn gain(moved: &[Moved], totals: &Totals, o: &Options) -> Gain {
    // (+ 0.0: an empty float sum is -0.0.)
    let moved_stall: f64 = moved.iter().filter_map(|m| m.stall_ms).sum::<f64>() + 0.0;
    let saved: f64 = moved.iter().map(|m| m.saved_ms).sum::<f64>() + 0.0;
    let total = totals.stall_ms.unwrap_or(0.0);
    let f = if total > 0.0 {
        moved_stall / total
    } else {
        0.0
    };
    let k = if moved_stall <= 0.0 {
        1.0
    } else if moved_stall - saved <= moved_stall * 1e-6 {
        1e6
    } else {
        moved_stall / (moved_stall - saved)
    };
    let p = o.io_wait_share.as_ref().map_or(1.0, |x| x.0);
    Gain {
        moved_stall_ms: moved_stall,
        saved_ms: saved,
        moved_stall_share: f,
        latency_ratio: k,
        latency_basis: basis(&o.latency),
        io_wait_share: o.io_wait_share.as_ref().map(|x| x.0),
        io_wait_from: o.io_wait_share.as_ref().map(|x| x.1.clone()),
        speedup_bound: 1.0 / ((1.0 - p * f) + p * f / k),
    }
}

fn basis(l: &Latency) -> String {
    match l {
        Latency::Assumed { flash_ms } => format!(
            "flash assumed at {flash_ms} ms per I/O against each object's own latency now (give --flash RUN for a measured device)"
        ),
        Latency::Measured {
            flash,
            current: None,
        } => format!(
            "flash measured by {} at each object's I/O size and mix, against each object's own latency now",
            flash.name
        ),
        Latency::Measured {
            flash,
            current: Some(c),
        } => format!(
            "measured: flash {} against current {}, each at the object's I/O size and mix",
            flash.name, c.name
        ),
    }
}
