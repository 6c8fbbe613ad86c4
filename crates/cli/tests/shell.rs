//! `dbio completions SHELL` and `dbio man`: bash, loaded with dbio's script, completes
//! commands and `--rw`'s values as `dbio run --help` lists them; every shell gets a script;
//! man gets a page per command.

#![forbid(unsafe_code)]

mod common;
use common::*;
use std::path::Path;

/// What bash's completion offers for the words `words` (the last the one being typed), with
/// dbio's script loaded from `script`: `_dbio` called as bash calls it (the command, the
/// word, the word before).
fn bash_completes(bash: &Path, script: &Path, words: &[&str]) -> Vec<String> {
    let n = words.len();
    let line = format!(
        "source '{}'; COMP_WORDS=({}); COMP_CWORD={}; COMP_LINE='{}'; COMP_POINT=${{#COMP_LINE}}; \
         _dbio dbio '{}' '{}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        words.join(" "),
        n - 1,
        words.join(" "),
        words[n - 1],
        words[n - 2],
    );
    let out = std::process::Command::new(bash)
        .args(["--norc", "--noprofile", "-c", &line])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut v: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    v.sort();
    v
}

#[test]
fn bash_completes_commands_and_the_values_of_rw() {
    let Some(bash) = require_tool("bash_completes_commands_and_the_values_of_rw", "bash") else {
        return;
    };
    let dir = scratch();
    let (code, script, err) = dbio(&["completions", "bash"]);
    assert_eq!(code, Some(0), "{err}");
    let path = dir.path().join("dbio.bash");
    std::fs::write(&path, script).unwrap();
    assert_eq!(bash_completes(&bash, &path, &["dbio", "ru"]), ["run"]);
    // Not the hidden `clock` a launching dbio uses.
    assert_eq!(
        bash_completes(&bash, &path, &["dbio", "c"]),
        ["capture", "collect", "compare", "completions"]
    );
    // dbio's commands starting with "s", from its README and `dbio --help`.
    assert_eq!(
        bash_completes(&bash, &path, &["dbio", "s"]),
        ["show", "sqlio", "suite", "sweep"]
    );
    // --rw's patterns starting with r (README: read, write, randread, randwrite, randrw,
    // readwrite).
    assert_eq!(
        bash_completes(&bash, &path, &["dbio", "run", "--rw", "r"]),
        ["randread", "randrw", "randwrite", "read", "readwrite"]
    );
    assert_eq!(
        bash_completes(&bash, &path, &["dbio", "run", "--rw", "randw"]),
        ["randwrite"]
    );
}

#[test]
fn every_shell_gets_its_script_and_an_unknown_one_is_named() {
    for (shell, marker) in [
        ("bash", "complete -F _dbio"),
        ("zsh", "#compdef dbio"),
        ("fish", "complete -c dbio"),
        (
            "powershell",
            "Register-ArgumentCompleter -Native -CommandName 'dbio'",
        ),
        ("elvish", "edit:completion:arg-completer[dbio]"),
    ] {
        let (code, out, err) = dbio(&["completions", shell]);
        assert_eq!(code, Some(0), "{shell}: {err}");
        assert!(out.contains(marker), "{shell}: {out}");
        // The hidden command a launching dbio uses is not offered.
        assert!(!out.contains("clock"), "{shell}");
    }
    let (code, out, err) = dbio(&["completions", "tcsh"]);
    assert_eq!(code, Some(2));
    assert!(out.is_empty());
    assert!(
        err.contains("invalid value 'tcsh'")
            && err.contains("[possible values: bash, elvish, fish, powershell, zsh]"),
        "{err}"
    );
}

#[test]
fn man_prints_dbio_s_page_or_writes_one_per_command() {
    let (code, page, err) = dbio(&["man"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(page.contains(".TH dbio 1"), "{page}");
    let dir = scratch();
    let man = dir.path().join("share/man/man1");
    let (code, out, err) = dbio(&["man", "--out", man.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (Some(0), ""), "{err}");
    let mut pages: Vec<String> = std::fs::read_dir(&man)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    pages.sort();
    for want in [
        "dbio.1",
        "dbio-run.1",
        "dbio-sweep.1",
        "dbio-sweep-db.1",
        "dbio-db-run.1",
        "dbio-sqlio.1",
        "dbio-completions.1",
        "dbio-man.1",
    ] {
        assert!(pages.iter().any(|p| p == want), "{want}: {pages:?}");
    }
    assert!(!pages.iter().any(|p| p.contains("clock")), "{pages:?}");
    let run = std::fs::read_to_string(man.join("dbio-run.1")).unwrap();
    assert!(run.contains(".TH dbio-run 1"), "{run}");
    for pattern in ["read", "write", "randread", "randwrite", "randrw"] {
        assert!(run.contains(&format!("{pattern}\n")), "{pattern}: {run}");
    }
    // A folder that cannot be made: the error names it, status 1.
    let (code, _, err) = dbio(&["man", "--out", "/proc/dbio-none/man1"]);
    assert_eq!(code, Some(1));
    assert!(
        err.starts_with("dbio man: cannot write man pages into /proc/dbio-none/man1: "),
        "{err}"
    );
}
