//! Progress as lines on stderr, for a launching dbio to read (`--progress-lines`): a remote
//! host's seconds reach the one display that shows the whole fleet.

use dbio_model::TimePoint;

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
}
