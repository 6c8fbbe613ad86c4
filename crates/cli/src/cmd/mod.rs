//! One module per dbio command.

pub mod advise;
pub mod capture;
pub mod clock;
pub mod collect;
pub mod compare;
pub mod db;
pub mod fleet;
pub mod history;
pub mod merge;
pub mod path;
pub mod profiles;
pub mod reduce;
pub mod report;
pub mod run;
pub mod shell;
pub mod suite;
pub mod sweep;
pub mod translate;
pub mod verify;
