//! The live display's words: the last second of a run as the progress bar shows it.

use dbio_model::TimePoint;

/// The last second (`point`): IOPS by direction, MB/s and p99, and the time left in all
/// when `left_in_all` seconds remain of this run and the ones planned after it.
pub fn second(point: &TimePoint, left_in_all: Option<f64>) -> String {
    let in_all = left_in_all
        .map(|s| format!("; about {s:.0} s left in all"))
        .unwrap_or_default();
    format!(
        "read {:.0} IOPS, write {:.0} IOPS, {:.1} MB/s, p99 {:.0} µs{in_all}",
        point.read_iops, point.write_iops, point.mb_s, point.p99_us
    )
}
