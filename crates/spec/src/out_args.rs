//! The flags many commands share: where a result is written (`--json`, `--quiet`), where it is kept (`--label`, `--db`, `--no-store`), and which history a
//! reading command looks in (`--db`). A command whose wording differs sets its own help
//! text with `mut_arg`; names and behaviour are these.

use clap::Args;

/// Where a result is written: `--json`, and `--quiet` for the terminal. (`--html` stays
/// with each command: what its page holds differs from one to the next.)
#[derive(Debug, Clone, Default, Args)]
pub struct Outputs {
    /// Write the result as JSON to FILE, or to stdout with '-' (then the summary goes to stderr).
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
    /// No progress display and no summary (errors and warnings still go to stderr).
    #[arg(long, short)]
    pub quiet: bool,
}

/// Where a result is kept: the history flags of `run`, `sweep`, `suite` and `reduce`.
#[derive(Debug, Clone, Args)]
pub struct StoreArgs {
    /// Name this result in the history (`dbio show LABEL` finds the newest with it).
    #[arg(long, value_name = "TEXT")]
    pub label: Option<String>,
    /// The history: a file, or a team store postgres://… (default: DBIO_DB, else
    /// $XDG_DATA_HOME/dbio/history.db, else
    /// ~/.local/share/dbio/history.db).
    #[arg(long, value_name = "PATH", conflicts_with = "no_store")]
    pub db: Option<String>,
    /// Do not store this result in the history.
    #[arg(long)]
    pub no_store: bool,
}

/// The history a command reads stored results from: `--db`.
#[derive(Debug, Clone, Args)]
pub struct HistoryDb {
    /// The history: a file, or a team store postgres://… (default: DBIO_DB, else
    /// $XDG_DATA_HOME/dbio/history.db).
    #[arg(long, value_name = "PATH")]
    pub db: Option<String>,
}
