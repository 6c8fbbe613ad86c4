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
}
