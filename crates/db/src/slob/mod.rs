//! `dbio db`: the SLOB method through a real database. dbio's own schema (`dbio_slob`, one
//! table per session, one row per block, an index to reach rows by key) is set up, loaded,
//! run and dropped here; a run returns the database's counts, the device's and the client's.

mod facts;
pub mod flags;
mod keys;
pub(crate) mod maria;
pub(crate) mod pgsql;
pub mod procfs;
pub mod report;
pub mod run;
pub mod setup;

pub use facts::{Counters, Layout, Server, MARKER, SCHEMA};
pub use keys::{multiplier, scatter};

use crate::error::DbError;
use crate::url::{system, System};

/// An open connection to PostgreSQL or MariaDB/MySQL (not read-only: dbio's schema is
/// written through it).
pub enum Conn {
    Pg(Box<postgres::Client>),
    My(Box<mysql::Conn>),
}

impl Conn {
    /// Connects to `url`; the error is one line without the password.
    pub fn open(url: &str) -> Result<Conn, DbError> {
        Ok(match system(url)? {
            System::Postgres => Conn::Pg(Box::new(crate::pg::connect(url)?)),
            System::MySql => Conn::My(Box::new(maria::connect_rw(url)?)),
        })
    }

    /// The server's version, block size, buffer pool and data directory; an error for a
    /// version dbio does not know.
    pub fn server(&mut self, url: &str) -> Result<Server, DbError> {
        match self {
            Conn::Pg(c) => pgsql::server(c, url),
            Conn::My(c) => maria::server(c, url),
        }
    }

    /// What dbio set up here, or None when its schema is not there.
    pub fn layout(&mut self, url: &str) -> Result<Option<Layout>, DbError> {
        match self {
            Conn::Pg(c) => pgsql::layout(c, url),
            Conn::My(c) => maria::layout(c, url),
        }
    }

    /// The database's counters now.
    pub fn counters(&mut self, url: &str) -> Result<Counters, DbError> {
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
    pub fn data_set_bytes(&mut self, url: &str) -> Result<u64, DbError> {
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
    pub fn open(url: &str, table: u32) -> Result<Session, DbError> {
        Ok(match system(url)? {
            System::Postgres => Session::Pg(Box::new(pgsql::PgSession::open(url, table)?)),
            System::MySql => Session::My(Box::new(maria::MySession::open(url, table)?)),
        })
    }

    /// Reads the rows of keys lo..=hi through the index.
    pub fn read(&mut self, lo: i64, hi: i64) -> Result<(), DbError> {
        match self {
            Session::Pg(s) => s.read(lo, hi),
            Session::My(s) => s.read(lo, hi),
        }
    }

    /// Updates the rows of keys lo..=hi and commits: (statement ns, commit ns).
    pub fn update(&mut self, lo: i64, hi: i64) -> Result<(u64, u64), DbError> {
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
