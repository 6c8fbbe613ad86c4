//! One module per dbio command.

pub mod run;
