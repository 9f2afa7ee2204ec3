//! The output-folder rule of `boids bench`, checked before any run starts (`boids sweep` follows
//! it too, but creates a missing folder's parents: a cluster's jobs name folders before any
//! exists):
//!
//! - an existing folder is used if a file can be created in it (checked by creating and removing
//!   a probe file, so read-only mounts and permissions are both caught, also for root), and only
//!   when it is empty — a non-empty folder (an earlier capture, anything else) is refused unless
//!   `force` (`--force`), so nothing is overwritten by accident; with `force` the capture's files
//!   there are replaced, every one of them (each capture writes all its files), and other files
//!   are left alone;
//! - a missing folder is created when its parent folder exists (only that last level is created,
//!   so a mistyped path does not grow a tree) — except the default `captures/<UTC timestamp>`,
//!   whose `captures/` is created too;
//! - anything else (a file in the way, a missing parent, no permission) is a
//!   [`BenchError::OutputDir`] naming the folder and the reason.

use std::path::{Path, PathBuf};

use crate::capture::error::BenchError;

/// Applies the rule above to `dir`; `create_parents` allows creating missing parents (used for the
/// default folder only); `force` allows a non-empty folder.
///
/// # Errors
/// [`BenchError::OutputDir`].
pub fn prepare_out_dir(dir: &Path, create_parents: bool, force: bool) -> Result<(), BenchError> {
    let fail = |reason: String| BenchError::OutputDir {
        path: dir.to_path_buf(),
        reason,
    };
    if dir.as_os_str().is_empty() {
        return Err(fail("empty path".into()));
    }
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return Err(fail("exists and is not a folder".into())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let parent = match dir.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            };
            if create_parents {
                std::fs::create_dir_all(dir)
                    .map_err(|e| fail(format!("cannot be created: {e}")))?;
            } else if !parent.is_dir() {
                return Err(fail(format!(
                    "does not exist, and neither does its parent {} (only the last level of \
                     --out is created)",
                    parent.display()
                )));
            } else {
                std::fs::create_dir(dir).map_err(|e| {
                    fail(format!(
                        "does not exist and cannot be created in {}: {e}",
                        parent.display()
                    ))
                })?;
            }
        }
        Err(e) => return Err(fail(format!("cannot be read: {e}"))),
    }
    let probe = dir.join(format!(".boids-bench-probe-{}", std::process::id()));
    std::fs::write(&probe, b"probe").map_err(|e| {
        fail(format!(
            "is not writable ({e}); choose another folder with --out"
        ))
    })?;
    let _ = std::fs::remove_file(&probe);
    if !force {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .map_err(|e| fail(format!("cannot be read: {e}")))?
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        if !names.is_empty() {
            names.sort();
            let shown: Vec<String> = names.into_iter().take(4).collect();
            return Err(fail(format!(
                "is not empty (holds {}…); choose another folder with --out, or add --force to \
                 replace the capture's files in it",
                shown.join(", ")
            )));
        }
    }
    Ok(())
}
