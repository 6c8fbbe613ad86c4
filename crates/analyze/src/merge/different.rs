//! Workloads merged on purpose (`--allow-different`): which hosts ran what, for the summary.

use super::HostResult;
use dbio_model::Warning;
use serde_json::{Map, Value};

/// The job settings of a result that make its workload, as JSON fields (targets, the redo
/// log's place and the seed apart: every host has its own).
fn settings(h: &HostResult) -> Map<String, Value> {
    let mut v = serde_json::to_value(&h.result.job).unwrap_or(Value::Null);
    let Some(o) = v.as_object_mut() else {
        return Map::new();
    };
    o.remove("targets");
    o.remove("seed");
    if let Some(s) = o.get_mut("session").and_then(|s| s.as_object_mut()) {
        s.remove("log_target");
    }
    std::mem::take(o)
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
    let all: Vec<Map<String, Value>> = hosts.iter().map(settings).collect();
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
