//! The runs themselves: one ssh session per host, all started before the common instant,
//! their stderr streamed to the caller, their JSON results collected. Closing a session's
//! stdin is how a host is told to stop (its dbio runs with --stop-on-eof). A host that goes
//! silent cannot hang the launcher: ssh's keep-alives end a session whose host stopped
//! answering, and a host silent for a while after its measuring window is told to stop, then
//! cut off (a host finishing its verify pass or its result writes `dbio-finishing` every
//! second meanwhile).

use super::hosts::Host;
use super::ssh::{command, SshSetup};
use crate::progress::Line;
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ChildStdin};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// After a stop, how long a host may be silent (no line since it was told) before it is cut
/// off.
const GRACE: Duration = Duration::from_secs(15);
/// How long a host may be silent after its planned measuring window (the later of the
/// window's end and the host's last line) before it is told to stop (then it has GRACE more).
const AFTER_WINDOW: Duration = Duration::from_secs(30);

/// What one host's session gave back.
pub struct Finished {
    pub host: Host,
    /// The process's exit code (None: killed by a signal).
    pub code: Option<i32>,
    pub stdout: String,
    /// The last lines of its stderr, for a failure's reason.
    pub stderr_tail: Vec<String>,
    /// The launcher cut the session off: told to stop (by the user, or after AFTER_WINDOW of
    /// silence past its window), the host was still running and silent GRACE later.
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
    /// When its planned measuring window ends, once it said it is measuring (None: not
    /// measuring yet, or its run has no planned length): see [`silent_too_long`].
    window_end: Option<Instant>,
    /// When its stdin was closed (by a stop, or its silence after its window).
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
                        // Progress lines say nothing about a failure; a verify pass's
                        // minutes of them would push out what does.
                        if !crate::progress::is_progress(&line) {
                            tail.push(line);
                        }
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
                    window_end: None,
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
/// stop when `stop` is set, a host to stop when it was silent too long after its window, and
/// cuts off a host still running and silent GRACE after it was told.
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
            if r.stopped_at.is_none()
                && (stopping || silent_too_long(r.window_end, r.last_heard, now))
            {
                drop(r.stdin.take());
                r.stopped_at = Some(now);
            }
            // Told to stop and silent since (a host finishing its verify pass says so).
            if r.stopped_at
                .is_some_and(|t| now - t.max(r.last_heard) > GRACE)
                && !r.cut_off
            {
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

/// True when a host whose window ends at `window_end` has been silent too long: AFTER_WINDOW
/// past the later of its window's end and the last line it wrote (`last_heard`). A host that
/// keeps writing after its window (`dbio-finishing` while its verify pass runs) is not.
fn silent_too_long(window_end: Option<Instant>, last_heard: Instant, now: Instant) -> bool {
    window_end.is_some_and(|end| now >= end.max(last_heard) + AFTER_WINDOW)
}

/// Notes that `host` wrote `line`; when the line says it began measuring a window of known
/// length, notes when that window ends.
fn heard(running: &mut [Running], host: &str, line: &str) {
    let Some(r) = running.iter_mut().find(|r| r.host.name == host) else {
        return;
    };
    r.last_heard = Instant::now();
    if let Some(Line::Measuring(Some(planned))) = crate::progress::parse(line) {
        r.window_end = Duration::try_from_secs_f64(planned)
            .ok()
            .and_then(|w| r.last_heard.checked_add(w));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A host still writing after its window (its verify pass) is never silent too long; one
    /// silent since its window ended is, AFTER_WINDOW later; one not measuring never is.
    #[test]
    fn silence_is_counted_from_the_last_line_after_the_window() {
        let end = Instant::now();
        let s = Duration::from_secs;
        let finishing = end + s(100);
        assert!(!silent_too_long(Some(end), finishing, end + s(120)));
        assert!(silent_too_long(Some(end), finishing, end + s(130)));
        let went_silent = end - s(2);
        assert!(!silent_too_long(Some(end), went_silent, end + s(29)));
        assert!(silent_too_long(Some(end), went_silent, end + s(30)));
        assert!(!silent_too_long(None, went_silent, end + s(1000)));
    }
}
