//! A host's clock against ours, over the same SSH path the run will take: the remote
//! `dbio clock` answers each line with its time, and the fastest round trip bounds the error.

use super::hosts::Host;
use super::ssh::{command, SshSetup};
use dbio_model::cluster::ClockOffset;
use std::io::{BufRead, BufReader, Write};
use std::sync::mpsc;
use std::time::{Duration, SystemTime};

/// Round trips per host; the one with the shortest round trip gives the offset.
const PROBES: usize = 7;
/// How long a host may take to answer at all (ssh's own connect timeout is 10 s).
const ANSWER_WITHIN: Duration = Duration::from_secs(20);

fn unix_ns(t: SystemTime) -> i128 {
    t.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128)
}

/// How long a session whose output ended may take to exit with its status before it is
/// killed (its status says why it ended: 127, no dbio; 255, no connection).
const EXIT_WITHIN: Duration = Duration::from_secs(5);

/// The exit status of a session that stopped answering: waited for up to EXIT_WITHIN, then
/// the session is killed (None: it had to be).
fn exit_status(child: &mut std::process::Child) -> Option<std::process::ExitStatus> {
    let until = std::time::Instant::now() + EXIT_WITHIN;
    while std::time::Instant::now() < until {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(_) => break,
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// Why a host cannot take part in a fleet run; Display says so in words.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    #[error("cannot run {ssh}: {source}")]
    Ssh { ssh: String, source: std::io::Error },
    /// No answer, or not dbio's: what was wrong, with the last line the host wrote.
    #[error("{0}")]
    NoAnswer(String),
    #[error("its dbio {version} writes results of schema {theirs}, this one merges {schema}: install the same dbio on every host")]
    Schema {
        version: String,
        theirs: String,
        schema: String,
    },
    #[error("its clock could not be read")]
    Clock,
    #[error("the check panicked")]
    Panicked,
}

/// Checks that `host` runs a dbio that writes `schema` and measures its clock offset.
/// Err says why the host cannot take part (unreachable, no dbio, another schema, no answer).
pub fn probe(setup: &SshSetup, host: &Host, schema: &str) -> Result<ClockOffset, ProbeError> {
    let mut child = command(setup, host, &["clock".to_string()])
        .spawn()
        .map_err(|source| ProbeError::Ssh {
            ssh: setup.ssh.clone(),
            source,
        })?;
    let mut stdin = child.stdin.take().expect("piped");
    let stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(l) = line else { break };
            if tx.send(l).is_err() {
                break;
            }
        }
    });
    let fail = |child: &mut std::process::Child, stderr: &mut std::process::ChildStderr, what| {
        let status = exit_status(child);
        let mut err = String::new();
        let _ = std::io::Read::read_to_string(stderr, &mut err);
        let said = err.trim().lines().last().unwrap_or("").to_string();
        let why = match status.and_then(|s| s.code()) {
            Some(127) => super::ssh::dbio_not_found(setup, host),
            Some(255) => "ssh could not connect".to_string(),
            _ => what,
        };
        ProbeError::NoAnswer(if said.is_empty() {
            why
        } else {
            format!("{why} (said: {said})")
        })
    };
    let header = match rx.recv_timeout(ANSWER_WITHIN) {
        Ok(h) => h,
        Err(_) => return Err(fail(&mut child, &mut stderr, "no answer".to_string())),
    };
    let mut words = header.split_whitespace();
    if words.next() != Some("dbio-clock") {
        return Err(fail(
            &mut child,
            &mut stderr,
            format!("'{}' did not answer as dbio clock does", setup.remote_dbio),
        ));
    }
    let (theirs, version) = (words.next().unwrap_or("?"), words.next().unwrap_or("?"));
    if theirs != schema {
        let _ = child.kill();
        let _ = child.wait();
        return Err(ProbeError::Schema {
            version: version.to_string(),
            theirs: theirs.to_string(),
            schema: schema.to_string(),
        });
    }
    let mut best: Option<(i128, i128)> = None;
    for _ in 0..PROBES {
        let t0 = SystemTime::now();
        if writeln!(stdin, "t").and_then(|_| stdin.flush()).is_err() {
            break;
        }
        let Ok(line) = rx.recv_timeout(ANSWER_WITHIN) else {
            break;
        };
        let t1 = SystemTime::now();
        let Ok(remote) = line.trim().parse::<i128>() else {
            break;
        };
        let (a, b) = (unix_ns(t0), unix_ns(t1));
        let rtt = b - a;
        if best.is_none_or(|(r, _)| rtt < r) {
            best = Some((rtt, remote - (a + b) / 2));
        }
    }
    drop(stdin);
    let _ = child.wait();
    let (rtt, offset) = best.ok_or(ProbeError::Clock)?;
    Ok(ClockOffset {
        host: host.name.clone(),
        offset_ms: offset as f64 / 1e6,
        rtt_ms: rtt as f64 / 1e6,
    })
}
