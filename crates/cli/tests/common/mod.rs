//! Shared helpers of the `dbio run` end-to-end tests: running the binary and reading its
//! JSON result, scratch directories, loop devices over temp files (detached on drop),
//! /proc/diskstats snapshots, checks on the bytes of a target, and the one way a test that
//! cannot run its check says so ([`skip`]).

#![allow(dead_code)]

pub mod browser;
pub mod capture;

use serde_json::Value;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The start of the line a skipped test writes, found by `.ci/run` to count skips (the
/// engine's loop-device tests write the same). A skipped test passes for cargo, so this line
/// is the only record that it checked nothing.
pub const SKIP_MARK: &str = "dbio-test-skipped:";

/// True when the tests run in CI (`CI=true`), where every check must run.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Says that `test` cannot run its check because `missing` is not there: in CI (`CI=true`)
/// the test fails, naming what was missing; elsewhere one line `dbio-test-skipped: TEST:
/// MISSING` goes straight to stderr (past cargo's capture, so `.ci/run` counts it even for
/// a test that passes) and the caller returns.
#[track_caller]
pub fn skip(test: &str, missing: &str) {
    if in_ci() {
        panic!("{test}: cannot run its check under CI=true: {missing}");
    }
    use std::io::Write;
    // One write of the whole line, so parallel tests' output cannot split it.
    let line = format!("{SKIP_MARK} {test}: {missing}\n");
    let _ = std::io::stderr().write_all(line.as_bytes());
}

/// The path of `tool` on PATH, or a [`skip`] naming it (None).
#[track_caller]
pub fn require_tool(test: &str, tool: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join(tool))
            .find(|f| f.is_file())
    });
    if found.is_none() {
        skip(
            test,
            &format!("{tool} is not installed (.ci/run installs it)"),
        );
    }
    found
}

/// The dbio binary under test.
pub const DBIO: &str = env!("CARGO_BIN_EXE_dbio");

/// 4 KiB: the unit in which target contents are checked.
pub const BLOCK: usize = 4096;

/// The dbio binary, its history kept in the build's test folder (never the user's home).
pub fn dbio_command() -> Command {
    let mut c = Command::new(DBIO);
    c.env("XDG_DATA_HOME", env!("CARGO_TARGET_TMPDIR"));
    c
}

/// `dbio ARGS --db DB --json -`'s output as JSON, or dbio's message when it fails
/// (for `dbio collect --report NAME`: a collection with no sample yet).
pub fn dbio_json(db: &Path, args: &[&str]) -> Result<Value, String> {
    let out = dbio_command()
        .args(args)
        .args(["--json", "-", "--db"])
        .arg(db)
        .output()
        .unwrap();
    match out.status.success() {
        true => Ok(serde_json::from_slice(&out.stdout).unwrap()),
        false => Err(String::from_utf8_lossy(&out.stderr).into_owned()),
    }
}

/// Runs dbio with `args` (any command) in `dir`: exit status, stdout and stderr.
pub fn dbio_in(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = dbio_command().current_dir(dir).args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs dbio with `args` (any command) in the test's working directory: exit status, stdout
/// and stderr.
pub fn dbio(args: &[&str]) -> (Option<i32>, String, String) {
    let out = dbio_command().args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Whether this process runs as root (whom no file mode stops).
pub fn running_as_root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"))
}

/// A scratch directory under the system's temp dir that any user may enter and write (mode
/// 777): for files that [`dbio_unprivileged`] reads or writes.
pub fn shared_scratch(prefix: &str) -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::Builder::new().prefix(prefix).tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    dir
}

/// `dbio ARGS`, as the unprivileged user `nobody` (uid and gid 65534, no groups, via
/// util-linux's setpriv) when this process is root, else as this process's user; its
/// history in `data_home`, which that user must be able to write.
pub fn dbio_unprivileged(data_home: &Path, args: &[&str]) -> std::process::Output {
    let mut c = if running_as_root() {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(DBIO);
        c
    } else {
        Command::new(DBIO)
    };
    c.args(args)
        .env("XDG_DATA_HOME", data_home)
        .output()
        .expect("run dbio")
}

/// `dbio db setup --url URL --sessions SESSIONS --size SIZE -q`: exit status, stdout and
/// stderr.
pub fn db_setup(url: &str, sessions: &str, size: &str) -> (Option<i32>, String, String) {
    dbio(&[
        "db",
        "setup",
        "--url",
        url,
        "--sessions",
        sessions,
        "--size",
        size,
        "-q",
    ])
}

