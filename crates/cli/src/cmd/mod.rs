//! One module per dbio command.

pub mod compare;
pub mod history;
pub mod path;
pub mod profiles;
pub mod reduce;
pub mod run;
pub mod suite;
pub mod sweep;
