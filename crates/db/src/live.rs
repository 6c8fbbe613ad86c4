//! A live source: a database connection (PostgreSQL or MariaDB/MySQL) or this host's
//! /proc/diskstats, snapshot after snapshot.

use crate::error::DbError;
use crate::snapshot::Snapshot;
use crate::url::{system, System};

/// An open live source.
pub enum Live {
    Postgres {
        client: Box<postgres::Client>,
        url: String,
    },
    MySql {
        conn: Box<mysql::Conn>,
        url: String,
    },
    Diskstats {
        partitions: bool,
    },
}

impl Live {
    /// Connects to the database `url` names.
    pub fn connect(url: &str) -> Result<Live, DbError> {
        Ok(match system(url)? {
            System::Postgres => Live::Postgres {
                client: Box::new(crate::pg::connect(url)?),
                url: url.to_string(),
            },
            System::MySql => Live::MySql {
                conn: Box::new(crate::mariadb::connect(url)?),
                url: url.to_string(),
            },
        })
    }

    /// The counters as they stand now.
    pub fn snapshot(&mut self) -> Result<Snapshot, DbError> {
        match self {
            Live::Postgres { client, url } => crate::pg::snapshot(client, url),
            Live::MySql { conn, url } => crate::mariadb::snapshot(conn, url),
            Live::Diskstats { partitions } => crate::diskstats::live(*partitions),
        }
    }

    /// The server's processes on this host (empty when it runs elsewhere or cannot be told).
    pub fn server_pids(&mut self) -> Vec<u32> {
        match self {
            Live::Postgres { client, .. } => crate::slob::pgsql::server_pids(client),
            Live::MySql { conn, .. } => crate::slob::maria::server_pids(conn),
            Live::Diskstats { .. } => Vec::new(),
        }
    }

    /// The server's data folder, when it says (PostgreSQL tells it to superusers and
    /// pg_read_all_settings).
    pub fn data_dir(&mut self) -> Option<String> {
        use mysql::prelude::Queryable;
        match self {
            Live::Postgres { client, .. } => client
                .query_one("SELECT current_setting('data_directory')", &[])
                .ok()
                .map(|r| r.get(0)),
            Live::MySql { conn, .. } => conn.query_first("SELECT @@datadir").ok().flatten(),
            Live::Diskstats { .. } => None,
        }
    }
}
