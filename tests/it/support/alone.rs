//! The one lock of the tests that need the machine alone: windows (one display, one compositor),
//! the Slurm cluster's jobs (timed waits on a one-node cluster) and other timing-sensitive runs.
//! The harness runs tests on several threads; a test that must not share the two cores takes
//! [`machine`] first and holds the guard to its end.

use std::sync::{Mutex, MutexGuard};

static MACHINE: Mutex<()> = Mutex::new(());

/// Waits until no other machine-alone test runs. A test that panicked while holding the lock does
/// not poison it for the next: its failure is reported on its own.
pub fn machine() -> MutexGuard<'static, ()> {
    MACHINE.lock().unwrap_or_else(|e| e.into_inner())
}
