//! Exit statuses, decided in one place.

use dbio_model::{Outcome, RunResult};
use dbio_runner::RunError;
use std::process::ExitCode;

/// How dbio ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// 0: done.
    Ok,
    /// 1: the work failed (an I/O error, a result that could not be written).
    Failure,
    /// 2: bad input or a target that cannot be used; nothing ran.
    Usage,
    /// 3: write verification found bad blocks (`--verify`, `dbio verify`).
    Corrupt,
    /// 130: interrupted by Ctrl-C or SIGTERM.
    Interrupted,
}

impl Exit {
    /// Prints `msg` to stderr and returns self.
    pub fn with(self, msg: impl std::fmt::Display) -> Exit {
        eprintln!("{msg}");
        self
    }

    /// Bad input: prints `msg` and returns [`Exit::Usage`].
    pub fn usage(msg: impl std::fmt::Display) -> Exit {
        Exit::Usage.with(msg)
    }
}

/// Where a run that gave no result ran, which decides its status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ran {
    /// On this host: the job did not fit its targets (2).
    Here,
    /// On a fleet of hosts (1).
    Fleet,
    /// Against a database (1).
    Db,
}

impl Exit {
    /// The status of a delivered run: 3 when `--verify` found bad blocks, else what its
    /// outcome calls for (1 for a partial or failed run, 130 for an interrupted one); what
    /// went wrong is said after `cmd: `.
    pub fn of_run(r: &RunResult, cmd: &str) -> Exit {
        if let Some(v) = r.verify.as_ref().filter(|v| v.corrupt()) {
            if let Outcome::IoError(e) = &r.outcome {
                eprintln!("{cmd}: {e}");
            }
            return Exit::Corrupt.with(format!(
                "{cmd}: verify found {} bad blocks (exit status 3)",
                v.corrupt.total()
            ));
        }
        match &r.outcome {
            Outcome::Complete if r.partial => Exit::Failure,
            Outcome::Complete => Exit::Ok,
            Outcome::Interrupted => Exit::Interrupted,
            Outcome::IoError(e) => Exit::Failure.with(format!("{cmd}: {e}")),
        }
    }

    /// The status of a database run's result: its outcome alone.
    pub fn of_db_run(r: &RunResult, cmd: &str) -> Exit {
        match &r.outcome {
            Outcome::Complete => Exit::Ok,
            Outcome::Interrupted => Exit::Interrupted,
            Outcome::IoError(m) => Exit::Failure.with(format!("{cmd}: {m}")),
        }
    }

    /// The status of a sweep or a suite that ended: 130 when interrupted, 1 when it ended
    /// before its last step, else 0.
    pub fn ended(partial: bool, interrupted: bool) -> Exit {
        match (partial, interrupted) {
            (_, true) => Exit::Interrupted,
            (true, false) => Exit::Failure,
            (false, false) => Exit::Ok,
        }
    }

    /// The status of a run that gave no result, saying why after `cmd: `: 130 when it was
    /// interrupted before measuring began on this host or a database, else by where it ran
    /// (a fleet says each host's reason in its message).
    pub fn no_result(e: &RunError, ran: Ran, cmd: &str) -> Exit {
        match (e, ran) {
            (RunError::Interrupted, Ran::Db) => {
                Exit::Interrupted.with(format!("{cmd}: interrupted before measuring began"))
            }
            (RunError::Interrupted, Ran::Here) => Exit::Interrupted.with(format!("{cmd}: {e}")),
            (_, Ran::Here) => Exit::usage(format!("{cmd}: {e}")),
            (_, Ran::Fleet | Ran::Db) => Exit::Failure.with(format!("{cmd}: {e}")),
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(match e {
            // Done, but what it printed was lost: not a success for a script.
            Exit::Ok if crate::output::stdout_failed() => 1,
            Exit::Ok => 0,
            Exit::Failure => 1,
            Exit::Usage => 2,
            Exit::Corrupt => 3,
            Exit::Interrupted => 130,
        })
    }
}

/// The status a library's error calls for, decided here for every command that meets it.
pub trait Status: std::fmt::Display {
    /// 2 when what was given is unusable (nothing ran), 1 when the work failed on the way.
    fn status(&self) -> Exit;
}

impl Exit {
    /// Says `cmd: e` and returns the status `e` calls for.
    pub fn of_error(cmd: &str, e: &impl Status) -> Exit {
        e.status().with(format!("{cmd}: {e}"))
    }
}

/// `dbio advise`: a source or file unusable as given (2), or one that failed while read (1).
impl Status for dbio_db::gather::GatherError {
    fn status(&self) -> Exit {
        match self {
            dbio_db::gather::GatherError::Input(_) => Exit::Usage,
            dbio_db::gather::GatherError::Failed(_) => Exit::Failure,
        }
    }
}

/// `dbio reduce`: paths that gave nothing to read (2), or reading that failed (1).
impl Status for dbio_reduce::ReduceError {
    fn status(&self) -> Exit {
        match self {
            dbio_reduce::ReduceError::NothingToRead(_) => Exit::Usage,
            dbio_reduce::ReduceError::Io(_) => Exit::Failure,
        }
    }
}

/// Words that make no job: the message, and exit status 2 (nothing ran).
impl From<dbio_spec::SpecError> for Exit {
    fn from(e: dbio_spec::SpecError) -> Exit {
        Exit::usage(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sweep_or_a_suite_ends_by_whether_it_was_stopped() {
        assert_eq!(Exit::ended(false, false), Exit::Ok);
        assert_eq!(Exit::ended(true, false), Exit::Failure);
        assert_eq!(Exit::ended(true, true), Exit::Interrupted);
        assert_eq!(Exit::ended(false, true), Exit::Interrupted);
    }

    #[test]
    fn a_library_error_ends_with_the_status_it_calls_for() {
        use dbio_db::gather::GatherError;
        use dbio_reduce::ReduceError;
        assert_eq!(GatherError::Input("x".into()).status(), Exit::Usage);
        assert_eq!(GatherError::Failed("x".into()).status(), Exit::Failure);
        assert_eq!(ReduceError::NothingToRead("x".into()).status(), Exit::Usage);
        let io = std::io::Error::other("x");
        assert_eq!(ReduceError::Io(io).status(), Exit::Failure);
    }

    #[test]
    fn a_run_without_a_result_ends_by_where_it_ran() {
        let bad = RunError::Target("no".into());
        assert_eq!(Exit::no_result(&bad, Ran::Here, "t"), Exit::Usage);
        assert_eq!(Exit::no_result(&bad, Ran::Fleet, "t"), Exit::Failure);
        assert_eq!(Exit::no_result(&bad, Ran::Db, "t"), Exit::Failure);
        let stopped = RunError::Interrupted;
        assert_eq!(Exit::no_result(&stopped, Ran::Here, "t"), Exit::Interrupted);
        assert_eq!(Exit::no_result(&stopped, Ran::Db, "t"), Exit::Interrupted);
        assert_eq!(Exit::no_result(&stopped, Ran::Fleet, "t"), Exit::Failure);
    }
}
