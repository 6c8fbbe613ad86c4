//! The paths a measuring command reads or writes, which no output file may overwrite.

/// The targets as given, also without their `role=` (the default test file when none is
/// given).
pub fn measured_paths(targets: &[String]) -> Vec<String> {
    let mut v = Vec::new();
    for t in targets {
        v.push(t.clone());
        if let Some((_, path)) = t.split_once('=') {
            v.push(path.to_string());
        }
    }
    if targets.is_empty() {
        v.push(crate::raw::DEFAULT_TARGET.to_string());
    }
    v
}
