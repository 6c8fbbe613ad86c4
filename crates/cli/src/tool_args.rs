//! Flags of `dbio sqlio`, `dbio diskspd` and `dbio fio`: the other tool's arguments as
//! typed (`cmd/translate.rs` reads them), and each front end's help.

use clap::Args;

/// The arguments of `dbio sqlio`, `dbio diskspd` and `dbio fio`, as typed.
#[derive(Debug, Args)]
pub struct ToolArgs {
    /// The tool's own arguments (or fio job files), then dbio's flags.
    #[arg(value_name = "ARGS", allow_hyphen_values = true, trailing_var_arg = true, num_args = 0..)]
    pub args: Vec<String>,
}

pub const SQLIO_HELP: &str = include_str!("../help/sqlio.txt");

pub const DISKSPD_HELP: &str = include_str!("../help/diskspd.txt");

pub const FIO_HELP: &str = include_str!("../help/fio.txt");
