//! Result JSON as `dbio show`, `compare`, `merge` and `report` read it back: run, sweep and
//! suite results, read by the public reading function and then summarised, compared with
//! itself and merged as two hosts.
#![no_main]

use dbio_analyze::merge::{merge, HostResult, MergeOptions};
use dbio_report::item::Item;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(json) = std::str::from_utf8(data) else {
        return;
    };
    let Some(item) = Item::from_json("fuzz", json) else {
        return;
    };
    let _ = dbio_report::markdown::report(std::slice::from_ref(&item));
    for r in item.runs() {
        let _ = dbio_report::text::summary(r);
        let _ = dbio_report::compare::compare(r, r, ("a", "b"), Some((2.0, 1.0)));
        let hosts = [
            HostResult {
                name: "a".into(),
                result: r.clone(),
            },
            HostResult {
                name: "b".into(),
                result: r.clone(),
            },
        ];
        if let Ok(m) = merge(&hosts, MergeOptions::default()) {
            let _ = dbio_report::text::summary(&m);
        }
    }
});
