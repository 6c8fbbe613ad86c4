//! How `dbio replay` replays its trace, as the command line gave it (plain data without the
//! `clap` feature, as [`crate::RawJob`]).

/// How `dbio replay` replays its trace (the run's own flags follow them).
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct ReplayArgs {
    /// The trace (`dbio capture --out`).
    #[cfg_attr(feature = "clap", arg(value_name = "TRACE"))]
    pub trace: String,
    /// Where a captured device's requests go, DEVICE=TARGET (repeat for each device).
    #[cfg_attr(feature = "clap", arg(long, value_name = "DEVICE=TARGET"))]
    pub map: Vec<String>,
    /// Times divided by this: 2x replays twice the captured load, 0.5x half (also
    /// --rate-scale).
    #[cfg_attr(
        feature = "clap",
        arg(long, visible_alias = "rate-scale", value_name = "FACTOR")
    )]
    pub speed: Option<String>,
    /// Ignore the times: keep the captured mean queue depth (or --qd) in flight.
    #[cfg_attr(feature = "clap", arg(long))]
    pub as_fast_as_possible: bool,
}
