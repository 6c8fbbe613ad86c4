//! Issues matched with their completions into requests, given in issue order: a completed
//! request waits only for those issued before it that are still in flight.

use crate::event::{BlockEvent, Op};
use crate::format::Record;
use foldhash::HashMap;
use std::collections::VecDeque;

/// A request in issue order: in flight, done, or given up.
#[derive(Debug, Clone, Copy)]
enum Slot {
    Flight {
        issue_ns: u64,
        device: u32,
        event: BlockEvent,
    },
    Done(Record),
    Gone,
}

/// Matches issue and completion events (by device and start sector; flushes, which have
/// none, in the order they were issued) and releases requests in issue order: a completed
/// request waits only for those issued before it that are still in flight.
#[derive(Default)]
pub struct Pairing {
    /// The request in flight at each (device, sector): its number.
    pending: HashMap<(u32, u64), u64>,
    /// Further requests in flight at the same place (flushes, rewrites), in issue order.
    more: HashMap<(u32, u64), VecDeque<u64>>,
    /// Requests from number `base` on, in issue order.
    slots: VecDeque<Slot>,
    base: u64,
    in_flight: u64,
    pub unmatched_completions: u64,
}

impl Pairing {
    /// Request `e` was issued at `ns` on device index `device`.
    pub fn issue(&mut self, ns: u64, device: u32, e: BlockEvent) {
        let seq = self.base + self.slots.len() as u64;
        self.slots.push_back(Slot::Flight {
            issue_ns: ns,
            device,
            event: e,
        });
        self.in_flight += 1;
        let key = (e.dev, e.sector);
        if let std::collections::hash_map::Entry::Vacant(e) = self.pending.entry(key) {
            e.insert(seq);
        } else {
            self.more.entry(key).or_default().push_back(seq);
        }
    }

    /// The request `e` completed at `ns`.
    pub fn complete(&mut self, ns: u64, e: BlockEvent) {
        let key = (e.dev, e.sector);
        let Some(seq) = self.take(key) else {
            self.unmatched_completions += 1;
            return;
        };
        let slot = &mut self.slots[(seq - self.base) as usize];
        let Slot::Flight {
            issue_ns,
            device,
            event,
        } = *slot
        else {
            return;
        };
        let r = event.rwbs;
        let flush = r.op == Op::Flush;
        *slot = Slot::Done(Record {
            issue_ns,
            device,
            op: r.op,
            preflush: r.preflush,
            fua: r.fua,
            sync: r.sync,
            sector: if flush { 0 } else { event.sector },
            sectors: if flush { 0 } else { event.sectors },
            latency_ns: ns.saturating_sub(issue_ns),
        });
        self.in_flight -= 1;
    }

    /// The number of the earliest request in flight at `key`, no longer pending.
    fn take(&mut self, key: (u32, u64)) -> Option<u64> {
        let seq = self.pending.remove(&key)?;
        if let Some(q) = self.more.get_mut(&key) {
            if let Some(next) = q.pop_front() {
                self.pending.insert(key, next);
            }
            if q.is_empty() {
                self.more.remove(&key);
            }
        }
        Some(seq)
    }

    /// Requests whose turn has come (every one issued before them has completed), in issue
    /// order; with `all`, every completed one (the end: what is in flight stays out).
    pub fn ready(&mut self, all: bool, mut each: impl FnMut(&Record)) {
        while let Some(front) = self.slots.front() {
            match front {
                Slot::Done(r) => each(r),
                Slot::Gone => {}
                Slot::Flight { .. } if all => {}
                Slot::Flight { .. } => break,
            }
            self.slots.pop_front();
            self.base += 1;
        }
    }

    /// Requests issued at or before `ns` and still in flight are given up (their completion
    /// was lost): they stop holding back the ones after them. Returns how many.
    pub fn give_up_before(&mut self, ns: u64) -> u64 {
        let mut gone = 0;
        for k in 0..self.slots.len() {
            let Slot::Flight {
                issue_ns, event, ..
            } = self.slots[k]
            else {
                continue;
            };
            if issue_ns > ns {
                break;
            }
            let seq = self.base + k as u64;
            let key = (event.dev, event.sector);
            if self.pending.get(&key) == Some(&seq) {
                self.take(key);
            } else if let Some(q) = self.more.get_mut(&key) {
                q.retain(|&s| s != seq);
            }
            self.slots[k] = Slot::Gone;
            self.in_flight -= 1;
            gone += 1;
        }
        gone
    }

    /// Requests in flight.
    pub fn in_flight(&self) -> u64 {
        self.in_flight
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
