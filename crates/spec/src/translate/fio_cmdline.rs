//! fio's command line (its HOWTO, "Command line options"), read as fio's `parse_cmd_line`
//! reads it: `--option=value` (or `--option value`, `-option=value`), `--name=x` starts a
//! job, options before the first `--name` (or under `--name=global`) are global, and the
//! job files among the words are read after the command line's jobs. fio's own flags
//! `--output-format` and `--output` choose dbio's outputs.

use super::fio_ini::{Opt, Section};
use super::fio_names::{is_option, is_own_flag, takes_next_word};
use super::Translation;
use crate::error::SpecError;

/// fio's words read: the command line's sections (a `[global]` first if options came before
/// any `--name`), the job files named among them, and fio's own flags.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CmdLine {
    pub sections: Vec<Section>,
    pub files: Vec<String>,
    pub flags: Vec<Opt>,
}

/// One word of fio's: a job file, or an option with its value.
enum Word {
    File(String),
    Opt(Opt),
}

/// Where fio's words end in `raw` (what follows `dbio fio`) and dbio's own flags begin.
/// Words that start with a fio option are fio's command line, up to the first word that is
/// not fio's (`--duration`, `--dry-run`, `-q`); words that start with a job file are job
/// files and fio's own flags (`--output-format=json`), up to the first other flag. An
/// `--output-format` of dbio's (dbio, sqlio, diskspd) is dbio's.
pub fn end(raw: &[String]) -> usize {
    words(raw).1
}

/// Reads fio's words into sections, job files and fio's own flags. A flag that is not fio's
/// is an error (the caller gives only fio's words, see [`end`]).
pub fn read(raw: &[String]) -> Result<CmdLine, SpecError> {
    let (words, at) = words(raw);
    if let Some(w) = raw.get(at) {
        return Err(
            format!("'{w}' is not a fio option (see fio's HOWTO, or `fio --cmdhelp=all`)").into(),
        );
    }
    let mut line = CmdLine::default();
    for w in words {
        let o = match w {
            Word::File(p) => {
                line.files.push(p);
                continue;
            }
            Word::Opt(o) => o,
        };
        if is_own_flag(&o.key) {
            line.flags.push(o);
        } else if o.key == "name" {
            let name =
                o.value.clone().filter(|n| !n.is_empty()).ok_or_else(|| {
                    format!("{}: a job needs its name, e.g. --name=oltp", o.written)
                })?;
            let opts = if name == "global" { vec![] } else { vec![o] };
            line.sections.push(section(&name, opts));
        } else {
            match line.sections.last_mut() {
                Some(s) => s.opts.push(o),
                None => line.sections.push(section("global", vec![o])),
            }
        }
    }
    Ok(line)
}

fn section(name: &str, opts: Vec<Opt>) -> Section {
    Section {
        name: name.to_string(),
        opts,
        file_stonewall: false,
    }
}

/// fio's words at the start of `raw`, and where they end (see [`end`]).
fn words(raw: &[String]) -> (Vec<Word>, usize) {
    let command_line = raw.first().is_some_and(|w| option(w).is_some());
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(w) = raw.get(i) {
        i += 1;
        if !w.starts_with('-') || w == "-" {
            out.push(Word::File(w.clone()));
            continue;
        }
        let next = raw.get(i);
        let fio_word = |&(key, value): &(&str, Option<&str>)| {
            let dbio_format = key == "output-format"
                && matches!(
                    value.or(next.map(String::as_str)),
                    Some("dbio" | "sqlio" | "diskspd")
                );
            !dbio_format && (command_line || is_own_flag(key))
        };
        let Some((key, value)) = option(w).filter(fio_word) else {
            return (out, i - 1);
        };
        let (value, written) = match (value, next) {
            (None, Some(next)) if takes_next_word(key) => {
                i += 1;
                (Some(next.clone()), format!("{w} {next}"))
            }
            (v, _) => (v.map(str::to_string), w.clone()),
        };
        out.push(Word::Opt(Opt {
            key: key.to_string(),
            value,
            written,
        }));
    }
    (out, raw.len())
}

/// A fio option or flag as written (`--bs=8k`, `-bs=8k`, `--time_based`): its name and the
/// value after `=`; None when the name is not fio's.
fn option(w: &str) -> Option<(&str, Option<&str>)> {
    let body = w.strip_prefix("--").or_else(|| w.strip_prefix('-'))?;
    let (key, value) = match body.split_once('=') {
        Some((k, v)) => (k, Some(v)),
        None => (body, None),
    };
    (is_option(key) || is_own_flag(key)).then_some((key, value))
}

impl CmdLine {
    /// What fio's own flags become, noted in `t` once its jobs are translated: the outputs
    /// (`--output-format`, `--output`), `--readonly`, and the flags that only change what fio
    /// prints; the rest are refused by name.
    pub fn own_flags(&self, t: &mut Translation) {
        let find = |key: &str| self.flags.iter().rev().find(|o| o.key == key);
        for o in &self.flags {
            let w = o.written.as_str();
            match o.key.as_str() {
                "output-format" | "output" => {}
                "minimal" | "append-terse" | "terse-version" => t.refuse(w, TERSE),
                "eta" | "eta-newline" | "eta-interval" | "status-interval" | "debug" | "warnings-fatal" | "max-jobs" | "alloc-size" | "aux-path" => {
                    t.differs(w, "changes only what fio prints or how fio runs itself; dbio shows its own progress line (-q: none)")
                }
                "parse-only" | "showcmd" => t.refuse(w, "dbio's --dry-run prints the translation and runs nothing"),
                "readonly" => readonly(t, w),
                _ => t.refuse(w, "fio's own flag has no dbio counterpart; take it out"),
            }
        }
        output(find("output-format"), find("output"), t);
    }
}

