//! Parsing of the flags that shape a run's timeline: `--steady` (with `--steady-window` and
//! `--steady-max`) and `--burst ON/PERIOD`.

use crate::error::SpecError;
use dbio_model::units::parse_duration;
use dbio_model::{Burst, Steady, SteadyMetric, SteadyTest};

/// Settling window when `--steady-window` is not given, in seconds.
pub const DEFAULT_WINDOW_SECS: u32 = 10;
/// Cap on settling when `--steady-max` is not given, in seconds.
pub const DEFAULT_MAX_SECS: u32 = 120;

const STEADY_HELP: &str = "use iops:X%, iops_slope:X%, bw:X% or bw_slope:X%, e.g. iops:2%";

/// Parses `iops:2%`, `iops_slope:0.3%`, `bw:5%` or `bw_slope:1%` with the window and cap.
pub fn parse_steady(v: &str, window: Option<&str>, max: Option<&str>) -> Result<Steady, SpecError> {
    let bad = |why: &str| format!("--steady {v}: {why}; {STEADY_HELP}");
    let (kind, limit) = v.split_once(':').ok_or_else(|| bad("no limit"))?;
    let (metric, test) = match kind {
        "iops" => (SteadyMetric::Iops, SteadyTest::Spread),
        "iops_slope" => (SteadyMetric::Iops, SteadyTest::Slope),
        "bw" => (SteadyMetric::Bw, SteadyTest::Spread),
        "bw_slope" => (SteadyMetric::Bw, SteadyTest::Slope),
        _ => return Err(bad("unknown criterion").into()),
    };
    let pct = limit
        .trim()
        .strip_suffix('%')
        .ok_or_else(|| bad("give the limit in percent of the mean, with %"))?;
    let limit_pct: f64 = pct.trim().parse().map_err(|_| bad("not a number"))?;
    if !(0.0..=100.0).contains(&limit_pct) {
        return Err(bad("the limit must be 0 % to 100 %").into());
    }
    let secs = |flag: &str, v: Option<&str>, default: u32| -> Result<u32, SpecError> {
        let Some(v) = v else { return Ok(default) };
        let d = parse_duration(v).map_err(|e| format!("--{flag}: {e}"))?;
        let s = d.as_secs_f64();
        if s.fract() != 0.0 || s > u32::MAX as f64 {
            return Err(format!(
                "--{flag} {v}: give whole seconds (samples are taken every second), e.g. 10s"
            )
            .into());
        }
        Ok(s as u32)
    };
    let window_secs = secs("steady-window", window, DEFAULT_WINDOW_SECS)?;
    let max_secs = secs("steady-max", max, DEFAULT_MAX_SECS)?;
    if window_secs < 2 {
        return Err(format!(
            "--steady-window {}: the window needs at least 2 one-second samples; use e.g. 10s",
            window.unwrap_or_default()
        )
        .into());
    }
    if window_secs > max_secs {
        return Err(format!(
            "--steady-window {window_secs}s is longer than --steady-max {max_secs}s, so it could never fill; raise --steady-max or shorten the window"
        ).into());
    }
    Ok(Steady {
        metric,
        test,
        limit_pct,
        window_secs,
        max_secs,
    })
}

/// Parses `ON/PERIOD`, e.g. `2s/10s`: I/O during the first ON of every PERIOD.
pub fn parse_burst(v: &str) -> Result<Burst, SpecError> {
    let bad = |why: String| format!("--burst {v}: {why}; write ON/PERIOD, e.g. 2s/10s");
    let (on, period) = v.split_once('/').ok_or_else(|| bad("no period".into()))?;
    let secs = |x: &str| {
        parse_duration(x)
            .map(|d| d.as_secs_f64())
            .map_err(|e| bad(e.to_string()))
    };
    let (on_secs, period_secs) = (secs(on)?, secs(period)?);
    if on_secs < 0.001 {
        return Err(bad("ON must be at least 1ms".into()).into());
    }
    if on_secs >= period_secs {
        return Err(bad(
            "ON must be shorter than PERIOD (ON equal to PERIOD is no burst: leave --burst out)"
                .into(),
        )
        .into());
    }
    Ok(Burst {
        on_secs,
        period_secs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steady_criteria() {
        let s = parse_steady("iops_slope:0.3%", Some("20s"), Some("2m")).unwrap();
        assert_eq!(
            (s.metric, s.test, s.limit_pct, s.window_secs, s.max_secs),
            (SteadyMetric::Iops, SteadyTest::Slope, 0.3, 20, 120)
        );
        let s = parse_steady("bw:5%", None, None).unwrap();
        assert_eq!((s.metric, s.test), (SteadyMetric::Bw, SteadyTest::Spread));
        assert_eq!((s.window_secs, s.max_secs), (10, 120));
        assert_eq!(parse_steady("iops:0%", None, None).unwrap().limit_pct, 0.0);
        for (v, w, m, starts) in [
            ("foo", None, None, "--steady foo: "),
            ("iops:-1%", None, None, "--steady iops:-1%: "),
            ("iops:2", None, None, "--steady iops:2: "),
            ("lat:2%", None, None, "--steady lat:2%: "),
            ("iops:x%", None, None, "--steady iops:x%: "),
            ("iops:2%", Some("1s"), None, "--steady-window 1s: "),
            ("iops:2%", Some("1.5s"), None, "--steady-window 1.5s: "),
            ("iops:2%", Some("30s"), Some("20s"), "--steady-window 30s "),
            ("iops:2%", None, Some("soon"), "--steady-max: "),
        ] {
            let e = parse_steady(v, w, m).unwrap_err().to_string();
            assert!(e.starts_with(starts), "{e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn bursts() {
        let b = parse_burst("2s/10s").unwrap();
        assert_eq!((b.on_secs, b.period_secs), (2.0, 10.0));
        let b = parse_burst("500ms/3s").unwrap();
        assert_eq!((b.on_secs, b.period_secs), (0.5, 3.0));
        for bad in ["3s/3s", "4s/3s", "0/3s", "2x/10s", "2s", "2s/10q"] {
            let e = parse_burst(bad).unwrap_err().to_string();
            assert!(e.starts_with(&format!("--burst {bad}: ")), "{e}");
        }
    }
}
