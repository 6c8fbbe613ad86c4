//! The scorecard of `dbio suite` as text.

use dbio_model::suite::SuiteResult;
use std::fmt::Write;

/// The scorecard table: each check, its figure, the threshold and the verdict.
pub fn scorecard(s: &SuiteResult) -> String {
    let mut out = String::from("\n== scorecard\n");
    let _ = writeln!(
        out,
        "{:<28} {:>12} {:>14}  {:<7} where",
        "check", "measured", "threshold", "verdict"
    );
    for c in &s.scorecard {
        let value = c.value.map_or("-".into(), |v| format!("{v:.0} {}", c.unit));
        let limit = format!(
            "{} {:.0} {}",
            if c.at_most { "≤" } else { "≥" },
            c.limit,
            c.unit
        );
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
        "{} of {} checks pass{}",
        s.scorecard.iter().filter(|c| c.pass == Some(true)).count(),
        s.scorecard.len(),
        if s.partial {
            "; PARTIAL: the suite stopped before its end"
        } else {
            ""
        }
    );
    out
}
