//! Flags of `dbio sqlio`, `dbio diskspd` and `dbio fio`: the other tool's arguments as
//! typed (`cmd/translate.rs` reads them), and each front end's help.

use clap::Args;

/// The arguments of `dbio sqlio`, `dbio diskspd` and `dbio fio`, as typed.
#[derive(Debug, Args)]
pub struct ToolArgs {
    /// The tool's own arguments (or fio job files), then dbio's flags.
    #[arg(value_name = "ARGS", allow_hyphen_values = true, trailing_var_arg = true, num_args = 0..)]
    pub args: Vec<String>,
}

pub const SQLIO_HELP: &str = "\
SQLIO's arguments come first, then dbio's own flags (every flag of dbio run, and --dry-run):
  -kR|-kW  -t THREADS  -s SECS  -frandom|-fsequential  -o OUTSTANDING  -b KB
  -BN|-BY|-BH|-BS  -LS|-LP  -S BLOCKS  -F PARAMFILE  FILE…   (defaults -kR -t1 -s30 -b2 -BN testfile.dat)

Examples:
  dbio sqlio -kW -t2 -s10 -o8 -fsequential -b64 -BH -LS -Fparam.txt       seed 003's first run
  dbio sqlio -kR -frandom -b8 -t8 -o8 -s60 -BH -LS /mnt/data/t.dat --dry-run
  dbio sqlio -kW -frandom -b64 -t16 -o8 -s90 -BN -LS /mnt/t.dat --output-format sqlio

-BN (SQLIO's default) and -BS write through: dbio adds --sync dsync to write runs. -BY and -BS
use the file cache: --buffered. Options dbio cannot do (SQLIO's stripe pattern -f64, drive
letters) are refused by name with the reason; nothing is run then (exit status 2).";

pub const DISKSPD_HELP: &str = "\
DiskSpd's arguments come first, then dbio's own flags (every flag of dbio run, and --dry-run):
  -b SIZE  -d SECS  -W SECS  -o N  -t N|-F N  -r[ALIGN]|-s[i]  -w PCT  -Sh|-Su|-Sw|-Sb  -L
  -c SIZE  -Z|-Zr  -z[SEED]  -g N[i]  -B BASE[:LEN]  -f SIZE  -rdpctIO/REGION  -X PROFILE.xml  TARGET…
  (defaults -b64K -d10 -W5 -o2 -t1, sequential reads through the OS cache)

Examples:
  dbio diskspd -b8K -d60 -o32 -t4 -r -w25 -Sh /mnt/data/t.dat --dry-run
  dbio diskspd -c10G -b64K -d120 -o8 -t2 -s -w100 -Sh -L /mnt/log/t.dat --destroy-data
  dbio diskspd -Xprofile.xml /mnt/data/t.dat --output-format diskspd

-Sh is -Suw: O_DIRECT and write-through, so write runs get --sync dsync. Without -S DiskSpd uses
the OS cache: --buffered. #N physical drives and drive letters are refused with the Linux
path to give instead; options dbio cannot do are refused by name (exit status 2).";

pub const FIO_HELP: &str = "\
Job files come first, then dbio's own flags (every flag of dbio run, and --dry-run). Each job is
one dbio run; stonewall (and each further job file) starts the next; jobs fio would run at the
same time are refused. include FILE, ${VAR} and $ncpus/$pagesize/$mb_memory are read as fio does.

Examples:
  dbio fio ssd-test.fio --dry-run                 four dbio runs, one per stonewalled job
  dbio fio oltp.fio --destroy-data --json-format fio --json out.json   fio's json+ for fio's tools
  SIZE=4g dbio fio job.fio

fio's defaults hold where the file says nothing: rw=read, bs=4k, ioengine=psync (one I/O at a
time), direct=0 (--buffered), iodepth=1, numjobs=1.";
