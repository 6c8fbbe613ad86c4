//! The redesign's guard (issue 24): a fixed set of commands on the simulated device gives, for
//! the same seeds, the same JSON byte for byte as the golden files in `tests/sim_golden/`,
//! with only what differs from run to run masked (time stamps, the host's facts, process CPU).
//! Run with `DBIO_BLESS=1` to write the golden files anew after a change meant to alter them.

#![forbid(unsafe_code)]

mod common;
use common::*;
use std::path::Path;

/// Keys whose values change from run to run or machine to machine; replaced by `"*"`.
const MASKED: &[&str] = &[
    "started_at",
    "started_unix_ns",
    "finished_at",
    "host",
    "hostname",
    "dbio_version",
    "cpu",
    "history_id",
    "stored_as",
];

/// The commands (split at spaces), each with its golden file's name; all on `--engine sim`
/// with a seed.
const CASES: &[(&str, &str)] = &[
    ("run-oltp", "run oltp --engine sim --ops 20000 --seed 7"),
    (
        "run-randread",
        "run --rw randread --bs 4k --qd 4 --engine sim --sim channels=1,service=100us,bw=none \
         --ops 5000 --seed 1",
    ),
    (
        "run-log-array",
        "run log --engine sim --sim fc-array-4x16g --duration 3s --seed 5",
    ),
    (
        "run-poisson",
        "run oltp --engine sim --rate 5000 --arrivals poisson --duration 2s --seed 9",
    ),
    (
        "run-burst",
        "run oltp --engine sim --burst 200ms/1s --duration 3s --seed 2",
    ),
    (
        "sweep-qd-slo",
        "sweep oltp-read --engine sim --vary qd=1,2,4 --ops 5000 --seed 3 --slo p99<150us",
    ),
    ("suite-quick", "suite --quick --engine sim"),
];

/// The JSON text with the value of every `MASKED` key replaced by `"*"`, the rest untouched.
fn masked(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'"' {
            let end = string_end(b, i);
            let key = &text[i + 1..end - 1];
            out.push_str(&text[i..end]);
            i = end;
            let mut j = i;
            while j < b.len() && b[j].is_ascii_whitespace() {
                j += 1;
            }
            if j < b.len() && b[j] == b':' && MASKED.contains(&key) {
                out.push_str(&text[i..=j]);
                let mut v = j + 1;
                while v < b.len() && b[v].is_ascii_whitespace() {
                    out.push(b[v] as char);
                    v += 1;
                }
                out.push_str("\"*\"");
                i = value_end(b, v);
            }
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// The index just past the JSON string that opens at `i`.
fn string_end(b: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    while b[j] != b'"' {
        j += if b[j] == b'\\' { 2 } else { 1 };
    }
    j + 1
}

/// The index just past the JSON value that starts at `i`.
fn value_end(b: &[u8], i: usize) -> usize {
    match b[i] {
        b'"' => string_end(b, i),
        b'{' | b'[' => {
            let mut depth = 0;
            let mut j = i;
            loop {
                match b[j] {
                    b'"' => {
                        j = string_end(b, j);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return j + 1;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
        }
        _ => {
            let mut j = i;
            while j < b.len() && !matches!(b[j], b',' | b'}' | b']' | b'\n') {
                j += 1;
            }
            j
        }
    }
}

fn golden_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sim_golden"))
}

#[test]
fn the_simulated_json_of_fixed_commands_is_byte_identical_to_the_golden_files() {
    let bless = std::env::var_os("DBIO_BLESS").is_some();
    let dir = scratch();
    let mut differ = Vec::new();
    for (name, args) in CASES {
        let json = dir.path().join(format!("{name}.json"));
        let mut all: Vec<&str> = args.split_whitespace().collect();
        all.extend(["--json", json.to_str().unwrap(), "-q", "--no-store"]);
        let (code, out, err) = dbio_in(dir.path(), &all);
        assert_eq!(code, Some(0), "{name}: dbio {all:?}\n{out}{err}");
        let got = masked(&std::fs::read_to_string(&json).unwrap());
        let golden = golden_dir().join(format!("{name}.json"));
        if bless {
            std::fs::write(&golden, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&golden)
            .unwrap_or_else(|e| panic!("{}: {e} (DBIO_BLESS=1 writes it)", golden.display()));
        if got != want {
            let at = first_difference(got.as_bytes(), want.as_bytes()).unwrap_or(0);
            let from = at.saturating_sub(120);
            differ.push(format!(
                "{name}: differs at byte {at}\n  got:  …{}…\n  want: …{}…",
                &got[from..(at + 120).min(got.len())],
                &want[from..(at + 120).min(want.len())]
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn the_mask_hides_only_the_named_keys() {
    let text = r#"{"started_at":"2026-01-01T00:00:00Z","host":{"cpus":2,"kernel":"6"},"read":{"ios":5,"s":"a\"b"},"cpu":[1,{"x":2}],"n":3}"#;
    assert_eq!(
        masked(text),
        r#"{"started_at":"*","host":"*","read":{"ios":5,"s":"a\"b"},"cpu":"*","n":3}"#
    );
}