/// `dbio db drop --url URL` with HOME at `home`, the variables `unset` removed and then `env`
/// set: exit status and stdout followed by stderr (where a password could show).
pub fn db_drop_in_home(
    url: &str,
    home: &Path,
    unset: &[&str],
    env: &[(&str, &str)],
) -> (Option<i32>, String) {
    let mut c = dbio_command();
    c.args(["db", "drop", "--url", url]).env("HOME", home);
    for k in unset {
        c.env_remove(k);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().unwrap();
    let text = [out.stdout, out.stderr].concat();
    (
        out.status.code(),
        String::from_utf8_lossy(&text).into_owned(),
    )
}

/// The numbers of the 4 KiB blocks of `path` that are not all zeros, in order (a `Vec`, a
/// `BTreeSet`, …).
pub fn written_blocks<C: FromIterator<usize>>(path: &Path) -> C {
    let data = std::fs::read(path).unwrap();
    data.chunks(BLOCK)
        .enumerate()
        .filter(|(_, b)| b.iter().any(|x| *x != 0))
        .map(|(i, _)| i)
        .collect()
}

/// `dbio verify --journal J --json OUT`, then `extra`, run in `dir`: exit status, stdout and
/// stderr (the report is in `out`).
pub fn verify_journal(
    dir: &Path,
    j: &Path,
    out: &Path,
    extra: &[&str],
) -> (Option<i32>, String, String) {
    let mut args = vec![
        "verify",
        "--journal",
        j.to_str().unwrap(),
        "--json",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    dbio_in(dir, &args)
}

/// A scratch directory under the target dir (a real file system, so O_DIRECT works),
/// removed on drop.
pub fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("dbio-it-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .expect("create a scratch directory")
}

/// What one `dbio run` did.
pub struct Ran {
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: String,
    /// The JSON result, when dbio wrote one.
    pub json: Option<Value>,
    pub args: Vec<String>,
}

impl Ran {
    /// The JSON result of a run that must have succeeded (exit 0).
    pub fn ok(self) -> Value {
        assert_eq!(
            self.code,
            Some(0),
            "dbio run {:?} failed; stderr:\n{}",
            self.args,
            self.stderr
        );
        self.json.expect("exit 0 but no JSON result written")
    }
}

/// Runs `dbio run ARGS --json DIR/result-N.json -q` and reads the JSON result if written.
pub fn dbio_run(dir: &Path, args: &[&str]) -> Ran {
    static N: AtomicUsize = AtomicUsize::new(0);
    let json = dir.join(format!("result-{}.json", N.fetch_add(1, Ordering::Relaxed)));
    let mut all: Vec<String> = vec!["run".into()];
    all.extend(args.iter().map(|s| s.to_string()));
    all.extend(["--json".into(), json.display().to_string(), "-q".into()]);
    let out = dbio_command().args(&all).output().expect("run dbio");
    let json = std::fs::read(&json).ok().map(|b| {
        serde_json::from_slice(&b).unwrap_or_else(|e| panic!("result of {all:?} is not JSON: {e}"))
    });
    Ran {
        code: out.status.code(),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        json,
        args: all,
    }
}

/// `dbio run ARGS` that must succeed; returns its JSON result.
pub fn run_ok(dir: &Path, args: &[&str]) -> Value {
    dbio_run(dir, args).ok()
}

/// Has dbio create (and prefill) `dir/name` of `size` with a one-I/O read run.
pub fn dbio_file(dir: &Path, name: &str, size: &str) -> PathBuf {
    let path = dir.join(name);
    let p = path.to_str().unwrap();
    run_ok(
        dir,
        &[
            "--target", p, "--size", size, "--rw", "randread", "--ops", "1",
        ],
    );
    path
}

/// `read`, `write` or `flush` stats of a result, None when the direction is null.
pub fn dir_stats<'a>(r: &'a Value, dir: &str) -> Option<&'a Value> {
    let v = &r[dir];
    assert!(v.is_null() || v.is_object(), "{dir} is {v}");
    (!v.is_null()).then_some(v)
}

/// I/O count of a direction (0 when absent).
pub fn ios(r: &Value, dir: &str) -> u64 {
    dir_stats(r, dir).map_or(0, |d| d["ios"].as_u64().expect("ios is a count"))
}

