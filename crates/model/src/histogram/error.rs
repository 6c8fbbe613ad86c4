//! Why a histogram's text could not be read back.

/// Why a histogram's interval-log text could not be read; the sum it was being added to is
/// then unspecified until cleared.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HistogramError {
    /// The text is not base64.
    #[error("not base64: {0}")]
    NotBase64(String),
    /// The bytes are not an HdrHistogram; says what is wrong with them.
    #[error("not an HdrHistogram: {0}")]
    NotHdr(String),
    /// A compressed histogram shorter than its header says.
    #[error("a truncated HdrHistogram")]
    Truncated,
    /// A value or count beyond what dbio's histograms hold; says which.
    #[error("out of range: {0}")]
    OutOfRange(String),
}

impl From<base64::DecodeError> for HistogramError {
    fn from(e: base64::DecodeError) -> Self {
        HistogramError::NotBase64(e.to_string())
    }
}

impl From<base64_simd::Error> for HistogramError {
    fn from(e: base64_simd::Error) -> Self {
        HistogramError::NotBase64(e.to_string())
    }
}
