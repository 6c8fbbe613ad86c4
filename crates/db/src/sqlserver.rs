//! SQL Server exports: `sys.dm_io_virtual_file_stats` joined with `sys.master_files` in
//! the DMV's own column names, or the form of seed 002's Figure 5 (fn_virtualfilestats:
//! NumberReads, NumberWrites, BytesRead, BytesWritten, IOStallMS, FileSize in 8 KiB pages).

use crate::error::DbError;
use crate::kind;
use crate::snapshot::Snapshot;
use crate::table::Table;
use dbio_model::advise::ObjectIo;

const DMV_REQUIRED: &[&str] = &[
    "database_name",
    "file_id",
    "name",
    "physical_name",
    "type_desc",
    "size_on_disk_bytes",
    "num_of_reads",
    "num_of_bytes_read",
    "io_stall_read_ms",
    "num_of_writes",
    "num_of_bytes_written",
    "io_stall_write_ms",
    "io_stall",
    "sample_ms",
];
const DMV_OPTIONAL: &[&str] = &[
    "database_id",
    "file_handle",
    "io_stall_queued_read_ms",
    "io_stall_queued_write_ms",
    "pdw_node_id",
];
const FIG5_REQUIRED: &[&str] = &[
    "dbname",
    "filename",
    "filesize",
    "numberreads",
    "numberwrites",
    "bytesread",
    "byteswritten",
    "iostallms",
];
const FIG5_OPTIONAL: &[&str] = &[
    "filepath",
    "percentreads",
    "percentwrites",
    "isstallpct",
    "iostallpct",
    "dbid",
    "fileid",
];

/// Whether a CSV header is one of the SQL Server forms.
pub fn detect(header: &str) -> bool {
    let h = header.to_ascii_lowercase();
    h.contains("num_of_reads") || h.contains("numberreads")
}

/// Reads a SQL Server export of either form.
pub fn parse(text: &str, file: &str) -> Result<Snapshot, DbError> {
    let t = Table::parse(text, file)?;
    if t.has("num_of_reads") {
        dmv(&t, file)
    } else {
        figure5(&t, file)
    }
}

fn dmv(t: &Table, file: &str) -> Result<Snapshot, DbError> {
    t.check("SQL Server DMV", DMV_REQUIRED, DMV_OPTIONAL)?;
    let mut s = Snapshot::new("sqlserver", file);
    let mut sample = 0u64;
    for r in t.rows() {
        let db = r.text("database_name");
        let name = r.text("name");
        let k = kind::sqlserver(db, Some(r.text("type_desc")), name, r.text("physical_name"));
        let mut o = ObjectIo::new(format!("{db}.{name}"), k);
        o.size_bytes = Some(r.count("size_on_disk_bytes")?);
        o.reads = r.count("num_of_reads")?;
        o.writes = r.count("num_of_writes")?;
        o.bytes_read = r.count("num_of_bytes_read")?;
        o.bytes_written = r.count("num_of_bytes_written")?;
        o.read_ms = Some(r.num("io_stall_read_ms")?);
        o.write_ms = Some(r.num("io_stall_write_ms")?);
        sample = sample.max(r.count("sample_ms")?);
        s.objects.push(o);
    }
    s.counting_ms = (sample > 0).then_some(sample);
    Ok(s)
}

fn figure5(t: &Table, file: &str) -> Result<Snapshot, DbError> {
    t.check(
        "SQL Server fn_virtualfilestats",
        FIG5_REQUIRED,
        FIG5_OPTIONAL,
    )?;
    let mut s = Snapshot::new("sqlserver", file);
    for r in t.rows() {
        let db = r.text("dbname");
        let name = r.text("filename");
        let k = kind::sqlserver(db, None, name, r.text("filepath"));
        let mut o = ObjectIo::new(format!("{db}.{name}"), k);
        o.size_bytes = Some(r.bytes_of("filesize", 8192)?);
        o.reads = r.count("numberreads")?;
        o.writes = r.count("numberwrites")?;
        o.bytes_read = r.count("bytesread")?;
        o.bytes_written = r.count("byteswritten")?;
        o.stall_ms = Some(r.num("iostallms")?);
        s.objects.push(o);
    }
    s.notes.push("fn_virtualfilestats form: FileSize read as 8 KiB pages (sys.master_files.size); IOStallMS is reads and writes together; no sample_ms, so rates per second are not given".into());
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// fn_virtualfilestats' header, as the seed's Figure 5 has it.
    const HEAD: &str = ",dbname,FileName,FilePath,FileSize,NumberReads,NumberWrites,BytesRead,BytesWritten,PerCentReads,PerCentWrites,IOStallMS,ISStallPCT\n";

    /// Found by the `exports` fuzz target: a FileSize of 4381e40 pages overflowed its bytes
    /// (a panic in a debug build, a wrong size in a release one); it is refused by name.
    #[test]
    fn a_size_past_64_bits_is_refused_by_column() {
        let row = |size: &str| {
            format!("{HEAD}48,tpce,Broker4,C:\\B\\Broker4.ndf,{size},100,1,2,3,73,26,10,11\n")
        };
        let ok = parse(&row("4381440"), "fig5.csv").unwrap();
        assert_eq!(ok.objects[0].size_bytes, Some(4381440 * 8192));
        let err = parse(&row("4381e40"), "fig5.csv").unwrap_err().to_string();
        assert!(err.contains("column filesize is '4381e40'"), "{err}");
        assert!(err.contains("than 64 bits of bytes hold"), "{err}");
    }
}