/// Byte count of a direction (0 when absent).
pub fn bytes(r: &Value, dir: &str) -> u64 {
    dir_stats(r, dir).map_or(0, |d| d["bytes"].as_u64().expect("bytes is a count"))
}

/// A number anywhere in the result, by JSON pointer.
pub fn num(r: &Value, pointer: &str) -> f64 {
    r.pointer(pointer)
        .and_then(Value::as_f64)
        .unwrap_or_else(|| panic!("{pointer} is not a number in the result"))
}

/// Warning codes of a result.
pub fn warning_codes(r: &Value) -> Vec<String> {
    r["warnings"]
        .as_array()
        .expect("warnings is an array")
        .iter()
        .map(|w| w["code"].as_str().unwrap().to_string())
        .collect()
}

/// 4 KiB blocks dbio read from `path` before the run to sample its existing content (a run
/// that reads samples each target it did not prefill in this run; see `data.sampled`).
pub fn sampled_blocks(r: &Value, path: &str) -> u64 {
    r["data"]["sampled"].as_array().map_or(0, |a| {
        a.iter()
            .filter(|s| s["path"] == path)
            .map(|s| s["blocks"].as_u64().expect("blocks is a count"))
            .sum()
    })
}

/// Deterministic pseudo-random bytes (xorshift64*), for files whose contents a test knows.
pub fn pseudo_random(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        out.extend_from_slice(&x.wrapping_mul(0x2545_f491_4f6c_dd1d).to_le_bytes());
    }
    out.truncate(len);
    out
}

/// Offset of the first byte where `a` and `b` differ (or where the shorter one ends).
pub fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    a.iter().zip(b).position(|(x, y)| x != y).or_else(|| {
        if a.len() == b.len() {
            None
        } else {
            Some(a.len().min(b.len()))
        }
    })
}

/// What is wrong with the 4 KiB blocks of a target's contents.
#[derive(Debug, Default)]
pub struct BlockFaults {
    /// Indexes of blocks made of one repeated byte (all zeros included).
    pub repeated_byte: Vec<usize>,
    /// Indexes of blocks equal to an earlier block.
    pub duplicates: Vec<usize>,
}

/// Checks every 4 KiB block: none may be one repeated byte, no two may be equal.
pub fn block_faults(data: &[u8]) -> BlockFaults {
    assert_eq!(data.len() % BLOCK, 0, "contents are not whole 4 KiB blocks");
    let mut seen: HashSet<&[u8]> = HashSet::with_capacity(data.len() / BLOCK);
    let mut f = BlockFaults::default();
    for (i, b) in data.chunks_exact(BLOCK).enumerate() {
        if b.iter().all(|&x| x == b[0]) {
            f.repeated_byte.push(i);
        }
        if !seen.insert(b) {
            f.duplicates.push(i);
        }
    }
    f
}

/// A loop device (direct I/O on) over a temp file, detached on drop whatever the test did.
pub struct LoopDev {
    /// `/dev/loopN`.
    pub dev: String,
    /// `loopN`, its name in /proc/diskstats.
    pub name: String,
    /// The file under the device.
    pub backing: PathBuf,
    _dir: tempfile::TempDir,
}

impl LoopDev {
    /// Attaches a loop device over a new file holding `contents`; None (after a [`skip`]
    /// naming `test` and the loop device, which fails the test in CI) when none can be had.
    #[track_caller]
    pub fn attach(test: &str, contents: &[u8]) -> Option<LoopDev> {
        Self::attach_over(test, contents, scratch())
    }

    /// As [`LoopDev::attach`], over a file in /dev/shm: a device served by the CPU, whose
    /// speed the virtual disk's load does not set (for tests that time a load against it).
    #[track_caller]
    pub fn attach_in_memory(test: &str, contents: &[u8]) -> Option<LoopDev> {
        let dir = tempfile::Builder::new()
            .prefix("dbio-it-")
            .tempdir_in("/dev/shm");
        match dir {
            Ok(dir) => Self::attach_over(test, contents, dir),
            Err(e) => {
                skip(
                    test,
                    &format!("no folder in /dev/shm for a loop device: {e}"),
                );
                None
            }
        }
    }

