//! Workloads merged on purpose (`--allow-different`): which hosts ran what, for the summary.

use super::host::HostResult;
use dbio_model::{JobSpec, Warning};
use serde_json::{Map, Value};

/// The job settings that make a host's workload, as the JSON fields compared between hosts.
/// What is each host's own is left out: its targets and session-mode redo log (each host's
/// goes beside its own data), its seed (hosts draw their own offsets) and which part of a split
/// region it took (`split.part` is zeroed; the number of parts stays).
pub(super) fn workload(job: &JobSpec) -> Map<String, Value> {
    let mut job = job.clone();
    if let Some(s) = job.region.split.as_mut() {
        s.part = 0;
    }
    let Value::Object(mut o) = serde_json::to_value(&job).expect("a job serializes") else {
        return Map::new();
    };
    o.remove("targets");
    o.remove("seed");
    if let Some(s) = o.get_mut("session").and_then(|s| s.as_object_mut()) {
        s.remove("log_target");
    }
    o
}

/// One differing field: "job.qd: 32 on a, b; 8 on c" (values in the order first met).
fn field_line(key: &str, values: &[(&str, Option<&Value>)]) -> String {
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for (host, v) in values {
        let shown = v.map_or("absent".to_string(), |v| v.to_string());
        match groups.iter_mut().find(|(s, _)| *s == shown) {
            Some((_, hosts)) => hosts.push(host),
            None => groups.push((shown, vec![host])),
        }
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|(v, hosts)| format!("{v} on {}", hosts.join(", ")))
        .collect();
    format!("job.{key}: {}", parts.join("; "))
}

/// A `different-workloads` warning saying, for every setting the hosts ran differently, which
/// hosts ran which value; None when they all ran one workload.
pub fn warning(hosts: &[HostResult]) -> Option<Warning> {
    let all: Vec<Map<String, Value>> = hosts.iter().map(|h| workload(&h.result.job)).collect();
    let mut keys: Vec<&String> = all.iter().flat_map(|m| m.keys()).collect();
    keys.sort();
    keys.dedup();
    let lines: Vec<String> = keys
        .into_iter()
        .filter(|k| all.iter().any(|m| m.get(*k) != all[0].get(*k)))
        .map(|k| {
            let values: Vec<(&str, Option<&Value>)> = hosts
                .iter()
                .zip(&all)
                .map(|(h, m)| (h.name.as_str(), m.get(k)))
                .collect();
            field_line(k, &values)
        })
        .collect();
    if lines.is_empty() {
        return None;
    }
    Some(Warning {
        code: "different-workloads".into(),
        message: format!(
            "the hosts ran different workloads, merged on purpose (--allow-different), so the totals add up unlike work: {}",
            lines.join("; ")
        ),
    })
}
