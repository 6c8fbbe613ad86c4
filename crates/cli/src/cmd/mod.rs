//! One module per dbio command.

pub mod history;
pub mod profiles;
pub mod report;
pub mod run;
pub mod sweep;
