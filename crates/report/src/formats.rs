//! Which layout a run's result is printed and written in: dbio's own, or another tool's
//! (`--output-format sqlio|diskspd|diskspd-xml`, `--json-format fio`), so that scripts
//! parsing those tools' output keep working.

use crate::fio_json::{to_fio_json, FioJobs};
use crate::fio_log::FioLogs;
use crate::fio_percentiles::Percentiles;
use dbio_model::RunResult;

/// The layout of a run's summary on the terminal.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SummaryLayout {
    /// dbio's own summary.
    #[default]
    Dbio,
    /// SQLIO's throughput lines and millisecond histogram.
    Sqlio,
    /// DiskSpd's per-thread tables and latency percentiles.
    Diskspd,
    /// DiskSpd's XML results (`-Rxml`): the `<Results>` document alone.
    DiskspdXml,
}

/// The layout of a run's `--json`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum JsonLayout {
    /// dbio's own JSON.
    #[default]
    Dbio,
    /// fio's json+ (jobs[].read|write with clat_ns percentiles and bins), one entry per
    /// stream of a run of several.
    Fio,
    /// fio's json+ with group_reporting: one entry for all the streams of a run.
    FioGroup,
}

/// Why the layouts asked for cannot be given; Display names the flags and what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// Other tools' layouts describe one host's run, not hosts' results merged.
    #[error("--output-format and --json-format apply to a run on this host; merge the hosts' results (dbio merge) first")]
    OnHosts,
    /// `--json-format` without `--json`: nothing would be written in it.
    #[error("--json-format {0}: give --json FILE (or --json - for stdout) to write it")]
    NoJson(&'static str),
}

/// The layouts a run is printed and written in.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Layouts {
    pub summary: SummaryLayout,
    pub json: JsonLayout,
    /// SQLIO's `-B` letter when `dbio sqlio` translated the run (see [`crate::sqlio::to_sqlio_as`]).
    pub sqlio_buffering: Option<char>,
    /// The command line as typed, its words (DiskSpd's text shows it); empty when unknown.
    pub typed: Vec<String>,
    /// What fio's outputs need besides their layout.
    pub fio: FioExtras,
}

/// fio's outputs beyond the layout: what `dbio fio` translates from a job file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FioExtras {
    /// fio's percentile_list for `clat_ns` (None: fio's default list).
    pub percentiles: Option<Percentiles>,
    /// fio's log files to write (`--fio-log`).
    pub logs: Option<FioLogs>,
    /// The file this run writes its fio JSON to, in place of `--json`, as one part of a
    /// document joined from several runs (see [`crate::fio_join`]).
    pub part: Option<String>,
}

impl Layouts {
    /// The layouts named by `--output-format` (dbio, sqlio, diskspd, diskspd-xml) and
    /// `--json-format` (dbio, fio, fio-group); a name not among them means dbio's own (the flags' parser
    /// refuses it).
    pub fn named(output_format: &str, json_format: &str) -> Layouts {
        let summary = match output_format {
            "sqlio" => SummaryLayout::Sqlio,
            "diskspd" => SummaryLayout::Diskspd,
            "diskspd-xml" => SummaryLayout::DiskspdXml,
            _ => SummaryLayout::Dbio,
        };
        let json = match json_format {
            "fio" => JsonLayout::Fio,
            "fio-group" => JsonLayout::FioGroup,
            _ => JsonLayout::Dbio,
        };
        Layouts {
            summary,
            json,
            ..Layouts::default()
        }
    }

    /// These layouts, with fio's outputs: its `percentiles`, its `logs`, and the `part` of
    /// a joined document this run writes (see [`FioExtras`]).
    pub fn with_fio(
        self,
        percentiles: Option<Percentiles>,
        logs: Option<FioLogs>,
        part: Option<String>,
    ) -> Layouts {
        let fio = FioExtras {
            percentiles,
            logs,
            part,
        };
        Layouts { fio, ..self }
    }

    /// These layouts, for a run SQLIO's `-B` letter asked for (`dbio sqlio`).
    pub fn with_sqlio_buffering(self, buffering: Option<char>) -> Layouts {
        Layouts {
            sqlio_buffering: buffering,
            ..self
        }
    }

    /// These layouts, knowing the command line as typed (`std::env::args_os()`; words that
    /// are not UTF-8 are shown with U+FFFD in their place).
    pub fn typed<W: AsRef<std::ffi::OsStr>>(self, words: impl IntoIterator<Item = W>) -> Layouts {
        let typed = words
            .into_iter()
            .map(|w| w.as_ref().to_string_lossy().into_owned())
            .collect();
        Layouts { typed, ..self }
    }

    /// Whether both are dbio's own.
    pub fn is_dbio(&self) -> bool {
        self.summary == SummaryLayout::Dbio && self.json == JsonLayout::Dbio
    }

