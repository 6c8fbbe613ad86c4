//! Starting a capture and loading a loop device with fio: what the capture and replay
//! tests share.

use super::{dbio_command, LoopDev};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

/// `dbio capture --device DEV --out t.trace -q ARGS` started in `dir`, returned once it is
/// recording (its trace has its header, written once the tracing is on).
pub fn start_capture(dir: &std::path::Path, dev: &str, args: &[&str]) -> Child {
    let mut cap = dbio_command()
        .current_dir(dir)
        .args(["capture", "--device", dev, "--out", "t.trace", "-q"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    recording(&dir.join("t.trace"), &mut cap);
    cap
}

/// A capture of device `dev` (a path) into `dir`/t.trace (with `args`) around the whole of `load`: once it
/// records, the load runs to its end and the capture is ended by Ctrl-C (SIGINT), so it
/// holds every request of the load however long a busy machine made it. What the load
/// gave and the capture's output.
pub fn capture_during<T>(
    dir: &std::path::Path,
    dev: &str,
    args: &[&str],
    load: impl FnOnce() -> T,
) -> (T, Output) {
    let cap = start_capture(dir, dev, args);
    let loaded = load();
    let kill = Command::new("kill")
        .args(["-INT", &cap.id().to_string()])
        .status();
    assert!(kill.is_ok_and(|s| s.success()), "Ctrl-C to the capture");
    (loaded, cap.wait_with_output().unwrap())
}

/// Waits (at most a minute) until the trace at `path` has its header: its capture is
/// recording. Panics when `cap` ends first or the minute runs out.
pub fn recording(path: &std::path::Path, cap: &mut Child) {
    let end = std::time::Instant::now() + Duration::from_secs(60);
    while std::fs::metadata(path).map_or(0, |m| m.len()) <= 12 {
        if let Ok(Some(s)) = cap.try_wait() {
            panic!("the capture ended before recording: {s}");
        }
        assert!(
            std::time::Instant::now() < end,
            "the capture is not recording after 60 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// fio with `args` on the loop device, O_DIRECT through io_uring, to its end.
pub fn fio_on(fio: &std::path::Path, dev: &LoopDev, args: &[&str]) -> Output {
    Command::new(fio)
        .args(["--name=load", "--ioengine=io_uring", "--direct=1"])
        .args(args)
        .arg(format!("--filename={}", dev.dev))
        .output()
        .unwrap()
}

/// The trace exported as fio's iolog into t.iolog: the status and what was said.
pub fn export(dir: &std::path::Path) -> (Option<i32>, String) {
    let args = [
        "capture",
        "--export",
        "fio-iolog",
        "--from",
        "t.trace",
        "--out",
        "t.iolog",
    ];
    let (code, _, err) = super::dbio_in(dir, &args);
    (code, err)
}
