//! A private PostgreSQL: `initdb` and `pg_ctl` of the installed server, its own folder,
//! socket folder and port, password logins, `track_io_timing = on`, small shared_buffers.

use super::host::{command, find, free_port, on_path, private_dir, private_dir_in, run, run_as};
use crate::error::DbError;
use std::path::{Path, PathBuf};

/// The superuser of private servers, and its password.
pub const ADMIN: &str = "dbio_admin";
pub const ADMIN_PASSWORD: &str = "admin-pw-7Qx";

/// A running private PostgreSQL; stopped and removed on drop.
pub struct PrivatePostgres {
    dir: PathBuf,
    bin: PathBuf,
    owner: Option<(u32, u32)>,
    port: u16,
}

/// The newest installed server's bin folder (Debian keeps it off PATH).
fn bin_dir() -> Option<PathBuf> {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|b| b.join("initdb").is_file() && b.join("pg_ctl").is_file())
        .collect();
    versions.sort_by_key(|p| {
        p.parent()
            .and_then(|v| v.file_name())
            .and_then(|v| v.to_str())
            .and_then(|v| v.parse::<u32>().ok())
    });
    versions
        .pop()
        .or_else(|| find(&on_path("initdb", &[])).and_then(|p| p.parent().map(PathBuf::from)))
}

impl PrivatePostgres {
    /// Starts a server with these extra `postgresql.conf` lines; an error names what is missing.
    pub fn start_with(conf: &[&str]) -> Result<PrivatePostgres, DbError> {
        Self::start_in(None, conf)
    }

    /// Starts a server whose folder lies under `parent` (the system temp dir when None), with
    /// these extra `postgresql.conf` lines.
    pub fn start_in(parent: Option<&Path>, conf: &[&str]) -> Result<PrivatePostgres, DbError> {
        let bin = bin_dir().ok_or(DbError::Private(
            "PostgreSQL's initdb and pg_ctl are not installed (apt-get install postgresql)".into(),
        ))?;
        let owner = run_as("postgres")?;
        let dir = match parent {
            Some(p) => private_dir_in(p, "dbio-pg", owner)?,
            None => private_dir("dbio-pg", owner)?,
        };
        let mut pg = PrivatePostgres {
            dir,
            bin,
            owner,
            port: free_port()?,
        };
        pg.init(conf)?;
        let mut c = command(&pg.bin.join("pg_ctl"), owner);
        c.args([
            "-D",
            &pg.data(),
            "-l",
            &pg.path("log"),
            "-w",
            "-t",
            "60",
            "start",
        ]);
        run(c, "pg_ctl start")
            .map_err(|e| DbError::Private(format!("{e}; log: {}", pg.log_tail())))?;
        Ok(pg)
    }

    /// Starts a server with the test settings.
    pub fn start() -> Result<PrivatePostgres, DbError> {
        Self::start_with(&[])
    }

    fn path(&self, name: &str) -> String {
        self.dir.join(name).display().to_string()
    }

    fn data(&self) -> String {
        self.path("data")
    }

    fn init(&mut self, extra: &[&str]) -> Result<(), DbError> {
        let pw = self.path("pw");
        std::fs::write(&pw, ADMIN_PASSWORD).map_err(|e| DbError::Private(format!("{pw}: {e}")))?;
        if let Some((u, g)) = self.owner {
            let _ = std::os::unix::fs::chown(&pw, Some(u), Some(g));
        }
        let mut c = command(&self.bin.join("initdb"), self.owner);
        c.args([
            "-D",
            &self.data(),
            "-U",
            ADMIN,
            "--pwfile",
            &pw,
            "-A",
            "scram-sha-256",
            "--no-sync",
        ]);
        run(c, "initdb")?;
        let sock = self.dir.display().to_string();
        let mut conf = format!(
            "port = {}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{sock}'\n\
             track_io_timing = on\ntrack_wal_io_timing = on\nshared_buffers = 1MB\n\
             autovacuum = off\nfsync = off\nmax_connections = 20\n",
            self.port
        );
        for l in extra {
            conf.push_str(l);
            conf.push('\n');
        }
        let file = self.dir.join("data/postgresql.auto.conf");
        std::fs::write(&file, conf)
            .map_err(|e| DbError::Private(format!("{}: {e}", file.display())))
    }

    /// The URL of `user` with `password`, over TCP to 127.0.0.1.
    pub fn url_as(&self, user: &str, password: &str, db: &str) -> String {
        format!("postgres://{user}:{password}@127.0.0.1:{}/{db}", self.port)
    }