    /// Whether the summary is a document for programs (DiskSpd's XML), so that nothing
    /// else may go where it is printed.
    pub fn is_document(&self) -> bool {
        self.summary == SummaryLayout::DiskspdXml
    }

    /// Refuses layouts that would print nothing of what was asked: another tool's layout of
    /// a run `on_hosts`, or a JSON layout without `--json` (`json_given`).
    pub fn check(&self, on_hosts: bool, json_given: bool) -> Result<(), LayoutError> {
        if !self.is_dbio() && on_hosts {
            return Err(LayoutError::OnHosts);
        }
        match self.json {
            JsonLayout::Fio if !json_given => Err(LayoutError::NoJson("fio")),
            JsonLayout::FioGroup if !json_given => Err(LayoutError::NoJson("fio-group")),
            _ => Ok(()),
        }
    }

    /// The JSON to write when it is not dbio's own: fio's json+ made from `r` (None: dbio's,
    /// written as it is made).
    pub fn fio_json(&self, r: &RunResult) -> Option<String> {
        let pct = self.fio.percentiles.as_ref().map_or(&[][..], |p| &p.0[..]);
        match self.json {
            JsonLayout::Fio => Some(to_fio_json(r, FioJobs::PerJob, pct)),
            JsonLayout::FioGroup => Some(to_fio_json(r, FioJobs::Group, pct)),
            JsonLayout::Dbio => None,
        }
    }

    /// The summary to print: dbio's own as given (`dbio_summary`), or another tool's layout.
    pub fn summary(&self, r: &RunResult, dbio_summary: &str) -> String {
        match self.summary {
            SummaryLayout::Sqlio => crate::sqlio::to_sqlio_as(r, self.sqlio_buffering),
            SummaryLayout::Diskspd => crate::diskspd::to_diskspd_typed(r, &self.typed),
            SummaryLayout::DiskspdXml => crate::diskspd_xml::to_diskspd_xml_typed(r, &self.typed),
            SummaryLayout::Dbio => dbio_summary.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed fixture run.
    fn run() -> RunResult {
        serde_json::from_str(include_str!("../tests/fixtures/run.json")).expect("the fixture run")
    }

    #[test]
    fn each_name_picks_its_layout_and_dbio_keeps_the_text_given() {
        let r = run();
        let own = Layouts::named("dbio", "dbio");
        assert!(own.is_dbio());
        assert_eq!(own.fio_json(&r), None);
        assert_eq!(own.summary(&r, "S"), "S");
        let other = Layouts::named("sqlio", "fio");
        assert!(!other.is_dbio());
        assert_eq!(other.summary(&r, "S"), crate::sqlio::to_sqlio(&r));
        assert_eq!(
            other.fio_json(&r),
            Some(to_fio_json(&r, FioJobs::PerJob, &[]))
        );
        let group = Layouts::named("dbio", "fio-group");
        assert_eq!(group.json, JsonLayout::FioGroup);
        assert_eq!(
            group.fio_json(&r),
            Some(to_fio_json(&r, FioJobs::Group, &[]))
        );
        let diskspd = Layouts::named("diskspd", "dbio");
        assert_eq!(diskspd.summary, SummaryLayout::Diskspd);
        assert_eq!(diskspd.summary(&r, "S"), crate::diskspd::to_diskspd(&r));
        let xml = Layouts::named("diskspd-xml", "dbio");
        assert!(xml.is_document() && !diskspd.is_document() && !own.is_document());
        assert_eq!(xml.summary(&r, "S"), crate::diskspd_xml::to_diskspd_xml(&r));
        let typed = diskspd.typed(["dbio", "diskspd", "-b8K", "t"]);
        assert!(!typed.is_dbio());
        let text = typed.summary(&r, "S");
        assert!(
            text.starts_with("\nCommand Line: dbio diskspd -b8K t\n"),
            "{text}"
        );
        assert_eq!(Layouts::named("other", "other"), Layouts::default());
        // SQLIO's -B letter of a `dbio sqlio` run changes only SQLIO's layout.
        let asked = own.clone().with_sqlio_buffering(Some('N'));
        assert!(asked.is_dbio() && asked.check(true, false).is_ok());
        assert_eq!(asked.summary(&r, "S"), "S");
    }

    #[test]
    fn layouts_that_would_print_nothing_asked_are_refused_by_flag() {
        let own = Layouts::default();
        assert_eq!(own.check(true, false), Ok(()));
        let sqlio = Layouts::named("sqlio", "dbio");
        assert_eq!(sqlio.check(false, false), Ok(()));
        assert_eq!(sqlio.check(true, true), Err(LayoutError::OnHosts));
        let fio = Layouts::named("dbio", "fio");
        assert_eq!(fio.check(false, true), Ok(()));
        let e = fio.check(false, false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--json-format fio: give --json FILE (or --json - for stdout) to write it"
        );
        assert_eq!(fio.check(true, false), Err(LayoutError::OnHosts));
    }
}
