//! The runs themselves: one ssh session per host, all started before the common instant,
//! their stderr streamed to the caller, their JSON results collected. Closing a session's
//! stdin is how a host is told to stop (its dbio runs with --stop-on-eof).

use super::hosts::Host;
use super::ssh::{command, SshSetup};
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ChildStdin};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// After a stop, how long hosts get to write their partial results before they are cut off.
const GRACE: Duration = Duration::from_secs(15);

/// What one host's session gave back.
pub struct Finished {
    pub host: Host,
    /// The process's exit code (None: killed by a signal).
    pub code: Option<i32>,
    pub stdout: String,
    /// The last lines of its stderr, for a failure's reason.
    pub stderr_tail: Vec<String>,
}

struct Running {
    host: Host,
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: JoinHandle<String>,
    stderr: JoinHandle<Vec<String>>,
    done: Option<Option<i32>>,
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
                });
            }
            Err(e) => finished.push(Finished {
                host,
                code: None,
                stdout: String::new(),
                stderr_tail: vec![format!("cannot run {}: {e}", setup.ssh)],
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
    }));
    finished
}

fn wait_all(
    running: &mut [Running],
    stop: &AtomicBool,
    rx: &mpsc::Receiver<(String, String)>,
    on_line: &mut dyn FnMut(&str, &str),
) {
    let mut stopped_at: Option<Instant> = None;
    while running.iter().any(|r| r.done.is_none()) {
        while let Ok((h, l)) = rx.recv_timeout(Duration::from_millis(20)) {
            on_line(&h, &l);
        }
        if stop.load(Ordering::Relaxed) && stopped_at.is_none() {
            stopped_at = Some(Instant::now());
            running.iter_mut().for_each(|r| drop(r.stdin.take()));
        }
        let late = stopped_at.is_some_and(|t| t.elapsed() > GRACE);
        for r in running.iter_mut().filter(|r| r.done.is_none()) {
            if late {
                let _ = r.child.kill();
            }
            if let Ok(Some(status)) = r.child.try_wait() {
                r.done = Some(status.code());
            }
        }
    }
    while let Ok((h, l)) = rx.try_recv() {
        on_line(&h, &l);
    }
}
