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
    ///
    /// Bridge (issue 24): a String error until the CLI's `dbio advise` take
    /// [`DbError`].
    pub fn connect(url: &str) -> Result<Live, String> {
        Live::open(url).map_err(String::from)
    }

    /// [`Live::connect`], with the error typed.
    fn open(url: &str) -> Result<Live, DbError> {
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
    ///
    /// Bridge (issue 24): a String error until the CLI's `dbio advise` take
    /// [`DbError`].
    pub fn snapshot(&mut self) -> Result<Snapshot, String> {
        self.take().map_err(String::from)
    }

    /// [`Live::snapshot`], with the error typed.
    fn take(&mut self) -> Result<Snapshot, DbError> {
        match self {
            Live::Postgres { client, url } => crate::pg::snapshot(client, url),
            Live::MySql { conn, url } => crate::mariadb::snapshot(conn, url),
            Live::Diskstats { partitions } => crate::diskstats::live(*partitions),
        }
    }
}
