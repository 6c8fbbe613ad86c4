//! A private MariaDB: `mariadb-install-db` and `mariadbd` on a temporary datadir and socket,
//! its own port on 127.0.0.1, `performance_schema = ON` (unless asked otherwise), a small
//! buffer pool.

use super::host::{command, find, free_port, on_path, private_dir, private_dir_in, run, run_as};
use crate::error::DbError;
use std::path::PathBuf;
use std::process::Child;
use std::time::{Duration, Instant};

/// A running private MariaDB; stopped and removed on drop.
pub struct PrivateMariaDb {
    dir: PathBuf,
    child: Option<Child>,
    port: u16,
}

const SBIN: &[&str] = &["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"];

impl PrivateMariaDb {
    /// Starts a server with performance_schema on.
    pub fn start() -> Result<PrivateMariaDb, DbError> {
        Self::start_with(true)
    }

    /// Starts a server with performance_schema on or off; an error names what is missing.
    pub fn start_with(performance_schema: bool) -> Result<PrivateMariaDb, DbError> {
        Self::start_in(None, performance_schema, &[])
    }

    /// Starts a server whose folder lies under `parent` (the system temp dir when None), with
    /// extra server options (e.g. `--innodb-flush-method=O_DIRECT`).
    pub fn start_in(
        parent: Option<&std::path::Path>,
        performance_schema: bool,
        extra: &[&str],
    ) -> Result<PrivateMariaDb, DbError> {
        let server = find(&on_path("mariadbd", SBIN))
            .or_else(|| find(&on_path("mysqld", SBIN)))
            .ok_or(DbError::Private(
                "mariadbd is not installed (apt-get install mariadb-server)".into(),
            ))?;
        let install = find(&on_path("mariadb-install-db", SBIN))
            .or_else(|| find(&on_path("mysql_install_db", SBIN)))
            .ok_or(DbError::Private(
                "mariadb-install-db is not installed (apt-get install mariadb-server)".into(),
            ))?;
        let owner = run_as("mysql")?;
        let dir = match parent {
            Some(p) => private_dir_in(p, "dbio-maria", owner)?,
            None => private_dir("dbio-maria", owner)?,
        };
        let mut m = PrivateMariaDb {
            dir,
            child: None,
            port: free_port()?,
        };
        let mut c = command(&install, owner);
        c.args([
            "--no-defaults",
            &format!("--datadir={}", m.path("data")),
            "--auth-root-authentication-method=normal",
            "--skip-test-db",
            // Its own temporary folder: installs of parallel tests in a shared /tmp remove
            // each other's temporary tables.
            &format!("--tmpdir={}", m.dir.display()),
        ]);
        run(c, "mariadb-install-db")?;
        let mut c = command(&server, owner);
        c.args([
            "--no-defaults".to_string(),
            format!("--datadir={}", m.path("data")),
            format!("--socket={}", m.path("sock")),
            format!("--pid-file={}", m.path("pid")),
            format!("--tmpdir={}", m.dir.display()),
            format!("--log-error={}", m.path("err.log")),
            format!("--port={}", m.port),
            "--bind-address=127.0.0.1".into(),
            "--skip-name-resolve".into(),
            format!(
                "--performance-schema={}",
                if performance_schema { "ON" } else { "OFF" }
            ),
            "--innodb-buffer-pool-size=6M".into(),
            "--innodb-flush-log-at-trx-commit=0".into(),
            "--innodb-doublewrite=0".into(),
            "--skip-log-bin".into(),
        ]);
        c.args(extra);
        c.stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        m.child = Some(
            c.spawn()
                .map_err(|e| DbError::Private(format!("cannot run {}: {e}", server.display())))?,
        );
        m.wait_ready()?;
        Ok(m)
    }

    fn path(&self, name: &str) -> String {
        self.dir.join(name).display().to_string()
    }

    /// Waits until root can log in (asked every 20 ms), for up to 60 s, or the server exits.
    fn wait_ready(&mut self) -> Result<(), DbError> {
        let start = Instant::now();
        loop {
            if mysql::Conn::new(mysql::Opts::from_url(&self.url_as("root", "")).expect("valid URL"))
                .is_ok()
            {
                return Ok(());
            }
            let exited = self
                .child
                .as_mut()
                .and_then(|c| c.try_wait().ok().flatten());
            if exited.is_some() || start.elapsed() > Duration::from_secs(60) {
                let log = std::fs::read_to_string(self.path("err.log")).unwrap_or_default();
                let tail: Vec<&str> = log.lines().rev().take(5).collect();
                return Err(DbError::Private(format!(
                    "the private mariadbd did not start: {}",
                    tail.join(" | ")
                )));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The URL of `user` (empty password: none) over TCP to 127.0.0.1.
    pub fn url_as(&self, user: &str, password: &str) -> String {
        if password.is_empty() {
            format!("mysql://{user}@127.0.0.1:{}/", self.port)
        } else {
            format!("mysql://{user}:{password}@127.0.0.1:{}/", self.port)
        }
    }

    /// The root URL (no password on a private server).
    pub fn url(&self) -> String {
        self.url_as("root", "")
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A root connection that may write (for the tests' own setup and load).
    pub fn conn(&self) -> mysql::Conn {
        mysql::Conn::new(mysql::Opts::from_url(&self.url()).expect("valid URL"))
            .expect("connect to the private MariaDB")
    }
}

impl Drop for PrivateMariaDb {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let pid = child.id().to_string();
            let _ = std::process::Command::new("kill")
                .args(["-TERM", &pid])
                .status();
            let start = Instant::now();
            while child.try_wait().ok().flatten().is_none() {
                if start.elapsed() > Duration::from_secs(20) {
                    let _ = child.kill();
                    let _ = child.wait();
                    break;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
