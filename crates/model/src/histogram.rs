//! Latency histograms as they travel in results: HDR buckets that merge exactly across
//! workers, runs and hosts, and the percentile summary computed from them.

mod codec;
mod error;
pub(crate) mod latency;
pub(crate) mod second;
mod sum;
#[cfg(test)]
pub(crate) use codec::test_latencies;
pub use codec::{
    decode_compact, encode_compact, histogram_of, new_histogram, Encoder, HIGHEST_NS,
    SECOND_SIGFIG, SIGFIG,
};
pub use error::HistogramError;
pub use latency::{LatencyHistogram, LatencySummary};
pub use second::SecondHist;
pub use sum::{HistogramSum, Layout};