    #[track_caller]
    fn attach_over(test: &str, contents: &[u8], dir: tempfile::TempDir) -> Option<LoopDev> {
        let backing = dir.path().join("disk.img");
        std::fs::write(&backing, contents).expect("write the loop device's backing file");
        let out = Command::new("losetup")
            .args(["--find", "--show", "--direct-io=on"])
            .arg(&backing)
            .output();
        let why = match out {
            Ok(o) if o.status.success() => {
                let dev = String::from_utf8_lossy(&o.stdout).trim().to_string();
                let name = dev.trim_start_matches("/dev/").to_string();
                return Some(LoopDev {
                    dev,
                    name,
                    backing,
                    _dir: dir,
                });
            }
            Ok(o) => String::from_utf8_lossy(&o.stderr).trim().to_string(),
            Err(e) => format!("cannot run losetup: {e}"),
        };
        skip(
            test,
            &format!(
                "no loop device could be attached over {} ({why}); needs root and losetup",
                backing.display()
            ),
        );
        None
    }
}

impl Drop for LoopDev {
    /// Detaches the device, checked: a device still busy (a file system on it not yet let
    /// go) is detached by the kernel once free (losetup -d sets autoclear), else it is named.
    fn drop(&mut self) {
        let detached = Command::new("losetup")
            .arg("-d")
            .arg(&self.dev)
            .status()
            .is_ok_and(|s| s.success());
        if !detached {
            eprintln!(
                "cannot detach loop device {} over {}",
                self.dev,
                self.backing.display()
            );
        }
    }
}

/// Counters of one block device from /proc/diskstats (sectors are 512 bytes).
#[derive(Debug, Clone, Copy, Default)]
pub struct DiskStats {
    pub reads: u64,
    pub reads_merged: u64,
    pub sectors_read: u64,
    pub writes: u64,
    pub writes_merged: u64,
    pub sectors_written: u64,
}

impl DiskStats {
    /// The current counters of device `name` (e.g. `loop3`).
    pub fn of(name: &str) -> DiskStats {
        let text = std::fs::read_to_string("/proc/diskstats").expect("read /proc/diskstats");
        for line in text.lines() {
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() >= 10 && f[2] == name {
                let n = |i: usize| f[3 + i].parse::<u64>().expect("a diskstats counter");
                return DiskStats {
                    reads: n(0),
                    reads_merged: n(1),
                    sectors_read: n(2),
                    writes: n(4),
                    writes_merged: n(5),
                    sectors_written: n(6),
                };
            }
        }
        panic!("{name} is not in /proc/diskstats");
    }

    /// Counters accumulated since `before`.
    pub fn since(self, before: DiskStats) -> DiskStats {
        DiskStats {
            reads: self.reads - before.reads,
            reads_merged: self.reads_merged - before.reads_merged,
            sectors_read: self.sectors_read - before.sectors_read,
            writes: self.writes - before.writes,
            writes_merged: self.writes_merged - before.writes_merged,
            sectors_written: self.sectors_written - before.sectors_written,
        }
    }
}

/// Asserts `got` is within `pct` percent of `want`.
#[track_caller]
pub fn assert_near(what: &str, got: f64, want: f64, pct: f64) {
    let err = (got - want).abs() / want.abs() * 100.0;
    assert!(
        err <= pct,
        "{what}: got {got}, expected {want} within {pct} % (off by {err:.2} %)"
    );
}

#[track_caller]
pub fn assert_one_line_error(ran: &Ran, needles: &[&str]) {
    let msg = ran.stderr.trim_end();
    assert_eq!(
        ran.code,
        Some(2),
        "{:?}: exit status; stderr: {msg}",
        ran.args
    );
    assert!(!msg.contains("panicked"), "{:?} panicked: {msg}", ran.args);
    assert_eq!(
        msg.lines().count(),
        1,
        "{:?}: not one line: {msg}",
        ran.args
    );
    for n in needles {
        assert!(
            msg.contains(n),
            "{:?}: message lacks {n:?}: {msg}",
            ran.args
        );
    }
    assert!(ran.json.is_none(), "{:?}: a result was written", ran.args);
}

/// The validator of a committed schema under `schema/`, e.g. `run-result.v1.json`.
pub fn schema(file: &str) -> jsonschema::Validator {
    let path = format!("{}/../../schema/{file}", env!("CARGO_MANIFEST_DIR"));
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).expect("the committed schema compiles")
}

