//! A run's per-second latency histograms as an HdrHistogram interval log (`.hlog`): the file
//! HdrHistogram's log tools (HistogramLogAnalyzer, HistogramLogProcessor, the `hdrhistogram`
//! crate's `IntervalLogIterator`) read. The histograms are the result's own, as stored.

use crate::error::ReportError;
use dbio_model::histogram::{decode_compact, encode_compact, new_histogram};
use dbio_model::RunResult;
use std::fmt::Write;

/// The interval log of `r`: one line per second of the measured window (latencies of reads
/// and writes completed in it, ns), timestamps in seconds from the start of measuring. None
/// when no second carries a histogram (results of an older dbio, database runs); Err when a
/// second's histogram cannot be read back from the run's spill file.
pub fn interval_log(r: &RunResult) -> Result<Option<String>, ReportError> {
    if r.timeseries.iter().all(|p| p.hist.is_none()) {
        return Ok(None);
    }
    let start = r.started_unix_ns as f64 / 1e9;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "#dbio {}: latency of the reads and writes completed in each second of the run started {}, in ns",
        r.dbio_version, r.started_at
    );
    let _ = writeln!(
        s,
        "#[StartTime: {start:.3} (seconds since epoch), {}]",
        r.started_at
    );
    let _ = writeln!(s, "#[BaseTime: {start:.3} (seconds since epoch)]");
    s.push_str("\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n");
    let empty = encode_compact(&new_histogram());
    let mut from = 0.0;
    for p in &r.timeseries {
        let text = p
            .hist
            .as_ref()
            .map(|h| h.text())
            .transpose()
            .map_err(ReportError::Spill)?;
        let (text, max_ms) = match text.as_deref() {
            Some(h) => (h, decode_compact(h).map_or(0.0, |h| h.max() as f64 / 1e6)),
            None => (empty.as_str(), 0.0),
        };
        let _ = writeln!(s, "{from:.3},{:.3},{max_ms:.3},{text}", p.t - from);
        from = p.t;
    }
    Ok(Some(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::STANDARD;
    use base64::Engine;
    use hdrhistogram::serialization::interval_log::{IntervalLogIterator, LogEntry};
    use hdrhistogram::serialization::Deserializer;
    use hdrhistogram::Histogram;

    /// The crate's own log reader and decoder (not dbio's) read back every second exactly.
    #[test]
    fn the_hdrhistogram_crate_reads_every_second_back() {
        let mut r: RunResult =
            serde_json::from_str(include_str!("../tests/fixtures/run.json")).unwrap();
        let seconds: Vec<Histogram<u64>> = (0..3u64)
            .map(|k| {
                let mut h = new_histogram();
                for v in 0..1000 * (k + 1) {
                    h.record(20_000 + v * 37 * (k + 1)).unwrap();
                }
                h
            })
            .collect();
        r.started_unix_ns = 1_796_119_200_000_000_000;
        r.timeseries.truncate(1);
        let proto = r.timeseries[0].clone();
        r.timeseries = seconds
            .iter()
            .enumerate()
            .map(|(k, h)| dbio_model::TimePoint {
                t: k as f64 + 1.0,
                hist: Some(encode_compact(h).into()),
                ..proto.clone()
            })
            .collect();
        let log = interval_log(&r).unwrap().unwrap();
        let mut got = Vec::new();
        let mut start_time = None;
        for e in IntervalLogIterator::new(log.as_bytes()) {
            match e.unwrap() {
                LogEntry::StartTime(t) => start_time = Some(t),
                LogEntry::BaseTime(_) => {}
                LogEntry::Interval(iv) => {
                    let bytes = STANDARD.decode(iv.encoded_histogram()).unwrap();
                    let h: Histogram<u64> = Deserializer::new()
                        .deserialize(&mut bytes.as_slice())
                        .unwrap();
                    assert!((iv.max() - h.max() as f64 / 1e6).abs() < 0.001);
                    got.push((iv.start_timestamp().as_secs_f64(), iv.duration(), h));
                }
            }
        }
        assert_eq!(start_time.unwrap().as_secs(), 1_796_119_200);
        assert_eq!(got.len(), 3);
        for (k, (at, len, h)) in got.into_iter().enumerate() {
            assert_eq!(at, k as f64);
            assert_eq!(len.as_secs_f64(), 1.0);
            assert_eq!(h, seconds[k]);
        }
        r.timeseries.iter_mut().for_each(|p| p.hist = None);
        assert!(interval_log(&r).unwrap().is_none());
    }
}
