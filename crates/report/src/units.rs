//! Numbers as the reports show them.

/// Nanoseconds as microseconds with three significant figures (at least).
pub(crate) fn us(ns: u64) -> String {
    let v = ns as f64 / 1000.0;
    if v >= 1000.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}
