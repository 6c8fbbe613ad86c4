//! The exact queries whose output `dbio advise` reads, per system (`dbio advise --queries`).

/// Every query, with what to do with its output.
pub const QUERIES: &str = r#"-- dbio advise reads these. Live sources (--url) run them itself, read-only; for SQL Server
-- and Oracle, run them and save the result as CSV with a header row (two exports, before and
-- after the busy period, give the delta; one export counts from the server's start).

-- SQL Server: sys.dm_io_virtual_file_stats joined with sys.master_files (save as CSV)
SELECT DB_NAME(vfs.database_id) AS database_name, vfs.file_id, mf.name, mf.physical_name,
       mf.type_desc, vfs.size_on_disk_bytes, vfs.num_of_reads, vfs.num_of_bytes_read,
       vfs.io_stall_read_ms, vfs.num_of_writes, vfs.num_of_bytes_written,
       vfs.io_stall_write_ms, vfs.io_stall, vfs.sample_ms
FROM sys.dm_io_virtual_file_stats(NULL, NULL) AS vfs
JOIN sys.master_files AS mf
  ON mf.database_id = vfs.database_id AND mf.file_id = vfs.file_id
ORDER BY vfs.io_stall DESC;
-- (The fn_virtualfilestats form of seed 002's Figure 5 is read too: dbname, FileName,
--  FilePath, FileSize in 8 KiB pages, NumberReads, NumberWrites, BytesRead, BytesWritten,
--  IOStallMS, and optionally PerCentReads, PerCentWrites, IOStallPCT.)

-- Oracle: V$FILESTAT / V$TEMPSTAT with V$DATAFILE / V$TEMPFILE (save as CSV; times in centiseconds)
SELECT 'DATA' AS FILE_TYPE, f.FILE#, t.NAME AS TABLESPACE_NAME, d.NAME, d.BYTES, d.BLOCK_SIZE,
       f.PHYRDS, f.PHYWRTS, f.PHYBLKRD, f.PHYBLKWRT, f.READTIM, f.WRITETIM,
       f.SINGLEBLKRDS, f.SINGLEBLKRDTIM,
       ROUND((SYSDATE - i.STARTUP_TIME) * 86400) AS SECONDS_SINCE_STARTUP,
       TO_CHAR(i.STARTUP_TIME, 'YYYY-MM-DD HH24:MI:SS') AS STARTUP_TIME
FROM V$FILESTAT f JOIN V$DATAFILE d ON d.FILE# = f.FILE#
JOIN V$TABLESPACE t ON t.TS# = d.TS# CROSS JOIN V$INSTANCE i
UNION ALL
SELECT 'TEMP', f.FILE#, t.NAME, d.NAME, d.BYTES, d.BLOCK_SIZE,
       f.PHYRDS, f.PHYWRTS, f.PHYBLKRD, f.PHYBLKWRT, f.READTIM, f.WRITETIM,
       f.SINGLEBLKRDS, f.SINGLEBLKRDTIM,
       ROUND((SYSDATE - i.STARTUP_TIME) * 86400), TO_CHAR(i.STARTUP_TIME, 'YYYY-MM-DD HH24:MI:SS')
FROM V$TEMPSTAT f JOIN V$TEMPFILE d ON d.FILE# = f.FILE#
JOIN V$TABLESPACE t ON t.TS# = d.TS# CROSS JOIN V$INSTANCE i;
-- Oracle AWR: the "File IO Stats" section of the text report (@?/rdbms/admin/awrrpt.sql,
-- report type text) is read as it is; AWR gives no file sizes, so add --sizes FILE with the
-- output of: SELECT NAME, BYTES FROM V$DATAFILE UNION ALL SELECT NAME, BYTES FROM V$TEMPFILE;

-- PostgreSQL (--url postgres://…), in one read-only transaction
SELECT current_setting('track_io_timing') = 'on', current_setting('block_size')::bigint,
       pg_postmaster_start_time()::text, current_database()::text,
       current_setting('server_version_num')::int, current_setting('track_wal_io_timing') = 'on';
SELECT t.schemaname::text, t.relname::text, coalesce(t.heap_blks_read, 0),
       coalesce(t.toast_blks_read, 0) + coalesce(t.tidx_blks_read, 0), pg_relation_size(t.relid),
       CASE WHEN c.reltoastrelid <> 0 THEN pg_total_relation_size(c.reltoastrelid) END
FROM pg_statio_user_tables t JOIN pg_class c ON c.oid = t.relid ORDER BY 1, 2;
SELECT schemaname::text, indexrelname::text, relname::text, coalesce(idx_blks_read, 0),
       pg_relation_size(indexrelid)
FROM pg_statio_user_indexes ORDER BY 1, 2;
SELECT blks_read, blk_read_time, blk_write_time, active_time, stats_reset
FROM pg_stat_database WHERE datname = current_database();
SELECT wal_bytes::float8, wal_write, wal_write_time + wal_sync_time,
       (SELECT coalesce(sum(size), 0)::bigint FROM pg_ls_waldir())   -- needs pg_monitor
FROM pg_stat_wal;

-- MariaDB / MySQL (--url mysql://… or mariadb://…), session READ ONLY; needs performance_schema = ON
SELECT @@performance_schema;
SHOW GLOBAL STATUS LIKE 'Uptime';
SELECT FILE_NAME, EVENT_NAME, COUNT_READ, SUM_TIMER_READ, SUM_NUMBER_OF_BYTES_READ,
       COUNT_WRITE, SUM_TIMER_WRITE, SUM_NUMBER_OF_BYTES_WRITE
FROM performance_schema.file_summary_by_instance;           -- timers in picoseconds
SELECT TABLE_SCHEMA, TABLE_NAME, DATA_LENGTH, INDEX_LENGTH, DATA_FREE
FROM information_schema.TABLES WHERE DATA_LENGTH IS NOT NULL;
SELECT NAME, FILE_SIZE FROM information_schema.INNODB_SYS_TABLESPACES;  -- MySQL: INNODB_TABLESPACES
SELECT @@innodb_log_file_size;
SELECT COUNT(*) FROM performance_schema.setup_instruments
WHERE NAME LIKE 'wait/io/file/%' AND (ENABLED = 'NO' OR TIMED = 'NO');

-- Linux: /proc/diskstats (--diskstats live, or two saved copies, each made with
--   (cat /proc/uptime; cat /proc/diskstats) > before.txt
-- so the interval is known; sizes of saved copies come from --sizes FILE)
"#;
