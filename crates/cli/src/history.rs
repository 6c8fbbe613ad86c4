//! The history as the commands use it; the work is dbio-store's (`lookup`) and
//! dbio-report's (`entry`). Here: the `--db/--label/--no-store` flags handed over, and
//! saying on stderr where a result was stored.

use crate::error::CliError;
use dbio_report::deliver::DeliverError;
pub use dbio_report::entry::{run_entry, spilled_sweep_entry, suite_entry};
pub use dbio_store::lookup::{find, lookup_inputs, no_history, open_existing};
use dbio_store::{NewEntry, Store};

/// The file results go to, unless `--no-store`.
pub fn stored_in(a: &dbio_spec::out_args::StoreArgs) -> Option<String> {
    dbio_store::lookup::stored_in(a.db.as_deref(), a.no_store)
}

/// The history results go to, unless `--no-store` (None then). A `--label` that `dbio show`
/// could not find again (empty, or digits that read as a run id) is refused first.
/// A team store whose server cannot be reached is a warning: the work goes on unstored.
pub fn store_unless(a: &dbio_spec::out_args::StoreArgs) -> Result<Option<Store>, CliError> {
    let (store, warning) =
        dbio_store::lookup::store_unless(a.db.as_deref(), a.label.as_deref(), a.no_store)?;
    warning.inspect(|w| eprintln!("dbio: warning: {w}"));
    Ok(store)
}

/// Stores `entry` and says where on stderr (unless quiet); a failure to store is a warning:
/// the result has been printed and written already.
pub fn keep(store: &Store, entry: &NewEntry, quiet: bool, cmd: &str) {
    said(store, dbio_report::deliver::keep(store, entry), quiet, cmd);
}

/// Says on stderr where a result was stored (unless quiet), or, as a warning, why it was not.
pub fn said(store: &Store, kept: Result<i64, DeliverError>, quiet: bool, cmd: &str) {
    match kept {
        Ok(id) if !quiet => eprintln!("{cmd}: stored as run {id} in {}", store.path().display()),
        Ok(_) => {}
        Err(e) => eprintln!("{cmd}: warning: {e}"),
    }
}
