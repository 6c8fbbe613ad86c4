//! Group commit: sessions append redo and wait until the log writer has made it durable;
//! the log writer writes everything appended since its last write in one write.

use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// Positions in the redo stream, in bytes.
#[derive(Debug, Default)]
struct Positions {
    appended: u64,
    durable: u64,
    /// No more writes will happen (the run ended or the log writer failed).
    closed: bool,
}

/// The shared redo stream.
#[derive(Debug, Default)]
pub struct Redo {
    pos: Mutex<Positions>,
    /// Wakes the log writer when redo is appended.
    appended: Condvar,
    /// Wakes committing sessions when redo became durable.
    durable: Condvar,
}

impl Redo {
    /// Appends `bytes` of redo and waits until they are durable; returns the commit's end
    /// position in the redo stream. None when the log was closed first: no commit.
    pub fn commit(&self, bytes: u64) -> Option<u64> {
        let mut p = self.pos.lock().expect("redo lock");
        p.appended += bytes;
        let lsn = p.appended;
        self.appended.notify_one();
        while p.durable < lsn {
            if p.closed {
                return None;
            }
            p = self.durable.wait(p).expect("redo lock");
        }
        Some(lsn)
    }

    /// The log writer: the next range to write, at most `max` bytes from `from`, once there is
    /// one; None when nothing arrived within `idle` or the log is closed.
    pub fn next_write(&self, from: u64, max: u64, idle: Duration) -> Option<(u64, u64)> {
        let mut p = self.pos.lock().expect("redo lock");
        if p.appended <= from && !p.closed {
            p = self.appended.wait_timeout(p, idle).expect("redo lock").0;
        }
        (p.appended > from).then(|| (from, (p.appended - from).min(max)))
    }

    /// The log writer made everything up to `upto` durable.
    pub fn durable(&self, upto: u64) {
        let mut p = self.pos.lock().expect("redo lock");
        p.durable = p.durable.max(upto);
        self.durable.notify_all();
    }

    /// No more log writes: wakes every waiting commit (which then fails) and the writer.
    pub fn close(&self) {
        let mut p = self.pos.lock().expect("redo lock");
        p.closed = true;
        self.durable.notify_all();
        self.appended.notify_all();
    }

    /// True once closed.
    pub fn is_closed(&self) -> bool {
        self.pos.lock().expect("redo lock").closed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::Instant;

    /// Sessions commit while a slow writer writes: every commit returns only after the write
    /// that covered its redo completed, and writes group several commits.
    #[test]
    fn commits_never_complete_before_their_log_write() {
        let redo = Arc::new(Redo::default());
        let writes: Arc<Mutex<Vec<(u64, Instant)>>> = Arc::default();
        let writer = {
            let (redo, writes) = (redo.clone(), writes.clone());
            std::thread::spawn(move || {
                let mut written = 0;
                while !redo.is_closed() {
                    if let Some((from, len)) =
                        redo.next_write(written, 1 << 20, Duration::from_millis(10))
                    {
                        std::thread::sleep(Duration::from_millis(3)); // the "device"
                        written = from + len;
                        writes.lock().unwrap().push((written, Instant::now()));
                        redo.durable(written);
                    }
                }
            })
        };
        let sessions: Vec<_> = (0..8)
            .map(|_| {
                let redo = redo.clone();
                std::thread::spawn(move || {
                    let mut acks = Vec::new();
                    for _ in 0..20 {
                        let lsn = redo.commit(512).expect("the log is open");
                        acks.push((lsn, Instant::now()));
                    }
                    acks
                })
            })
            .collect();
        let acks: Vec<(u64, Instant)> = sessions
            .into_iter()
            .flat_map(|s| s.join().unwrap())
            .collect();
        redo.close();
        writer.join().unwrap();
        let writes = writes.lock().unwrap();
        assert_eq!(writes.last().unwrap().0, 8 * 20 * 512, "every byte written");
        assert!(
            writes.len() < 8 * 20,
            "group commit: {} writes for 160 commits",
            writes.len()
        );
        for (lsn, acked) in acks {
            // The first write that reached the commit's redo completed before the commit did.
            let &(_, done) = writes
                .iter()
                .find(|w| w.0 >= lsn)
                .expect("a write covers it");
            assert!(
                done <= acked,
                "commit at {lsn} acknowledged before its log write"
            );
        }
    }

    #[test]
    fn closing_fails_waiting_commits() {
        let redo = Arc::new(Redo::default());
        let r = redo.clone();
        let t = std::thread::spawn(move || r.commit(100));
        std::thread::sleep(Duration::from_millis(20));
        redo.close();
        assert_eq!(t.join().unwrap(), None);
    }
}
