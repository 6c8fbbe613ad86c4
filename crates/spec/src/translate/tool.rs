//! Which tool's words are read, and reading them: `dbio sqlio`, `dbio diskspd` and
//! `dbio fio` arguments (with the files they name) into one translation.

use super::fio_ini::World;
use super::{diskspd, fio_job, sqlio, Translation};
use crate::error::SpecError;

/// Which tool's words are being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// SQLIO's command line (`-F` reads a parameter file).
    Sqlio,
    /// DiskSpd's command line (`-X` reads an XML profile).
    Diskspd,
    /// fio's command line and job files.
    Fio,
}

impl Tool {
    /// The tool's name, as the dbio command that reads it.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Sqlio => "sqlio",
            Tool::Diskspd => "diskspd",
            Tool::Fio => "fio",
        }
    }
}

/// The tool's words as a translation, reading the files they name from the disk and fio's
/// `${VAR}` from the environment (an unreadable or malformed job file is an error).
pub fn translate(tool: Tool, args: &[String]) -> Result<Translation, SpecError> {
    let read = |path: &str| std::fs::read_to_string(path);
    let env = |k: &str| std::env::var(k).ok();
    translate_with(tool, args, &read, &env)
}

/// [`translate`] in a world of its own: `read` gives a named file's text, `env` a variable
/// of fio's `${VAR}` (a fio job's target size is read from the disk).
pub fn translate_with(
    tool: Tool,
    args: &[String],
    read: &dyn Fn(&str) -> std::io::Result<String>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Translation, SpecError> {
    match tool {
        Tool::Sqlio => Ok(sqlio::translate(args, read)),
        Tool::Diskspd => Ok(diskspd::translate(args, read)),
        Tool::Fio => {
            if args.is_empty() {
                return Err(SpecError::Translation(
                    "give fio's command line or job files, e.g. dbio fio --name=j --rw=randread --size=1g or dbio fio job.fio".into(),
                ));
            }
            let size = &super::target_size::target_size;
            let world = World { read, env, size };
            // What reading or translating fio's words says is about the tool's words.
            fio_job::translate(args, &world)
                .map_err(|e| SpecError::Translation(e.message().to_string()))
        }
    }
}
