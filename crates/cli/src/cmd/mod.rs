//! One module per dbio command.

pub mod profiles;
pub mod reduce;
pub mod run;
pub mod sweep;
