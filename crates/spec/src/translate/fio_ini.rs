//! fio's job file format as its HOWTO describes it: `[section]`s of `key=value` lines,
//! `;` and `#` comments (also after a value), `include FILE` (relative to the including
//! file), `${VAR}` from the environment and the reserved `$ncpus`, `$pagesize` and
//! `$mb_memory`, and fio's arithmetic (`8*$mb_memory`, `(2*4096)`).

use crate::error::SpecError;

/// One option line: its key, its value (None for a flag like `time_based`), as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opt {
    pub key: String,
    pub value: Option<String>,
    pub written: String,
}

/// One `[section]` with its options in order; `stonewall` is set for the first job of every
/// job file after the first (fio separates job files by a stonewall).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    pub name: String,
    pub opts: Vec<Opt>,
    pub file_stonewall: bool,
}

/// What a job file may ask of the world: files (for `include`), the environment, and the
/// size of a target (a job with neither runtime nor size goes once over the whole of it).
pub struct World<'a> {
    pub read: &'a dyn Fn(&str) -> std::io::Result<String>,
    pub env: &'a dyn Fn(&str) -> Option<String>,
    /// The size of an existing file or block device in bytes, or why there is none.
    pub size: &'a dyn Fn(&str) -> Result<u64, String>,
}

/// Reads job files in order into their sections.
pub fn parse_files(paths: &[String], w: &World) -> Result<Vec<Section>, SpecError> {
    let mut out = Vec::new();
    for (i, p) in paths.iter().enumerate() {
        let text = (w.read)(p).map_err(|e| format!("{p}: {e}"))?;
        let mut sections = parse(&text, p, w)?;
        if i > 0 {
            if let Some(s) = sections.iter_mut().find(|s| s.name != "global") {
                s.file_stonewall = true;
            }
        }
        out.append(&mut sections);
    }
    Ok(out)
}

/// Reads one job file's text (`path` names it in messages and anchors includes).
pub fn parse(text: &str, path: &str, w: &World) -> Result<Vec<Section>, SpecError> {
    let mut sections: Vec<Section> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let at = || format!("{path} line {}", n + 1);
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        if let Some(name) = line.strip_prefix('[') {
            let name = name
                .strip_suffix(']')
                .ok_or_else(|| format!("{}: '{line}' has no closing ']'", at()))?;
            sections.push(Section {
                name: name.trim().to_string(),
                opts: Vec::new(),
                file_stonewall: false,
            });
            continue;
        }
        let section = sections
            .last_mut()
            .ok_or_else(|| format!("{}: option '{line}' comes before any [section]", at()))?;
        if let Some(file) = line.strip_prefix("include ") {
            let opts = include(file.trim(), path, w, 1).map_err(|e| format!("{}: {e}", at()))?;
            section.opts.extend(opts);
            continue;
        }
        section
            .opts
            .push(option(line, w).map_err(|e| format!("{}: {e}", at()))?);
    }
    Ok(sections)
}

/// The options of an included file (no sections allowed, as in fio), relative to `from`.
fn include(file: &str, from: &str, w: &World, depth: u32) -> Result<Vec<Opt>, SpecError> {
    if depth > 16 {
        return Err(format!("include {file}: includes nest over 16 deep (a loop?)").into());
    }
    let path = match (w.read)(file) {
        Ok(_) => file.to_string(),
        Err(_) => match from.rfind('/') {
            Some(i) => format!("{}{file}", &from[..=i]),
            None => file.to_string(),
        },
    };
    let text = (w.read)(&path).map_err(|e| format!("include {file}: {e}"))?;
    let mut opts = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with('[') {
            return Err(format!(
                "{path} line {}: no sections in an included file (as in fio)",
                n + 1
            )
            .into());
        }
        if let Some(inner) = line.strip_prefix("include ") {
            opts.extend(include(inner.trim(), &path, w, depth + 1)?);
            continue;
        }
        opts.push(option(line, w).map_err(|e| format!("{path} line {}: {e}", n + 1))?);
    }
    Ok(opts)
}

/// A line without its comment (from the first `;` or `#`).
fn strip_comment(line: &str) -> &str {
    match line.find([';', '#']) {
        Some(i) => &line[..i],
        None => line,
    }
}

fn option(line: &str, w: &World) -> Result<Opt, SpecError> {
    let (key, value) = match line.split_once('=') {
        // fio fills in filename_format's own keywords ($jobname, $jobnum, $filenum) per file.
        Some((k, v)) if k.trim().eq_ignore_ascii_case("filename_format") => {
            (k.trim(), Some(v.trim().to_string()))
        }
        Some((k, v)) => (k.trim(), Some(expand(v.trim(), w)?)),
        None => (line, None),
    };
    Ok(Opt {
        key: key.to_ascii_lowercase(),
        value,
        written: line.to_string(),
    })
}

