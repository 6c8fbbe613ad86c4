//! The OpenSSH command that runs dbio on a host: the user's own ssh (config, keys, agent,
//! jump hosts), the remote command's words each quoted for the remote shell.

use super::hosts::Host;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

/// How to reach the hosts: the ssh program, an optional config file, the remote dbio.
#[derive(Debug, Clone)]
pub struct SshSetup {
    /// The ssh client (default "ssh").
    pub ssh: String,
    /// `-F FILE`: an ssh config of its own instead of ~/.ssh/config.
    pub config: Option<String>,
    /// The dbio to run on each host (default "dbio", found on the remote PATH).
    pub remote_dbio: String,
}

/// Why a session that exited 127 failed: the remote shell found no `setup.remote_dbio`.
pub fn dbio_not_found(setup: &SshSetup, host: &Host) -> String {
    format!(
        "dbio not found on {} (looked for '{}'; give its path with --remote-dbio)",
        host.name, setup.remote_dbio
    )
}

/// Quotes one word for a POSIX shell: the remote side sees it literally, whatever it holds
/// (`$(…)`, `;`, quotes, newlines).
pub fn quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,@+%".contains(c))
    {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// Seconds of silence from a host after which ssh asks it for a sign of life, and how many
/// unanswered asks end the session: a host whose link or machine went silent is given up
/// after about 20 s (ssh exits 255, "Timeout, server … not responding").
pub const ALIVE_INTERVAL_SECS: u32 = 5;
pub const ALIVE_COUNT_MAX: u32 = 3;
/// A session that ends after this long without a word from its host ended because the host
/// went silent (ssh sends its first keep-alive then).
pub const SILENT_AFTER: std::time::Duration =
    std::time::Duration::from_secs(ALIVE_INTERVAL_SECS as u64);

/// `ssh … HOST -- 'dbio' 'ARG'…` with stdin, stdout and stderr piped. BatchMode: a host that
/// wants a password fails at once instead of prompting under a progress display. Keep-alives
/// (ServerAliveInterval) end a session whose host went silent. The ssh runs
/// in a process group of its own, so the terminal's Ctrl-C reaches only the launching dbio,
/// which stops every host by closing its session's stdin and still collects its result (a
/// Ctrl-C to ssh itself would drop the session and the result with it).
pub fn command(setup: &SshSetup, host: &Host, args: &[String]) -> Command {
    let mut c = Command::new(&setup.ssh);
    c.args(["-o", "BatchMode=yes", "-o", "ConnectTimeout=10"]);
    c.arg("-o")
        .arg(format!("ServerAliveInterval={ALIVE_INTERVAL_SECS}"));
    c.arg("-o")
        .arg(format!("ServerAliveCountMax={ALIVE_COUNT_MAX}"));
    if let Some(f) = &setup.config {
        c.args(["-F", f]);
    }
    if let Some(p) = host.port {
        c.args(["-p", &p.to_string()]);
    }
    let remote: Vec<String> = std::iter::once(setup.remote_dbio.as_str())
        .chain(args.iter().map(String::as_str))
        .map(quote)
        .collect();
    c.arg(&host.destination).arg("--").arg(remote.join(" "));
    c.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shell itself is the oracle: each quoted word must come back as it went in.
    #[test]
    fn quoted_words_reach_a_shell_literally() {
        let words = [
            "plain",
            "$(touch /tmp/dbio-pwned)",
            "a;b",
            "it's",
            "\"dq\"",
            "`id`",
            "new\nline",
            "",
            "*",
        ];
        let script: Vec<String> = words.iter().map(|w| quote(w)).collect();
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("printf '%s\\0' {}", script.join(" ")))
            .output()
            .unwrap();
        let back: Vec<String> = out
            .stdout
            .split(|b| *b == 0)
            .filter(|_| true)
            .map(|w| String::from_utf8_lossy(w).into_owned())
            .collect();
        assert_eq!(&back[..words.len()], &words[..]);
    }
}
