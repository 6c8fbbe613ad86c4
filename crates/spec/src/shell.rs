//! What a shell knows of dbio's words: completion scripts (bash, zsh, fish, PowerShell,
//! elvish) and man pages, both made from the command line's own clap definitions (given as a
//! `clap::Command`), so they say what the flags are in the build that prints them.

use std::path::{Path, PathBuf};

/// Flags of `dbio completions`.
#[derive(Debug, Clone, clap::Args)]
pub struct CompletionsArgs {
    /// The shell the script is for.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

/// Flags of `dbio man`.
#[derive(Debug, Clone, clap::Args)]
pub struct ManArgs {
    /// Write dbio.1 and a page per command (dbio-run.1, dbio-db-run.1, …) into DIR, made if
    /// missing, instead of printing dbio.1.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// The completion script of `shell` for `cmd`, under its name (`dbio`); commands hidden
/// from its help are not offered either.
pub fn completions(shell: clap_complete::Shell, cmd: clap::Command) -> String {
    let mut script = Vec::new();
    let name = cmd.get_name().to_string();
    clap_complete::generate(shell, &mut without_hidden(&cmd), name, &mut script);
    String::from_utf8_lossy(&script).into_owned()
}

/// `cmd` without its commands hidden from its help (a launching dbio's `clock`), which
/// clap_complete's scripts would otherwise offer: its name, version, flags and the rest.
fn without_hidden(cmd: &clap::Command) -> clap::Command {
    let bare = clap::Command::new(cmd.get_name().to_string())
        .propagate_version(cmd.is_propagate_version_set())
        .args(cmd.get_arguments().cloned())
        .subcommands(cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned());
    match cmd.get_version() {
        Some(v) => bare.version(v.to_string()),
        None => bare,
    }
}

/// The man page (roff) of `cmd` itself, its commands listed.
pub fn man_page(cmd: clap::Command) -> String {
    let mut page = Vec::new();
    // Rendering into memory cannot fail.
    let _ = clap_mangen::Man::new(cmd.disable_help_subcommand(true)).render(&mut page);
    String::from_utf8_lossy(&page).into_owned()
}

/// Writes the man page of `cmd` and of every command under it that is not hidden, at any
/// depth, into `dir` (made if missing), each named as `man` looks for it (`dbio.1`,
/// `dbio-run.1`, `dbio-db-run.1`). The error names the folder.
pub fn write_man_pages(cmd: clap::Command, dir: &Path) -> Result<(), String> {
    let cannot = |e: std::io::Error| format!("cannot write man pages into {}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(cannot)?;
    clap_mangen::generate_to(cmd, dir).map_err(cannot)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Arg, Command};

    fn cli() -> Command {
        Command::new("tool")
            .about("a tool")
            .subcommand(
                Command::new("run")
                    .about("runs it")
                    .arg(Arg::new("rw").long("rw").value_parser(["read", "randread"]))
                    .subcommand(Command::new("deep").about("deeper")),
            )
            .subcommand(Command::new("secret").hide(true))
    }

    #[test]
    fn a_page_per_command_not_hidden_named_as_man_finds_it() {
        let dir = std::env::temp_dir().join(format!("dbio-man-test-{}", std::process::id()));
        write_man_pages(cli(), &dir).unwrap();
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["tool-run-deep.1", "tool-run.1", "tool.1"]);
        let run = std::fs::read_to_string(dir.join("tool-run.1")).unwrap();
        assert!(run.contains(".TH tool-run 1"), "{run}");
        assert!(run.contains("randread"), "{run}");
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(man_page(cli()).contains(".TH tool 1"));
    }

    #[test]
    fn completions_offer_what_help_lists() {
        let bash = completions(clap_complete::Shell::Bash, cli());
        assert!(bash.contains("complete -F _tool"), "{bash}");
        assert!(bash.contains("randread") && bash.contains("deep"), "{bash}");
        assert!(!bash.contains("secret"), "{bash}");
    }

    #[test]
    fn a_folder_that_cannot_be_made_is_named() {
        let e = write_man_pages(cli(), Path::new("/proc/dbio-no-such/man")).unwrap_err();
        assert!(
            e.starts_with("cannot write man pages into /proc/dbio-no-such/man: "),
            "{e}"
        );
    }
}
