//! Private database servers for tests (feature `testkit`): a PostgreSQL and a MariaDB of
//! their own, in a temporary folder, on their own socket and a free port, run as the
//! `postgres` / `mysql` user when the tests run as root (the servers refuse root), stopped
//! and removed when dropped, a failed test included. Never the machine's own servers.

mod cgroup;
mod ext4loop;
mod host;
mod mariadb;
mod pg;

pub use cgroup::MemoryCgroup;
pub use ext4loop::Ext4Loop;
pub use host::{mounted, unmount};
pub use mariadb::PrivateMariaDb;
pub use pg::PrivatePostgres;

/// The line a test writes when it cannot run its check (counted as skipped by `.ci/run`).
pub const SKIP_MARK: &str = "dbio-test-skipped:";

/// True under `CI=true`, where every check must run.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// The server, or None after saying why not: under `CI=true` the test fails naming what is
/// missing; elsewhere one `dbio-test-skipped: TEST: WHY` line.
pub fn or_skip<T, E: std::fmt::Display>(test: &str, server: Result<T, E>) -> Option<T> {
    match server {
        Ok(s) => Some(s),
        Err(why) => {
            if in_ci() {
                panic!("{test}: cannot run its check under CI=true: {why}");
            }
            use std::io::Write;
            let line = format!("{SKIP_MARK} {test}: {why}\n");
            let _ = std::io::stderr().write_all(line.as_bytes());
            None
        }
    }
}

/// The private PostgreSQL superuser's password (tests check it never shows).
pub fn pg_admin_password() -> &'static str {
    pg::ADMIN_PASSWORD
}

/// Reads completed by block device `dev` (e.g. "loop3") so far: the kernel's count from
/// /proc/diskstats, read by the test itself. Panics when the device is not there.
pub fn device_reads(dev: &str) -> u64 {
    crate::slob::procfs::Disk::read(dev)
        .unwrap_or_else(|| panic!("{dev} not in /proc/diskstats"))
        .reads
}
