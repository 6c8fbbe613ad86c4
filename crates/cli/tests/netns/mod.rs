//! Hosts for the fleet tests: network namespaces this test creates, each joined to this one
//! by a veth pair with addresses of its own and running OpenSSH's sshd with a key made for
//! the test. Everything is removed on drop, also when the test fails.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// One namespace host.
pub struct NsHost {
    pub ns: String,
    veth: String,
    /// The host's address, as given to --hosts.
    pub addr: String,
    sshd: Option<Child>,
}

/// A few namespace hosts and the ssh config that reaches them.
pub struct Fleet {
    pub dir: tempfile::TempDir,
    pub hosts: Vec<NsHost>,
    pub ssh_config: PathBuf,
}

fn run(cmd: &[&str]) -> Result<(), String> {
    let out = Command::new(cmd[0])
        .args(&cmd[1..])
        .output()
        .map_err(|e| format!("{}: {e}", cmd.join(" ")))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{} failed: {}",
            cmd.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// What the fleet tests need, or the reason they cannot run.
pub fn missing() -> Option<String> {
    // SAFETY-free check of root: `id -u` prints 0.
    let uid = Command::new("id").arg("-u").output().ok()?;
    if String::from_utf8_lossy(&uid.stdout).trim() != "0" {
        return Some("network namespaces need root".into());
    }
    for tool in [
        "/usr/sbin/sshd",
        "/usr/bin/ssh",
        "/usr/bin/ssh-keygen",
        "/usr/sbin/ip",
    ] {
        if !Path::new(tool).exists() && !Path::new(&tool.replace("/usr", "")).exists() {
            return Some(format!(
                "{tool} is not installed (.ci/run installs openssh-server, openssh-client and iproute2)"
            ));
        }
    }
    None
}

impl Fleet {
    /// Starts `n` hosts; Err says what could not be set up.
    pub fn start(n: usize) -> Result<Fleet, String> {
        let dir = tempfile::Builder::new()
            .prefix("dbio-fleet")
            .tempdir_in("/tmp")
            .map_err(|e| e.to_string())?;
        let d = dir.path();
        let key = d.join("id");
        run(&[
            "ssh-keygen",
            "-q",
            "-t",
            "ed25519",
            "-N",
            "",
            "-f",
            key.to_str().unwrap(),
        ])?;
        let hostkey = d.join("hostkey");
        run(&[
            "ssh-keygen",
            "-q",
            "-t",
            "ed25519",
            "-N",
            "",
            "-f",
            hostkey.to_str().unwrap(),
        ])?;
        std::fs::copy(d.join("id.pub"), d.join("authorized_keys")).map_err(|e| e.to_string())?;
        std::fs::create_dir_all("/run/sshd").map_err(|e| format!("/run/sshd: {e}"))?;
        let ssh_config = d.join("ssh_config");
        std::fs::write(
            &ssh_config,
            format!(
                "Host *\n  User root\n  IdentityFile {}\n  IdentitiesOnly yes\n  StrictHostKeyChecking no\n  UserKnownHostsFile /dev/null\n  LogLevel ERROR\n",
                key.display()
            ),
        )
        .map_err(|e| e.to_string())?;
        let mut fleet = Fleet {
            dir,
            hosts: Vec::new(),
            ssh_config,
        };
        // Unique per fleet: tests of one process run side by side.
        static FLEETS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n_fleet = FLEETS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tag = (std::process::id() % 10_000) * 10 + n_fleet % 10;
        // A /24 of 10.x.y.0 per test process, a /30 per host inside it.
        let (x, y) = (200 + (tag % 50), (tag / 50) % 250);
        for i in 0..n {
            let host = NsHost {
                ns: format!("dbio{tag}h{i}"),
                veth: format!("dbv{tag}h{i}"),
                addr: format!("10.{x}.{y}.{}", 4 * i + 2),
                sshd: None,
            };
            let (ns, veth, peer) = (host.ns.clone(), host.veth.clone(), format!("dbp{tag}h{i}"));
            let local = format!("10.{x}.{y}.{}/30", 4 * i + 1);
            let remote = format!("{}/30", host.addr);
            fleet.hosts.push(host);
            run(&["ip", "netns", "add", &ns])?;
            run(&[
                "ip", "link", "add", &veth, "type", "veth", "peer", "name", &peer,
            ])?;
            run(&["ip", "link", "set", &peer, "netns", &ns])?;
            run(&["ip", "addr", "add", &local, "dev", &veth])?;
            run(&["ip", "link", "set", &veth, "up"])?;
            run(&[
                "ip", "netns", "exec", &ns, "ip", "addr", "add", &remote, "dev", &peer,
            ])?;
            run(&["ip", "netns", "exec", &ns, "ip", "link", "set", &peer, "up"])?;
            run(&["ip", "netns", "exec", &ns, "ip", "link", "set", "lo", "up"])?;
            fleet.start_sshd(i)?;
        }
        Ok(fleet)
    }

    fn start_sshd(&mut self, i: usize) -> Result<(), String> {
        let d = self.dir.path().to_path_buf();
        let conf = d.join(format!("sshd{i}.conf"));
        let h = &mut self.hosts[i];
        std::fs::write(
            &conf,
            format!(
                "ListenAddress {}\nPort 22\nHostKey {}\nAuthorizedKeysFile {}\nPermitRootLogin prohibit-password\nPasswordAuthentication no\nKbdInteractiveAuthentication no\nUsePAM no\nStrictModes no\nPidFile {}\nPrintMotd no\nLogLevel ERROR\n",
                h.addr,
                d.join("hostkey").display(),
                d.join("authorized_keys").display(),
                d.join(format!("sshd{i}.pid")).display()
            ),
        )
        .map_err(|e| e.to_string())?;
        let log =
            std::fs::File::create(d.join(format!("sshd{i}.log"))).map_err(|e| e.to_string())?;
        let child = Command::new("ip")
            .args(["netns", "exec", &h.ns, "/usr/sbin/sshd", "-D", "-e", "-f"])
            .arg(&conf)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("sshd: {e}"))?;
        h.sshd = Some(child);
        // Up when ssh gets through; a generous bound, since a loaded machine is slow.
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let ok = Command::new("ssh")
                .args([
                    "-F",
                    self.ssh_config.to_str().unwrap(),
                    "-o",
                    "BatchMode=yes",
                ])
                .arg(&self.hosts[i].addr)
                .arg("true")
                .stdin(Stdio::null())
                .output()
                .is_ok_and(|o| o.status.success());
            if ok {
                return Ok(());
            }
            if Instant::now() > deadline {
                let log =
                    std::fs::read_to_string(d.join(format!("sshd{i}.log"))).unwrap_or_default();
                return Err(format!(
                    "sshd on {} did not answer: {log}",
                    self.hosts[i].addr
                ));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Stops host `i`'s sshd: the host is then unreachable (connection refused).
    pub fn stop_sshd(&mut self, i: usize) {
        if let Some(mut c) = self.hosts[i].sshd.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Cuts host `i`'s link (`ip link set … down` on this side): from then on the host is
    /// silent, neither answering nor refusing.
    pub fn cut_link(&self, i: usize) -> Result<(), String> {
        run(&["ip", "link", "set", &self.hosts[i].veth, "down"])
    }

    /// The addresses, as --hosts takes them.
    pub fn addrs(&self) -> Vec<String> {
        self.hosts.iter().map(|h| h.addr.clone()).collect()
    }
}

impl Drop for Fleet {
    fn drop(&mut self) {
        for i in 0..self.hosts.len() {
            self.stop_sshd(i);
        }
        for h in &self.hosts {
            // Sessions still open in the namespace end with it.
            let _ = Command::new("ip")
                .args(["netns", "pids", &h.ns])
                .output()
                .map(|o| {
                    for pid in String::from_utf8_lossy(&o.stdout).split_whitespace() {
                        let _ = Command::new("kill").args(["-KILL", pid]).status();
                    }
                });
            let _ = Command::new("ip").args(["netns", "del", &h.ns]).status();
            let _ = Command::new("ip")
                .args(["link", "del", &h.veth])
                .stderr(Stdio::null())
                .status();
        }
    }
}
