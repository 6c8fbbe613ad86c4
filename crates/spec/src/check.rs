//! The second step: a raw description checked into a job (or the streams of a multi-stream
//! profile), its profile loaded first.

use crate::error::SpecError;
use crate::profiles;
use crate::raw::RawJob;
use crate::streams::{single_stream, stream_specs};
use dbio_model::profile::Profile;
use dbio_model::{JobSpec, StreamSpec};

impl RawJob {
    /// Validates every flag, over the profile, into one JobSpec. A bad value that came from
    /// the profile is reported with the profile's name and key instead of the flag.
    pub fn check(&self) -> Result<JobSpec, SpecError> {
        let (name, p) = self.profile()?;
        single_stream(self, &name, &p)?;
        crate::job::spec_of(self, &name, &p)
    }

    /// The profile the run starts from (named, from a file, the `--stream` tables, or the
    /// default) and its name.
    pub fn profile(&self) -> Result<(String, Profile), SpecError> {
        if !self.streams.is_empty() {
            return Ok((
                profiles::STREAMS.to_string(),
                profiles::from_streams(&self.streams)?,
            ));
        }
        Ok(match (&self.profile, &self.profile_file) {
            (Some(n), _) => (n.clone(), profiles::builtin(n)?),
            (None, Some(f)) => (f.clone(), profiles::from_file(f)?),
            (None, None) => (
                profiles::DEFAULT.to_string(),
                profiles::builtin(profiles::DEFAULT)?,
            ),
        })
    }

    /// Validates every stream of the multi-stream profile `p` (named `name`); also returns
    /// notices for targets dbio chose itself (e.g. "log stream on ./dbio-testfile.log").
    pub fn streams(
        &self,
        name: &str,
        p: &Profile,
    ) -> Result<(Vec<StreamSpec>, Vec<String>), SpecError> {
        stream_specs(self, name, p)
    }

    /// The job of profile `p` (named `name`) under these flags; for a multi-stream profile,
    /// its first refusal is why it is not a single-stream one.
    pub fn check_with(&self, name: &str, p: &Profile) -> Result<JobSpec, SpecError> {
        single_stream(self, name, p)?;
        crate::job::spec_of(self, name, p)
    }
}
