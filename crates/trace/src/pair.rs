//! Issues matched with their completions into requests, given in issue order: a completed
//! request waits only for those issued before it that are still in flight.

use crate::event::{BlockEvent, Op};
use crate::format::Record;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

/// A request issued and not yet completed.
#[derive(Debug, Clone, Copy)]
struct Pending {
    issue_ns: u64,
    seq: u64,
    device: u32,
    event: BlockEvent,
}

/// Matches issue and completion events (by device and start sector; flushes, which have
/// none, in the order they were issued) and releases requests in issue order.
#[derive(Default)]
pub struct Pairing {
    pending: HashMap<(u32, u64), VecDeque<Pending>>,
    /// Issue times of the requests in flight: none issued after the earliest may leave.
    in_flight: BTreeSet<(u64, u64)>,
    done: BTreeMap<(u64, u64), Record>,
    seq: u64,
    pub unmatched_completions: u64,
}

impl Pairing {
    /// Request `e` was issued at `ns` on device index `device`.
    pub fn issue(&mut self, ns: u64, device: u32, e: BlockEvent) {
        self.seq += 1;
        let p = Pending {
            issue_ns: ns,
            seq: self.seq,
            device,
            event: e,
        };
        self.pending
            .entry((e.dev, e.sector))
            .or_default()
            .push_back(p);
        self.in_flight.insert((ns, self.seq));
    }

    /// The request `e` completed at `ns`.
    pub fn complete(&mut self, ns: u64, e: BlockEvent) {
        let key = (e.dev, e.sector);
        let Some(queue) = self.pending.get_mut(&key) else {
            self.unmatched_completions += 1;
            return;
        };
        let p = queue.pop_front().expect("queues are removed when empty");
        if queue.is_empty() {
            self.pending.remove(&key);
        }
        self.in_flight.remove(&(p.issue_ns, p.seq));
        let r = p.event.rwbs;
        let record = Record {
            issue_ns: p.issue_ns,
            device: p.device,
            op: r.op,
            preflush: r.preflush,
            fua: r.fua,
            sync: r.sync,
            sector: if r.op == Op::Flush { 0 } else { p.event.sector },
            sectors: if r.op == Op::Flush {
                0
            } else {
                p.event.sectors
            },
            latency_ns: ns.saturating_sub(p.issue_ns),
        };
        self.done.insert((p.issue_ns, p.seq), record);
    }

    /// Requests whose turn has come (every one issued before them has completed), in issue
    /// order; with `all`, every completed one (the end: what is in flight stays out).
    pub fn ready(&mut self, all: bool, mut each: impl FnMut(&Record)) {
        let bar = match self.in_flight.first() {
            Some(&first) if !all => first,
            _ => (u64::MAX, u64::MAX),
        };
        while let Some(entry) = self.done.first_entry() {
            if *entry.key() >= bar {
                break;
            }
            each(&entry.remove());
        }
    }

    /// Requests issued at or before `ns` and still in flight are given up (their completion
    /// was lost): they stop holding back the ones after them. Returns how many.
    pub fn give_up_before(&mut self, ns: u64) -> u64 {
        let old: Vec<(u64, u64)> = self.in_flight.range(..(ns, u64::MAX)).copied().collect();
        if old.is_empty() {
            return 0;
        }
        self.in_flight.retain(|k| k.0 > ns);
        self.pending.retain(|_, q| {
            q.retain(|p| p.issue_ns > ns);
            !q.is_empty()
        });
        old.len() as u64
    }

    /// Requests in flight.
    pub fn in_flight(&self) -> u64 {
        self.in_flight.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Rwbs;

    fn ev(sector: u64, op: Op) -> BlockEvent {
        BlockEvent {
            dev: 7 << 20,
            sector,
            sectors: 8,
            rwbs: Rwbs {
                op,
                preflush: false,
                fua: false,
                sync: false,
            },
        }
    }

    #[test]
    fn requests_leave_in_issue_order_once_all_before_them_completed() {
        let mut p = Pairing::default();
        p.issue(100, 0, ev(10, Op::Read));
        p.issue(110, 0, ev(20, Op::Write));
        p.issue(120, 0, ev(0, Op::Flush));
        p.issue(130, 0, ev(0, Op::Flush));
        p.complete(150, ev(20, Op::Write));
        p.complete(160, ev(0, Op::Flush));
        let mut out = Vec::new();
        p.ready(false, |r| out.push(r.issue_ns));
        assert!(out.is_empty(), "the read issued first is in flight");
        p.complete(170, ev(10, Op::Read));
        p.ready(false, |r| out.push(r.issue_ns));
        assert_eq!(out, [100, 110, 120], "the flush at 130 is in flight");
        p.complete(999, ev(55, Op::Read));
        assert_eq!(p.unmatched_completions, 1);
        assert_eq!(p.in_flight(), 1);
    }

    #[test]
    fn latency_is_issue_to_completion_and_flushes_match_in_order() {
        let mut p = Pairing::default();
        p.issue(100, 0, ev(0, Op::Flush));
        p.issue(105, 0, ev(0, Op::Flush));
        p.complete(300, ev(0, Op::Flush));
        p.complete(400, ev(0, Op::Flush));
        let mut lat = Vec::new();
        p.ready(false, |r| lat.push(r.latency_ns));
        assert_eq!(lat, [200, 295]);
    }

    #[test]
    fn a_request_given_up_no_longer_holds_the_others_back() {
        let mut p = Pairing::default();
        p.issue(100, 0, ev(10, Op::Read));
        p.issue(200, 0, ev(20, Op::Read));
        p.complete(250, ev(20, Op::Read));
        assert_eq!(p.give_up_before(150), 1);
        let mut out = Vec::new();
        p.ready(false, |r| out.push(r.issue_ns));
        assert_eq!(out, [200]);
        p.complete(300, ev(10, Op::Read));
        assert_eq!(p.unmatched_completions, 1, "its completion came after all");
    }
}