    /// The superuser's URL to database `db`.
    pub fn url(&self, db: &str) -> String {
        self.url_as(ADMIN, ADMIN_PASSWORD, db)
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A superuser connection to `db`.
    pub fn client(&self, db: &str) -> postgres::Client {
        crate::pg::connect(&self.url(db)).expect("connect to the private PostgreSQL")
    }

    /// Ends the session of `c` and waits (up to 60 s) until it has left pg_stat_activity: a
    /// session reports its statistics as it ends, before it leaves, so they are counted then.
    pub fn end_session(&self, mut c: postgres::Client) -> Result<(), DbError> {
        let pid: i32 = c
            .query_one("SELECT pg_backend_pid()", &[])
            .map_err(|e| DbError::Private(e.to_string()))?
            .get(0);
        drop(c);
        self.wait_until_gone(&format!("pid = {pid}"))
    }

    /// Waits (up to 60 s) until no other client session is connected to the server: a session
    /// reports its statistics as it ends, before it leaves pg_stat_activity, so the counts of
    /// every session that has gone are in the statistics views after this. An error when the
    /// sessions are still there at the bound.
    pub fn wait_sessions_ended(&self) -> Result<(), DbError> {
        self.wait_until_gone("backend_type = 'client backend' AND pid <> pg_backend_pid()")
    }

    /// Waits (up to 60 s) until no session of pg_stat_activity matches `filter`.
    fn wait_until_gone(&self, filter: &str) -> Result<(), DbError> {
        let mut c = self.client("postgres");
        let start = std::time::Instant::now();
        loop {
            let others: i64 = c
                .query_one(
                    &format!("SELECT count(*) FROM pg_stat_activity WHERE {filter}"),
                    &[],
                )
                .map_err(|e| DbError::Private(e.to_string()))?
                .get(0);
            if others == 0 {
                return Ok(());
            }
            if start.elapsed() > std::time::Duration::from_secs(60) {
                return Err(DbError::Private(format!(
                    "{others} sessions still connected after 60 s"
                )));
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Puts `line` first in pg_hba.conf (e.g. a `trust` line) and waits (up to 60 s) until the
    /// server has reloaded it: a new session shows the postmaster's pg_conf_load_time, which
    /// moves once it has read the configuration and pg_hba.conf again.
    pub fn hba_first(&self, line: &str) -> Result<(), DbError> {
        let hba = self.data_dir().join("pg_hba.conf");
        let old = std::fs::read_to_string(&hba)
            .map_err(|e| DbError::Private(format!("{}: {e}", hba.display())))?;
        std::fs::write(&hba, format!("{line}\n{old}"))
            .map_err(|e| DbError::Private(format!("{}: {e}", hba.display())))?;
        let loaded = |c: &mut postgres::Client| -> Result<String, DbError> {
            c.query_one("SELECT pg_conf_load_time()::text", &[])
                .map(|r| r.get(0))
                .map_err(|e| DbError::Private(e.to_string()))
        };
        let mut c = self.client("postgres");
        let before = loaded(&mut c)?;
        c.batch_execute("SELECT pg_reload_conf()")
            .map_err(|e| DbError::Private(e.to_string()))?;
        drop(c);
        let start = std::time::Instant::now();
        while loaded(&mut self.client("postgres"))? == before {
            if start.elapsed() > std::time::Duration::from_secs(60) {
                return Err(DbError::Private(
                    "the server did not reload pg_hba.conf within 60 s".into(),
                ));
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        Ok(())
    }

    /// The server's processes now: the postmaster (from its pid file) and its children.
    pub fn pids(&self) -> Vec<u32> {
        let file = self.dir.join("data/postmaster.pid");
        let Some(main) = std::fs::read_to_string(file)
            .ok()
            .and_then(|t| t.lines().next().and_then(|l| l.trim().parse::<u32>().ok()))
        else {
            return Vec::new();
        };
        let mut pids = vec![main];
        for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
                continue;
            };
            if crate::slob::procfs::parent(pid) == Some(main) {
                pids.push(pid);
            }
        }
        pids
    }

    /// Restarts the server with pg_ctl's `mode` (fast: a clean shutdown, which keeps the
    /// statistics; immediate: a crash, which loses them), waiting until it accepts logins.
    pub fn restart(&self, mode: &str) -> Result<(), DbError> {
        let mut c = command(&self.bin.join("pg_ctl"), self.owner);
        c.args([
            "-D",
            &self.data(),
            "-l",
            &self.path("log"),
            "-m",
            mode,
            "-w",
            "-t",
            "60",
            "restart",
        ]);
        run(c, "pg_ctl restart")
            .map_err(|e| DbError::Private(format!("{e}; log: {}", self.log_tail())))
    }

    /// Stops the server cleanly (it keeps its statistics), or starts it again after.
    pub fn stop_or_start(&self, start: bool) -> Result<(), DbError> {
        let mut c = command(&self.bin.join("pg_ctl"), self.owner);
        let log = self.path("log");
        match start {
            true => c.args(["-D", &self.data(), "-l", &log, "-w", "-t", "60", "start"]),
            false => c.args(["-D", &self.data(), "-m", "fast", "-w", "-t", "60", "stop"]),
        };
        run(c, "pg_ctl").map_err(|e| DbError::Private(format!("{e}; log: {}", self.log_tail())))
    }

    /// The data directory.
    pub fn data_dir(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// The end of the server's log, for messages.
    pub fn log_tail(&self) -> String {
        let log = std::fs::read_to_string(self.path("log")).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(5)..].join(" | ")
    }
}

impl Drop for PrivatePostgres {
    fn drop(&mut self) {
        let mut c = command(&self.bin.join("pg_ctl"), self.owner);
        c.args(["-D", &self.data(), "-m", "immediate", "-w", "stop"]);
        let _ = c.output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
