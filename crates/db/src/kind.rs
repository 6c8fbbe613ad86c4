//! What kind of object a name is, when the source does not say: transaction logs, temp,
//! indexes, data.

use dbio_model::advise::ObjectKind;

/// The kind of a SQL Server file from its database, type and path (`type_desc` when given).
pub fn sqlserver(database: &str, type_desc: Option<&str>, name: &str, path: &str) -> ObjectKind {
    let lower = path.to_ascii_lowercase();
    let log = match type_desc.map(|t| t.trim().to_ascii_uppercase()) {
        Some(t) if t == "LOG" => true,
        Some(t) if t == "ROWS" => false,
        Some(_) => return ObjectKind::Other,
        None => lower.ends_with(".ldf"),
    };
    if log {
        ObjectKind::Log
    } else if database.eq_ignore_ascii_case("tempdb") {
        ObjectKind::Temp
    } else if names_index(name) || names_index(&lower) {
        ObjectKind::Index
    } else {
        ObjectKind::Data
    }
}

/// The kind of an Oracle file from its type (DATA, TEMP, REDO when given) and tablespace.
pub fn oracle(file_type: Option<&str>, tablespace: &str) -> ObjectKind {
    let ts = tablespace.trim().to_ascii_uppercase();
    match file_type.map(|t| t.trim().to_ascii_uppercase()).as_deref() {
        Some("REDO") | Some("LOG") => return ObjectKind::Log,
        Some("TEMP") => return ObjectKind::Temp,
        _ => {}
    }
    if ts.starts_with("TEMP") {
        ObjectKind::Temp
    } else if ts.starts_with("UNDO") || ts == "SYSTEM" || ts == "SYSAUX" {
        ObjectKind::Other
    } else if names_index(&ts) {
        ObjectKind::Index
    } else {
        ObjectKind::Data
    }
}

/// The kind of a file in a database's data folder from its path: PostgreSQL's WAL, InnoDB's
/// redo, binary and Aria logs, SQL Server's .ldf and Oracle's redo files are logs; their
/// temporary files temp; a name saying index an index; the rest data.
pub fn file(path: &str) -> ObjectKind {
    let lower = path.to_ascii_lowercase();
    let name = lower.rsplit('/').next().unwrap_or(&lower);
    let log = ["pg_wal/", "pg_xlog/", "#innodb_redo/"]
        .iter()
        .any(|d| lower.contains(d))
        || ["ib_logfile", "aria_log", "redo"]
            .iter()
            .any(|p| name.starts_with(p))
        || name.ends_with(".ldf")
        || name.contains("-bin.");
    if log {
        ObjectKind::Log
    } else if lower.contains("pgsql_tmp")
        || lower.contains("#innodb_temp")
        || name.starts_with("ibtmp")
        || name.starts_with("temp")
    {
        ObjectKind::Temp
    } else if names_index(name) {
        ObjectKind::Index
    } else {
        ObjectKind::Data
    }
}

/// Whether a name says it holds indexes (IDX, INDEX, IX_ as a word part).
fn names_index(name: &str) -> bool {
    let n = name.to_ascii_uppercase();
    n.contains("INDEX")
        || n.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w == "IDX" || w == "IX" || w == "NCI")
        || n.ends_with("_IDX")
        || n.contains("_IDX")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_of_a_data_folder() {
        assert_eq!(file("pg_wal/000000010000000000000001"), ObjectKind::Log);
        assert_eq!(file("#innodb_redo/#ib_redo9"), ObjectKind::Log);
        assert_eq!(file("mysql-bin.000003"), ObjectKind::Log);
        assert_eq!(file("base/pgsql_tmp/pgsql_tmp123.0"), ObjectKind::Temp);
        assert_eq!(file("ibtmp1"), ObjectKind::Temp);
        assert_eq!(file("shop/orders_idx.ibd"), ObjectKind::Index);
        assert_eq!(file("base/16384/16390"), ObjectKind::Data);
    }

    #[test]
    fn kinds() {
        assert_eq!(
            sqlserver("tpce", None, "log", "C:\\x\\tpce_log.ldf"),
            ObjectKind::Log
        );
        assert_eq!(
            sqlserver("tempdb", Some("ROWS"), "tempdev", "t.mdf"),
            ObjectKind::Temp
        );
        assert_eq!(
            sqlserver("tpce", Some("ROWS"), "tpce_idx1", "i.ndf"),
            ObjectKind::Index
        );
        assert_eq!(
            sqlserver("tpce", Some("ROWS"), "Customer1", "c.ndf"),
            ObjectKind::Data
        );
        assert_eq!(oracle(Some("DATA"), "TEMP"), ObjectKind::Temp);
        assert_eq!(oracle(None, "BROKER_IDX"), ObjectKind::Index);
        assert_eq!(oracle(Some("REDO"), ""), ObjectKind::Log);
        assert_eq!(oracle(Some("DATA"), "UNDOTBS1"), ObjectKind::Other);
    }
}