const TERSE: &str = "fio's terse (semicolon-separated) output has no dbio counterpart; give --output-format=json (fio's JSON) or normal";

/// `--readonly`: fio refuses a job that writes.
fn readonly(t: &mut Translation, w: &str) {
    let writers: Vec<String> = t
        .jobs
        .iter()
        .filter(|j| {
            j.flags
                .rw
                .is_some_and(|rw| rw.contains("write") || rw == "randrw")
        })
        .map(|j| format!("[{}]", j.name))
        .collect();
    if writers.is_empty() {
        t.mapped(w, "no job writes");
    } else {
        let names = writers.join(" ");
        t.refuse(
            w,
            format!("fio refuses jobs that write under --readonly: {names}"),
        );
    }
}

/// `--output-format` and `--output` in dbio's outputs: fio's JSON is `--json-format fio`
/// written to FILE (or stdout); fio's normal text is dbio's own summary.
fn output(format: Option<&Opt>, file: Option<&Opt>, t: &mut Translation) {
    let path = file.map(|o| o.value.clone().unwrap_or_default());
    if let (Some(o), Some("")) = (file, path.as_deref()) {
        return t.refuse(
            &o.written,
            "give the file to write, e.g. --output=result.json",
        );
    }
    let name = format.map_or("normal", |o| o.value.as_deref().unwrap_or(""));
    let w = format.map_or("--output-format (fio's default: normal)", |o| &o.written);
    match name {
        "json" | "json+" => {
            let to = path.unwrap_or_else(|| "-".to_string());
            t.outputs = ["--json-format", "fio", "--json", &to].map(String::from).into();
            if name == "json" {
                t.differs(w, format!("--json-format fio --json {to}: dbio writes fio's json+, which is fio's json with the latency bins (clat_ns.bins) added"));
            } else {
                t.mapped(w, format!("--json-format fio --json {to}: fio's json+, its clat_ns.bins from dbio's histograms"));
            }
            if let Some(o) = file {
                t.mapped(&o.written, format!("--json {to}"));
            }
            if t.jobs.len() > 1 {
                t.mapped(w, format!("fio writes one JSON document for all its jobs: the {} runs' jobs[] entries are joined into one document, in order, each run's groupid its place", t.jobs.len()));
            }
        }
        "normal" => match file {
            Some(o) => t.refuse(&o.written, "fio writes its normal text to FILE; dbio's own summary stands for it and goes to the terminal: redirect it (dbio fio … > FILE), or give --output-format=json to have FILE written as fio's JSON"),
            None if format.is_some() => t.differs(w, "dbio prints its own summary in place of fio's normal text: IOPS, MB/s and latency percentiles per direction"),
            None => {}
        },
        "terse" | "minimal" | "csv" => t.refuse(w, TERSE),
        v if v.contains(',') => t.refuse(w, "several formats at once are not a dbio output; give one of normal, json or json+"),
        v => t.refuse(w, format!("'{v}' is not one of fio's output formats (normal, json, json+, terse)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn fio_words_end_at_the_first_word_that_is_not_fio_s() {
        let raw = args("--name=j --bs 8k --time_based job.fio --duration 5s --dry-run");
        assert_eq!(end(&raw), 5);
        let raw = args("j.fio k.fio --bs 4k");
        assert_eq!(
            end(&raw),
            2,
            "job files first: dbio's flags start at the first flag"
        );
        let raw = args("-name=j -bs=16k -thread -q");
        assert_eq!(end(&raw), 3);
        let raw = args("j.fio --output-format=json --output f.json --size 1g");
        assert_eq!(end(&raw), 4, "fio's own flags after a job file are fio's");
        let raw = args("--name=j --output-format sqlio");
        assert_eq!(end(&raw), 1, "an output format of dbio's is dbio's");
    }

    #[test]
    fn globals_jobs_files_and_flags() {
        let raw = args("--bs=4k --output-format=json --name=a --time_based 1 --bs 8k --name=global --rw=read --name=b");
        let line = read(&raw).unwrap();
        let names: Vec<&str> = line.sections.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["global", "a", "global", "b"]);
        // --time_based takes no value from the next word: fio reads `1` as a job file.
        assert_eq!(line.files, ["1"]);
        let a: Vec<(&str, Option<&str>)> = line.sections[1]
            .opts
            .iter()
            .map(|o| (o.key.as_str(), o.value.as_deref()))
            .collect();
        assert_eq!(
            a,
            [
                ("name", Some("a")),
                ("time_based", None),
                ("bs", Some("8k"))
            ]
        );
        assert_eq!(line.sections[1].opts[2].written, "--bs 8k");
        assert_eq!(line.flags[0].value.as_deref(), Some("json"));
        assert!(read(&args("--name= --bs=4k")).is_err());
        assert!(read(&args("--name=a --duration 5s")).is_err());
    }
}
