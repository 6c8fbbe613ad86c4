//! Progress as lines on stderr, for a launching dbio to read (`--progress-lines`): a remote
//! host's seconds reach the one display that shows the whole fleet. [`Lines`] writes them,
//! [`parse`] reads them back.

use dbio_model::TimePoint;
use dbio_runner::Event;
use std::io::Write;
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Marks a line that starts measuring: `dbio-measuring PLANNED_SECS|-`.
pub const MEASURING: &str = "dbio-measuring";
/// Marks a line of one second: `dbio-tick ELAPSED READ_IOPS WRITE_IOPS MB_S P99_US`.
pub const TICK: &str = "dbio-tick";
/// Marks the line written once a second after the measured window while the host finishes
/// (its workers' end, its `--verify` pass, its result): `dbio-finishing`. A host may be quiet
/// otherwise for minutes then, and the launcher must tell that from a host gone silent.
pub const FINISHING: &str = "dbio-finishing";

/// A progress line read back.
pub enum Line {
    Measuring(Option<f64>),
    Tick(f64, TimePoint),
    Finishing,
}

/// The line that says measuring began.
pub fn measuring(planned: Option<f64>) -> String {
    match planned {
        Some(s) => format!("{MEASURING} {s}"),
        None => format!("{MEASURING} -"),
    }
}

/// The line of one second.
pub fn tick(elapsed: f64, p: &TimePoint) -> String {
    format!(
        "{TICK} {elapsed} {} {} {} {}",
        p.read_iops, p.write_iops, p.mb_s, p.p99_us
    )
}

/// True for a line of the progress protocol (a launching dbio's to read, not a person's).
pub fn is_progress(line: &str) -> bool {
    matches!(
        line.split_whitespace().next(),
        Some(MEASURING | TICK | FINISHING)
    )
}

/// Reads a progress line; None for any other line.
pub fn parse(line: &str) -> Option<Line> {
    let mut w = line.split_whitespace();
    match w.next()? {
        MEASURING => Some(Line::Measuring(w.next().and_then(|s| s.parse().ok()))),
        FINISHING => Some(Line::Finishing),
        TICK => {
            let n: Vec<f64> = w.filter_map(|s| s.parse().ok()).collect();
            let [elapsed, read_iops, write_iops, mb_s, p99_us] = n[..] else {
                return None;
            };
            Some(Line::Tick(
                elapsed,
                TimePoint {
                    t: elapsed,
                    read_iops,
                    write_iops,
                    mb_s,
                    p99_us,
                    hist: None,
                },
            ))
        }
        _ => None,
    }
}

/// The writer of a remote dbio's progress lines: each runner event as its line (a notice as
/// `dbio: …`), and after the window `dbio-finishing` once a second until it is dropped.
/// What cannot be written is dropped: the launcher that reads them is gone then.
pub struct Lines<W: Write + Send + 'static> {
    out: Arc<Mutex<W>>,
    /// The heartbeat's thread runs until this is dropped.
    heartbeat: Option<Sender<()>>,
    /// Time between two `dbio-finishing` lines.
    every: Duration,
}

impl<W: Write + Send + 'static> Lines<W> {
    /// Lines written to `out` (stderr for a launching dbio).
    pub fn new(out: W) -> Self {
        Lines {
            out: Arc::new(Mutex::new(out)),
            heartbeat: None,
            every: Duration::from_secs(1),
        }
    }

    /// Writes the line of one runner event; `Finishing` starts the heartbeat.
    pub fn on(&mut self, ev: Event) {
        match ev {
            Event::Measuring { planned_secs } => self.line(&measuring(planned_secs)),
            Event::Tick { point, elapsed } => self.line(&tick(elapsed, point)),
            Event::Notice(m) => self.line(&format!("dbio: {m}")),
            Event::Finishing => self.heartbeat = Some(self.heartbeat()),
            Event::Prefill { .. } => {}
        }
    }

    fn line(&self, line: &str) {
        write_line(&self.out, line);
    }

    /// Writes `dbio-finishing` now and then every `every` until the returned sender is
    /// dropped: after its window a host may be silent for minutes (its `--verify` pass reads
    /// the whole region back), and its launcher must hear it is still alive.
    fn heartbeat(&self) -> Sender<()> {
        let (tx, rx) = channel::<()>();
        self.line(FINISHING);
        let (out, every) = (self.out.clone(), self.every);
        std::thread::spawn(move || {
            while let Err(RecvTimeoutError::Timeout) = rx.recv_timeout(every) {
                write_line(&out, FINISHING);
            }
        });
        tx
    }
}

/// Writes `line` and its newline to `out` in one write of the lock's holder.
fn write_line<W: Write>(out: &Mutex<W>, line: &str) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(w, "{line}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip() {
        let p = TimePoint {
            t: 3.0,
            read_iops: 1234.5,
            write_iops: 6.0,
            mb_s: 7.25,
            p99_us: 880.0,
            hist: None,
        };
        match parse(&tick(3.0, &p)) {
            Some(Line::Tick(e, q)) => assert_eq!((e, q.read_iops, q.p99_us), (3.0, 1234.5, 880.0)),
            _ => panic!("a tick reads back"),
        }
        assert!(
            matches!(parse(&measuring(Some(32.0))), Some(Line::Measuring(Some(s))) if s == 32.0)
        );
        assert!(matches!(
            parse(&measuring(None)),
            Some(Line::Measuring(None))
        ));
        assert!(matches!(parse(FINISHING), Some(Line::Finishing)));
        assert!(is_progress(FINISHING));
        assert!(parse("warning: something").is_none());
        assert!(parse("dbio-tick 1 2").is_none());
    }

    /// A writer whose text the test reads while the reporter holds it.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().expect("not poisoned").write(b)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().expect("not poisoned").clone()).expect("text")
        }
    }

    #[test]
    fn events_become_the_lines_a_launcher_reads() {
        let out = Shared::default();
        let mut lines = Lines::new(out.clone());
        let p = TimePoint {
            t: 1.0,
            read_iops: 10.0,
            write_iops: 2.0,
            mb_s: 0.5,
            p99_us: 90.0,
            hist: None,
        };
        lines.on(Event::Prefill {
            target: "f",
            done: 1,
            total: 2,
        });
        lines.on(Event::Measuring {
            planned_secs: Some(5.0),
        });
        lines.on(Event::Tick {
            point: &p,
            elapsed: 1.0,
        });
        lines.on(Event::Notice("a notice".into()));
        assert_eq!(
            out.text(),
            "dbio-measuring 5\ndbio-tick 1 10 2 0.5 90\ndbio: a notice\n"
        );
    }

    #[test]
    fn finishing_beats_until_the_reporter_is_dropped() {
        let out = Shared::default();
        let mut lines = Lines::new(out.clone());
        lines.every = Duration::from_millis(10);
        lines.on(Event::Finishing);
        assert!(out.text().starts_with("dbio-finishing\n"), "at once");
        let t0 = std::time::Instant::now();
        while out.text().lines().count() < 3 {
            assert!(t0.elapsed() < Duration::from_secs(10), "beats go on");
            std::thread::sleep(Duration::from_millis(5));
        }
        drop(lines);
        std::thread::sleep(Duration::from_millis(50));
        let n = out.text().lines().count();
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(out.text().lines().count(), n, "no beat after the drop");
        assert!(out.text().lines().all(|l| l == FINISHING));
    }
}
