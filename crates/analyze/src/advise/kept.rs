//! The advice as the history keeps it: of 100,000 objects the whole result is about 100 MB
//! of JSON, so the history keeps the first objects, list entries and skew points.

use dbio_model::advise::{AdviseResult, Placement, Skew, SkewPoint};

/// Objects, list entries and skew points the history keeps of one advice: the text and
/// HTML show fewer (the HTML 500 rows), and 100,000 objects made 103 MB of JSON per run.
pub const KEPT: usize = 1000;

/// The advice as the history keeps it when it has more than `keep` objects, list entries
/// or skew points (None when it has not): the first `keep` of each, the skew curve
/// through `keep` + 1 of its points, and a note saying so; totals, skew point and gain are
/// of the whole estate, and the summary is stored as printed.
pub fn kept(r: &AdviseResult, keep: usize) -> Option<AdviseResult> {
    let p = r.placement.as_ref();
    let lists = p.map_or(0, |p| p.to_move.len().max(p.to_leave.len()));
    let points = r.skew.as_ref().map_or(0, |k| k.points.len());
    if r.objects.len().max(lists) <= keep && points <= keep + 1 {
        return None;
    }
    let mut k = AdviseResult {
        schema: r.schema.clone(),
        dbio_version: r.dbio_version.clone(),
        made_at: r.made_at.clone(),
        source: r.source.clone(),
        notes: r.notes.clone(),
        ranked_by: r.ranked_by.clone(),
        totals: r.totals.clone(),
        objects: r.objects.iter().take(keep).cloned().collect(),
        skew: r.skew.as_ref().map(|s| Skew {
            points: through(&s.points, keep),
            sentence: s.sentence.clone(),
            ..*s
        }),
        placement: p.map(|p| Placement {
            to_move: p.to_move.iter().take(keep).cloned().collect(),
            to_leave: p.to_leave.iter().take(keep).cloned().collect(),
            method: p.method.clone(),
            gain: p.gain.clone(),
            ..*p
        }),
    };
    k.notes.push(format!(
        "the history keeps the first {keep} of the {} objects (and of each list) and the skew curve through {} points; totals, skew and gain are of all; write --json FILE for every object",
        r.objects.len(),
        keep + 1
    ));
    Some(k)
}

/// `keep` + 1 points of a curve, evenly spaced, its first and last among them.
fn through(points: &[SkewPoint], keep: usize) -> Vec<SkewPoint> {
    let n = points.len();
    if n <= keep + 1 {
        return points.to_vec();
    }
    (0..=keep).map(|i| points[i * (n - 1) / keep]).collect()
}