/// Fails with every schema error of `r`.
#[track_caller]
pub fn assert_valid(v: &jsonschema::Validator, what: &str, r: &Value) {
    let errors: Vec<String> = v
        .iter_errors(r)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{what} breaks the schema: {errors:#?}");
}

/// A named pipe `name` in `dir` (mkfifo from coreutils), which nothing writes to.
pub fn make_fifo(dir: &Path, name: &str) -> std::path::PathBuf {
    let fifo = dir.join(name);
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", fifo.display());
    fifo
}

/// Waits (up to `bound`, a generous limit on an outcome, not a timing) until the contents
/// of `path` differ from what they are now: the sign that a run has begun writing to it.
#[track_caller]
pub fn wait_for_change(path: &Path, bound: std::time::Duration) {
    let before = std::fs::read(path).unwrap();
    let waited = std::time::Instant::now();
    while std::fs::read(path).unwrap() == before {
        assert!(
            waited.elapsed() < bound,
            "{} did not change in {bound:?}",
            path.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Sends SIGINT (Ctrl-C) to `child` with kill(1) (unsafe code stays in the engine crate).
#[track_caller]
pub fn interrupt(child: &std::process::Child) {
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill(1)");
    assert!(killed.success(), "kill -INT {} failed", child.id());
}

/// Waits for `child` to exit, up to `bound` (a generous limit: a child still running then
/// is killed and the test fails), and returns its output.
#[track_caller]
pub fn wait_bounded(
    mut child: std::process::Child,
    bound: std::time::Duration,
) -> std::process::Output {
    let deadline = std::time::Instant::now() + bound;
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("dbio still running {bound:?} after it was asked to stop");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// `dbio ARGS` in `dir` under strace, every thread's pread64 and pwrite64 calls logged to
/// `trace.*` (read back with [`strace_ios`]): its (stdout, stderr), or None after a
/// [`skip`] when strace is missing or cannot trace here. A failed run fails the test.
pub fn dbio_traced(test: &str, dir: &Path, args: &[&str]) -> Option<(String, String)> {
    let strace = require_tool(test, "strace")?;
    let out = Command::new(strace)
        .current_dir(dir)
        .env("XDG_DATA_HOME", env!("CARGO_TARGET_TMPDIR"))
        .args(["-ff", "-y", "-s", "0", "-o", "trace", "-e"])
        .args(["trace=pread64,pwrite64", DBIO])
        .args(args)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    if stderr.contains("ptrace") && !out.status.success() {
        skip(test, &format!("strace cannot trace here: {stderr}"));
        return None;
    }
    assert!(out.status.success(), "dbio {args:?}: {stdout}\n{stderr}");
    Some((stdout, stderr))
}

/// One I/O strace saw on a file: the call, its length and its offset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Io {
    pub write: bool,
    pub len: u64,
    pub offset: u64,
}

/// The pread64/pwrite64 calls on `file` in strace's per-thread logs `prefix.*` (written
/// with -ff -y -s 0, so a line reads `pread64(5</dir/shared.dat>, ""..., 4096, 8192) = 4096`),
/// one list per thread's log.
pub fn strace_ios(dir: &Path, prefix: &str, file: &str) -> Vec<Vec<Io>> {
    let mut threads = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.starts_with(&format!("{prefix}.")) {
            continue;
        }
        let mut out = Vec::new();
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let write = line.starts_with("pwrite64(");
            if !(write || line.starts_with("pread64(")) || !line.contains(&format!("/{file}>")) {
                continue;
            }
            // The length and offset are the last two arguments, before `) = `.
            let args = &line[..line.rfind(") = ").unwrap_or_else(|| panic!("{line}"))];
            let mut nums = args.rsplit(", ").map(|n| n.trim().parse::<u64>());
            let (offset, len) = (nums.next().unwrap(), nums.next().unwrap());
            out.push(Io {
                write,
                len: len.unwrap_or_else(|e| panic!("{line}: {e}")),
                offset: offset.unwrap_or_else(|e| panic!("{line}: {e}")),
            });
        }
        threads.push(out);
    }
    threads
}

/// A whole disk of this machine, to read its /proc/diskstats counters (never written).
pub fn a_disk() -> String {
    std::fs::read_dir("/sys/block")
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| {
            !["loop", "ram", "zram", "dm-"]
                .iter()
                .any(|p| n.starts_with(p))
        })
        .min()
        .expect("a disk")
}
