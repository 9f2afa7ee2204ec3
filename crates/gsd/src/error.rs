//! The one error type of the GSD layer.

/// A GSD file that cannot be read, written or used. Every variant names the file (clipped to 200
/// characters) and says what is wrong; reading never panics, whatever the bytes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GsdError {
    /// The operating system refused an operation (open, read, write, sync, lock).
    #[error("cannot {action} GSD file {path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What was being done: "open", "read", "write", "create", …
        action: &'static str,
        /// The OS error.
        message: String,
    },
    /// The file is not a GSD file at all (too short for the header, or no GSD magic number).
    #[error("{path} is not a GSD file: {message}")]
    NotGsd {
        /// The file.
        path: String,
        /// Why not.
        message: String,
    },
    /// A GSD file of a file-layer version this code does not read (only 2.x is read).
    #[error(
        "GSD file {path} has file-layer version {major}.{minor}; only version 2.x is read \
         (the gsd Python package upgrades older files)"
    )]
    Version {
        /// The file.
        path: String,
        /// Major version in the header.
        major: u32,
        /// Minor version in the header.
        minor: u32,
    },
    /// The GSD container itself is inconsistent, or cannot be appended to.
    #[error("GSD file {path} is damaged: {message}")]
    Damaged {
        /// The file.
        path: String,
        /// What is inconsistent.
        message: String,
    },
    /// A well-formed GSD file whose content does not fit the HOOMD schema as boids reads it (wrong
    /// schema name, a missing chunk, a wrong shape or type, a value out of bounds).
    #[error("GSD file {path}: {message}")]
    Schema {
        /// The file.
        path: String,
        /// What is wrong, naming the frame and the chunk.
        message: String,
    },
    /// The frame asked for is not among the file's whole frames.
    #[error("GSD file {path} {}; there is no frame {frame}{note}", whole_frames(.frames))]
    NoSuchFrame {
        /// The file.
        path: String,
        /// The frame asked for.
        frame: u64,
        /// How many whole frames the file has.
        frames: u64,
        /// Empty, or why the file ends early (e.g. "; it ends mid-frame: …").
        note: String,
    },
    /// Data that cannot be written (a chunk name or shape the format cannot hold, a value outside
    /// the world, a writer that failed before).
    #[error("cannot write GSD file {path}: {message}")]
    Write {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
}

/// "has no whole frame", "has 1 whole frame (0)" or "has N whole frames (0 ..= N-1)".
fn whole_frames(frames: &u64) -> String {
    match *frames {
        0 => "has no whole frame".to_string(),
        1 => "has 1 whole frame (frame 0)".to_string(),
        n => format!("has {n} whole frames (0 ..= {})", n - 1),
    }
}

/// Longest quoted value in a message (characters): longer ones are clipped by [`clip`].
pub const QUOTE_CHARS: usize = 60;

/// `s` for a message: at most [`QUOTE_CHARS`] characters, then `… (N characters)`.
pub fn clip(s: &str) -> String {
    clip_to(s, QUOTE_CHARS)
}

/// `path` for a message: its display form, clipped to 200 characters.
pub fn show_path(path: &std::path::Path) -> String {
    clip_to(&path.display().to_string(), 200)
}

fn clip_to(s: &str, max: usize) -> String {
    if is_clipped(s, max) {
        return s.to_string();
    }
    match s.char_indices().nth(max) {
        None => s.to_string(),
        Some((cut, _)) => format!("{}… ({} characters)", &s[..cut], s.chars().count()),
    }
}

/// Whether `s` is already the output of `clip_to(_, max)` (messages pass through several layers).
fn is_clipped(s: &str, max: usize) -> bool {
    let Some((head, tail)) = s.split_once("… (") else {
        return false;
    };
    let Some(n) = tail.strip_suffix(" characters)") else {
        return false;
    };
    head.chars().count() <= max && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_are_clipped_once() {
        let long = "x".repeat(300);
        let once = show_path(std::path::Path::new(&long));
        assert!(once.ends_with("… (300 characters)"), "{once}");
        assert_eq!(clip_to(&once, 200), once);
        assert_eq!(clip("short"), "short");
    }
}
