//! `dbio advise` between its two libraries: the counts dbio-db gathered, ranked and placed
//! by dbio-analyze.

use dbio_analyze::advise::request::{self, Counted, Plan};
use dbio_analyze::advise::Latency;
use dbio_db::gather::Gathered;
use dbio_model::advise::{AdviseResult, SourceInfo};

/// The advice of `plan` on the gathered counts `g`, with the latency model `latency`.
pub fn analyse(plan: &Plan, latency: Latency, g: Gathered) -> AdviseResult {
    request::analyse(plan, latency, counted(g))
}

/// The gathered counts as dbio-analyze takes them.
fn counted(g: Gathered) -> Counted {
    Counted {
        source: SourceInfo {
            system: g.system,
            name: g.name,
            interval_secs: g.counts.secs,
            since_start: g.counts.since_start,
        },
        objects: g.counts.objects,
        notes: g.counts.notes,
        io_wait: g.counts.io_wait.map(|w| (w.io_ms, w.busy_ms)),
        interrupted: g.interrupted,
    }
}
