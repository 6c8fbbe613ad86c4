//! `dbio db`: the SLOB method through a real database. dbio's own schema (`dbio_slob`, one
//! table per session, one row per block, an index to reach rows by key) is set up, loaded,
//! run and dropped here; a run returns the database's counts, the device's and the client's.

mod maria;
mod pgsql;
pub mod procfs;
pub mod report;
pub mod run;
pub mod setup;

use crate::url::{system, System};

/// dbio's schema (a PostgreSQL schema, a MariaDB database): its name says it is dbio's.
pub const SCHEMA: &str = "dbio_slob";
/// The table in dbio's schema recording every object dbio made there.
pub const MARKER: &str = "dbio_made";

/// Facts of the server a run or setup talks to.
#[derive(Debug, Clone)]
pub struct Server {
    pub system: System,
    pub version: String,
    /// Database block (page) size in bytes.
    pub block_size: u64,
    /// Bytes one row takes: a block (in InnoDB, the overflow page holding its pad).
    pub row_bytes: u64,
    pub buffer_pool_bytes: u64,
    /// The data directory, where the role may read it.
    pub data_dir: Option<String>,
    /// "buffered" or InnoDB's flush method.
    pub io_method: String,
}

/// What setup made, as the marker table records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub tables: u32,
    pub rows: u64,
}

/// The database's cumulative counters at an instant.
#[derive(Debug, Clone, Copy, Default)]
pub struct Counters {
    pub reads: u64,
    pub read_time_s: Option<f64>,
    pub hits: u64,
    pub log_writes: u64,
    pub log_bytes: u64,
    pub log_syncs: u64,
    /// Time in log writes and syncs together, and in syncs alone (the commit wait).
    pub log_time_s: Option<f64>,
    pub log_sync_time_s: Option<f64>,
    pub commits: u64,
    pub data_writes: u64,
}

/// An open connection to PostgreSQL or MariaDB/MySQL (not read-only: dbio's schema is
/// written through it).
pub enum Conn {
    Pg(Box<postgres::Client>),
    My(Box<mysql::Conn>),
}

impl Conn {
    /// Connects to `url`; the error is one line without the password.
    pub fn open(url: &str) -> Result<Conn, String> {
        Ok(match system(url)? {
            System::Postgres => Conn::Pg(Box::new(crate::pg::connect(url)?)),
            System::MySql => Conn::My(Box::new(maria::connect_rw(url)?)),
        })
    }

    /// The server's version, block size, buffer pool and data directory; an error for a
    /// version dbio does not know.
    pub fn server(&mut self, url: &str) -> Result<Server, String> {
        match self {
            Conn::Pg(c) => pgsql::server(c, url),
            Conn::My(c) => maria::server(c, url),
        }
    }

    /// What dbio set up here, or None when its schema is not there.
    pub fn layout(&mut self, url: &str) -> Result<Option<Layout>, String> {
        match self {
            Conn::Pg(c) => pgsql::layout(c, url),
            Conn::My(c) => maria::layout(c, url),
        }
    }

    /// The database's counters now.
    pub fn counters(&mut self, url: &str) -> Result<Counters, String> {
        match self {
            Conn::Pg(c) => pgsql::counters(c, url),
            Conn::My(c) => maria::counters(c, url),
        }
    }

    /// The server's processes on this host (empty when it is elsewhere or cannot be told).
    pub fn server_pids(&mut self) -> Vec<u32> {
        match self {
            Conn::Pg(c) => pgsql::server_pids(c),
            Conn::My(c) => maria::server_pids(c),
        }
    }

    /// The path of dbio's first table's file, when the server tells it.
    pub fn data_file(&mut self, server: &Server) -> Option<String> {
        match self {
            Conn::Pg(c) => pgsql::data_file(c, server),
            Conn::My(_) => server
                .data_dir
                .as_ref()
                .map(|d| format!("{}/{SCHEMA}/slob_1.ibd", d.trim_end_matches('/'))),
        }
    }

    /// Bytes of dbio's tables and indexes.
    pub fn data_set_bytes(&mut self, url: &str) -> Result<u64, String> {
        match self {
            Conn::Pg(c) => pgsql::data_set_bytes(c, url),
            Conn::My(c) => maria::data_set_bytes(c, url),
        }
    }
}

/// One session's connection with its statements ready.
pub enum Session {
    Pg(Box<pgsql::PgSession>),
    My(Box<maria::MySession>),
}

impl Session {
    /// Opens a session on table `table` (1-based).
    pub fn open(url: &str, table: u32) -> Result<Session, String> {
        Ok(match system(url)? {
            System::Postgres => Session::Pg(Box::new(pgsql::PgSession::open(url, table)?)),
            System::MySql => Session::My(Box::new(maria::MySession::open(url, table)?)),
        })
    }

    /// Reads the rows of keys lo..=hi through the index.
    pub fn read(&mut self, lo: i64, hi: i64) -> Result<(), String> {
        match self {
            Session::Pg(s) => s.read(lo, hi),
            Session::My(s) => s.read(lo, hi),
        }
    }

    /// Updates the rows of keys lo..=hi and commits: (statement ns, commit ns).
    pub fn update(&mut self, lo: i64, hi: i64) -> Result<(u64, u64), String> {
        match self {
            Session::Pg(s) => s.update(lo, hi),
            Session::My(s) => s.update(lo, hi),
        }
    }

    /// Makes the server count this session's work so far in its statistics now.
    pub fn flush_stats(&mut self) {
        if let Session::Pg(s) = self {
            s.flush_stats();
        }
    }
}

/// A bijection of 1..=rows: logically adjacent keys land on scattered rows (blocks).
pub fn scatter(g: u64, rows: u64) -> u64 {
    ((g - 1) * multiplier(rows)) % rows + 1
}

/// A multiplier coprime to `rows`, about 0.618 of it (so neighbours land far apart).
pub fn multiplier(rows: u64) -> u64 {
    let gcd = |mut a: u64, mut b: u64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let mut m = ((rows as f64 * 0.618_033_988) as u64).max(1);
    while rows > 1 && gcd(m, rows) != 1 {
        m += 1;
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scatter_is_a_permutation() {
        for rows in [1u64, 2, 7, 100, 1000, 4096] {
            let mut seen: Vec<u64> = (1..=rows).map(|g| scatter(g, rows)).collect();
            seen.sort();
            assert_eq!(seen, (1..=rows).collect::<Vec<_>>(), "rows {rows}");
        }
    }
}
