//! The runs themselves: one ssh session per host, all started before the common instant,
//! their stderr streamed to the caller, their JSON results collected. Closing a session's
//! stdin is how a host is told to stop (its dbio runs with --stop-on-eof). A host that goes
//! silent cannot hang the launcher: ssh's keep-alives end a session whose host stopped
//! answering, and a host still running well after its measuring window is told to stop, then
//! cut off.

use super::hosts::Host;
use super::ssh::{command, SshSetup};
use crate::progress::Line;
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ChildStdin};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// After a stop, how long hosts get to write their partial results before they are cut off.
const GRACE: Duration = Duration::from_secs(15);
/// How long after its planned measuring window a host may take to send its result before it
/// is told to stop (then it has GRACE more).
const AFTER_WINDOW: Duration = Duration::from_secs(30);

/// What one host's session gave back.
pub struct Finished {
    pub host: Host,
    /// The process's exit code (None: killed by a signal).
    pub code: Option<i32>,
    pub stdout: String,
    /// The last lines of its stderr, for a failure's reason.
    pub stderr_tail: Vec<String>,
    /// The launcher cut the session off: the host was still running GRACE after it was told
    /// to stop at its deadline.
    pub cut_off: bool,
    /// How long nothing had come from the host when its session ended.
    pub silent_for: Duration,
}

struct Running {
    host: Host,
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: JoinHandle<String>,
    stderr: JoinHandle<Vec<String>>,
    done: Option<Option<i32>>,
    /// When to tell the host to stop: AFTER_WINDOW past its planned measuring window, once it
    /// said it is measuring (None: not measuring yet, or its run has no planned length).
    deadline: Option<Instant>,
    /// When its stdin was closed (by a stop or its deadline).
    stopped_at: Option<Instant>,
    cut_off: bool,
    /// When the host last wrote a line, and when its session ended.
    last_heard: Instant,
    ended_at: Option<Instant>,
}

/// Starts `args` on every host and waits for all; `on_line(host, line)` gets each line a
/// host writes to stderr as it comes. Setting `stop` closes every session's stdin.
pub fn run_all(
    setup: &SshSetup,
    runs: Vec<(Host, Vec<String>)>,
    stop: &AtomicBool,
    on_line: &mut dyn FnMut(&str, &str),
) -> Vec<Finished> {
    let (tx, rx) = mpsc::channel::<(String, String)>();
    let mut running = Vec::new();
    let mut finished = Vec::new();
    for (host, args) in runs {
        match command(setup, &host, &args).spawn() {
            Ok(mut child) => {
                let stdin = child.stdin.take();
                let mut out = child.stdout.take().expect("piped");
                let err = child.stderr.take().expect("piped");
                let stdout = std::thread::spawn(move || {
                    let mut s = String::new();
                    let _ = out.read_to_string(&mut s);
                    s
                });
                let (tx, name) = (tx.clone(), host.name.clone());
                let stderr = std::thread::spawn(move || {
                    let mut tail = Vec::new();
                    for line in BufReader::new(err).lines().map_while(Result::ok) {
                        let _ = tx.send((name.clone(), line.clone()));
                        // What went wrong is said after measuring began, if it began.
                        if line.starts_with(crate::progress::MEASURING) {
                            tail.clear();
                        }
                        tail.push(line);
                        if tail.len() > 20 {
                            tail.remove(0);
                        }
                    }
                    tail
                });
                running.push(Running {
                    host,
                    child,
                    stdin,
                    stdout,
                    stderr,
                    done: None,
                    deadline: None,
                    stopped_at: None,
                    cut_off: false,
                    last_heard: Instant::now(),
                    ended_at: None,
                });
            }
            Err(e) => finished.push(Finished {
                host,
                code: None,
                stdout: String::new(),
                stderr_tail: vec![format!("cannot run {}: {e}", setup.ssh)],
                cut_off: false,
                silent_for: Duration::ZERO,
            }),
        }
    }
    drop(tx);
    wait_all(&mut running, stop, &rx, on_line);
    finished.extend(running.into_iter().map(|r| Finished {
        host: r.host,
        code: r.done.flatten(),
        stdout: r.stdout.join().unwrap_or_default(),
        stderr_tail: r.stderr.join().unwrap_or_default(),
        cut_off: r.cut_off,
        silent_for: r.ended_at.unwrap_or_else(Instant::now) - r.last_heard,
    }));
    finished
}

/// Waits for every session to end, passing on the lines the hosts write; tells every host to
/// stop when `stop` is set, a host to stop at its deadline, and cuts off a host that is still
/// running GRACE after it was told.
fn wait_all(
    running: &mut [Running],
    stop: &AtomicBool,
    rx: &mpsc::Receiver<(String, String)>,
    on_line: &mut dyn FnMut(&str, &str),
) {
    while running.iter().any(|r| r.done.is_none()) {
        while let Ok((h, l)) = rx.recv_timeout(Duration::from_millis(20)) {
            heard(running, &h, &l);
            on_line(&h, &l);
        }
        let stopping = stop.load(Ordering::Relaxed);
        let now = Instant::now();
        for r in running.iter_mut().filter(|r| r.done.is_none()) {
            if r.stopped_at.is_none() && (stopping || r.deadline.is_some_and(|d| now >= d)) {
                drop(r.stdin.take());
                r.stopped_at = Some(now);
            }
            if r.stopped_at.is_some_and(|t| now - t > GRACE) && !r.cut_off {
                let _ = r.child.kill();
                r.cut_off = true;
            }
            if let Ok(Some(status)) = r.child.try_wait() {
                r.done = Some(status.code());
                r.ended_at = Some(Instant::now());
            }
        }
    }
    while let Ok((h, l)) = rx.try_recv() {
        on_line(&h, &l);
    }
}

/// Notes that `host` wrote `line`; when the line says it began measuring a window of known
/// length, its deadline is AFTER_WINDOW past that window's end.
fn heard(running: &mut [Running], host: &str, line: &str) {
    let Some(r) = running.iter_mut().find(|r| r.host.name == host) else {
        return;
    };
    r.last_heard = Instant::now();
    if let Some(Line::Measuring(Some(planned))) = crate::progress::parse(line) {
        r.deadline = Duration::try_from_secs_f64(planned)
            .ok()
            .and_then(|w| Instant::now().checked_add(w.saturating_add(AFTER_WINDOW)));
    }
}
