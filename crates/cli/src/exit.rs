//! Exit statuses, decided in one place.

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
    pub fn with(self, msg: impl AsRef<str>) -> Exit {
        eprintln!("{}", msg.as_ref());
        self
    }

    /// Bad input: prints `msg` and returns [`Exit::Usage`].
    pub fn usage(msg: impl AsRef<str>) -> Exit {
        Exit::Usage.with(msg)
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

/// Words that make no job: the message, and exit status 2 (nothing ran).
impl From<dbio_spec::SpecError> for Exit {
    fn from(e: dbio_spec::SpecError) -> Exit {
        Exit::usage(e)
    }
}
