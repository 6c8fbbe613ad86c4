//! `--device-latency` in a run: the disks under the targets checked before anything is
//! prepared, the probe started before the workers and counting from the end of the ramp,
//! its figures (or a warning saying why there are none) at the end of the window.

use crate::error::RunError;
use dbio_model::device_latency::DeviceLatencyReport;
use dbio_model::{JobSpec, Warning};
use dbio_trace::device::Device;
use dbio_trace::probe::{disks_of, Probe};

/// The disks to trace for `specs` (None without `--device-latency`).
pub(crate) fn disks(specs: &[&JobSpec]) -> Result<Option<Vec<Device>>, RunError> {
    if !specs.iter().any(|s| s.device_latency) {
        return Ok(None);
    }
    let targets: Vec<String> = specs.iter().flat_map(|s| s.targets.clone()).collect();
    disks_of(&targets).map(Some).map_err(RunError::Target)
}

/// Starts tracing `disks` (when asked).
pub(crate) fn start(disks: Option<Vec<Device>>) -> Result<Option<Probe>, RunError> {
    disks
        .map(|d| Probe::start(&d))
        .transpose()
        .map_err(RunError::Target)
}

/// The probe's figures over the window that ended now; a warning where they are missing or
/// incomplete.
pub(crate) fn finish(
    probe: Option<Probe>,
    warnings: &mut Vec<Warning>,
) -> Option<DeviceLatencyReport> {
    let warn = |message: String| Warning {
        code: "device-latency".into(),
        message,
    };
    match probe?.finish(dbio_engine::sys::monotonic_ns()) {
        Ok(r) => {
            if r.lost_events > 0 {
                warnings.push(warn(format!("the kernel's trace buffers lost {} events: the device-latency figures miss requests", r.lost_events)));
            }
            Some(r)
        }
        Err(e) => {
            warnings.push(warn(format!("{e}: the run has no device-latency figures")));
            None
        }
    }
}
