//! The scorecard of `dbio suite` as text.

use dbio_model::suite::{Score, SuiteResult};
use std::fmt::Write;

/// "N of M checks pass".
pub fn passed(s: &SuiteResult) -> String {
    format!(
        "{} of {} checks pass",
        s.scorecard.iter().filter(|c| c.pass == Some(true)).count(),
        s.scorecard.len()
    )
}

/// A check's measured figure and its threshold as text, e.g. "100 µs" and "≤ 150 µs".
pub fn cells(c: &Score) -> (String, String) {
    (
        c.value.map_or("-".into(), |v| format!("{v:.0} {}", c.unit)),
        format!(
            "{} {:.0} {}",
            if c.at_most { "≤" } else { "≥" },
            c.limit,
            c.unit
        ),
    )
}

/// The scorecard table: each check, its figure, the threshold and the verdict.
pub fn scorecard(s: &SuiteResult) -> String {
    let mut out = String::from("\n== scorecard\n");
    let _ = writeln!(
        out,
        "{:<28} {:>12} {:>14}  {:<7} where",
        "check", "measured", "threshold", "verdict"
    );
    for c in &s.scorecard {
        let (value, limit) = cells(c);
        let verdict = match c.pass {
            Some(true) => "PASS",
            Some(false) => "FAIL",
            None => "-",
        };
        let _ = writeln!(
            out,
            "{:<28} {value:>12} {limit:>14}  {verdict:<7} {}",
            c.check, c.detail
        );
    }
    let _ = writeln!(
        out,
        "{}{}",
        passed(s),
        if s.partial {
            "; PARTIAL: the suite stopped before its end"
        } else {
            ""
        }
    );
    out
}

/// The heading of part `i` (from 0, of `parts`) measuring `name`, with the measuring left.
pub fn part_heading(i: usize, parts: usize, name: &str, left_secs: f64) -> String {
    format!(
        "\n== part {}/{parts}: {name} (about {left_secs:.0} s of measuring left in the suite)\n",
        i + 1
    )
}