/// Expands `${VAR}` and the reserved keywords, then works out fio's arithmetic where fio
/// does (a value in parentheses, or one that held a keyword: [`super::arith`]), and a
/// product `A*B` of whole numbers elsewhere.
pub fn expand(v: &str, w: &World) -> Result<String, SpecError> {
    let mut out = String::new();
    let mut rest = v;
    let mut keyword = false;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        rest = &rest[i + 1..];
        if let Some(body) = rest.strip_prefix('{') {
            let end = body
                .find('}')
                .ok_or_else(|| format!("'{v}': '${{' without '}}'"))?;
            let name = &body[..end];
            let value = (w.env)(name).ok_or_else(|| {
                format!("'{v}': the environment variable {name} is not set (fio would put an empty value); set it, e.g. {name}=64m dbio fio …")
            })?;
            out.push_str(&value);
            rest = &body[end + 1..];
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        out.push_str(&reserved(&name).ok_or_else(|| {
            format!(
                "'{v}': ${name} is not a fio keyword ($ncpus, $pagesize, $mb_memory) nor ${{VAR}}"
            )
        })?);
        rest = &rest[name.len()..];
        keyword = true;
    }
    out.push_str(rest);
    let worked = if keyword || out.trim_start().starts_with('(') {
        super::arith::evaluate(&out)
    } else {
        product(&out)
    };
    Ok(worked.unwrap_or(out))
}

/// The values of fio's reserved keywords on this machine.
fn reserved(name: &str) -> Option<String> {
    match name {
        "ncpus" => Some(
            std::thread::available_parallelism()
                .map_or(1, |n| n.get())
                .to_string(),
        ),
        "pagesize" => Some("4096".to_string()),
        "mb_memory" => {
            let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
            let kb: u64 = meminfo
                .lines()
                .find_map(|l| l.strip_prefix("MemTotal:"))?
                .split_whitespace()
                .next()?
                .parse()
                .ok()?;
            Some((kb / 1024).to_string())
        }
        _ => None,
    }
}

/// `A*B` (whole numbers, the last may carry a unit suffix) multiplied out.
fn product(v: &str) -> Option<String> {
    let (a, b) = v.split_once('*')?;
    let a: u64 = a.trim().parse().ok()?;
    let b = b.trim();
    let digits = b.find(|c: char| !c.is_ascii_digit()).unwrap_or(b.len());
    let n: u64 = b[..digits].parse().ok()?;
    Some(format!("{}{}", a.checked_mul(n)?, &b[digits..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn world<'a>(
        files: &'a dyn Fn(&str) -> std::io::Result<String>,
        env: &'a dyn Fn(&str) -> Option<String>,
    ) -> World<'a> {
        World {
            read: files,
            env,
            size: &|p| Err(format!("{p}: no such file")),
        }
    }

    #[test]
    fn sections_options_comments_and_flags() {
        let files = |_: &str| Err(std::io::Error::other("none"));
        let env = |_: &str| None;
        let text =
            "; a comment\n[global]\nbs=4k   ; trailing\n# another\ntime_based\n[job1]\nrw=read\n";
        let s = parse(text, "x.fio", &world(&files, &env)).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].opts[0].value.as_deref(), Some("4k"));
        assert_eq!(
            s[0].opts[1],
            Opt {
                key: "time_based".into(),
                value: None,
                written: "time_based".into()
            }
        );
        assert_eq!(s[1].name, "job1");
    }

    #[test]
    fn environment_and_includes() {
        let files = |p: &str| match p {
            "dir/common.fio" => Ok("size=${SIZE}\n".to_string()),
            _ => Err(std::io::Error::other("no such file")),
        };
        let env = |k: &str| (k == "SIZE").then(|| "64m".to_string());
        let s = parse(
            "[j]\ninclude common.fio\nnumjobs=2*4\n",
            "dir/job.fio",
            &world(&files, &env),
        )
        .unwrap();
        assert_eq!(s[0].opts[0].value.as_deref(), Some("64m"));
        assert_eq!(s[0].opts[1].value.as_deref(), Some("8"));
        let e = parse("[j]\nsize=${NOPE}\n", "j.fio", &world(&files, &env))
            .unwrap_err()
            .to_string();
        assert!(e.contains("NOPE is not set"), "{e}");
        let e = parse("bs=4k\n", "j.fio", &world(&files, &env))
            .unwrap_err()
            .to_string();
        assert!(e.contains("before any [section]"), "{e}");
    }
}
