//! Whole-file writes: every output file is written to a temporary name beside it, then renamed, so a
//! crash or Ctrl-C never leaves a half-written file.

use std::path::Path;

/// Writes `bytes` to `path` atomically (`<path>.tmp`, then rename).
///
/// # Errors
/// The I/O error, with the path in its message.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    let res = std::fs::write(&tmp, bytes).and_then(|_| std::fs::rename(&tmp, path));
    if res.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    res.map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}
