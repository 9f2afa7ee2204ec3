//! A frame of a GSD trajectory as the initial state of a run (`--init FILE.gsd` for the last
//! frame, `--init FILE.gsd:FRAME` for frame FRAME, from 0).
//!
//! A frame gives the boids (positions back in the world's own coordinates, velocities, hue
//! vectors and velocities, ids), the step index and the predators; like a plain state CSV it
//! carries no parameters, so the run's world (from the scene, the defaults or `--set`) must be
//! the frame's box ([`crate::model::state_csv::StateFile::conform`] checks it).

use std::path::{Path, PathBuf};

use super::hoomd::TrajectoryReader;
use crate::io::{clip, show_path};
use crate::model::state_csv::{FrameOrigin, StateFile, StateFileError};

/// Which frame of a GSD file an `--init` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameRef {
    /// The GSD file.
    pub path: PathBuf,
    /// The frame (from 0); `None`: the last whole frame.
    pub frame: Option<u64>,
}

/// Whether `init` names a GSD file: a path ending in `.gsd` (any case) or an existing file that
/// starts with GSD's magic number (whatever its name: `t:1` opens the file `t:1` when it exists),
/// or `FILE:FRAME` of such a file. `None` for anything else (a state CSV).
///
/// # Errors
/// [`StateFileError::File`] for `FILE.gsd:FRAME` whose FRAME is not a whole number from 0.
pub fn frame_ref(init: &Path) -> Result<Option<FrameRef>, StateFileError> {
    // A `.gsd` name, or an existing file that starts with GSD's magic number whatever its name
    // (so `run:1`, a file named with a colon, opens as itself when it exists).
    let is_gsd = |p: &Path| {
        p.extension()
            .is_some_and(|e| e.to_string_lossy().eq_ignore_ascii_case("gsd"))
            || starts_with_magic(p)
    };
    if is_gsd(init) {
        return Ok(Some(FrameRef {
            path: init.to_path_buf(),
            frame: None,
        }));
    }
    let text = init.to_string_lossy();
    let Some((file, frame)) = text.rsplit_once(':') else {
        return Ok(None);
    };
    let file = Path::new(file);
    if !is_gsd(file) {
        return Ok(None);
    }
    match frame.parse::<u64>() {
        Ok(k) if !frame.starts_with('+') => Ok(Some(FrameRef {
            path: file.to_path_buf(),
            frame: Some(k),
        })),
        _ => Err(StateFileError::File {
            path: show_path(init),
            message: format!(
                "frame {:?} is not a frame number: write FILE.gsd:FRAME with FRAME a whole number \
                 from 0 (FILE.gsd alone: its last frame)",
                clip(frame)
            ),
        }),
    }
}

/// Whether `p` is a file whose first 8 bytes are GSD's magic number.
fn starts_with_magic(p: &Path) -> bool {
    use std::io::Read;
    let mut b = [0u8; 8];
    std::fs::File::open(p)
        .and_then(|mut f| f.read_exact(&mut b))
        .is_ok_and(|()| u64::from_le_bytes(b) == super::container::MAGIC)
}

/// The state of frame `r` (the last whole frame when it names none).
///
/// # Errors
/// [`StateFileError::Gsd`] when the file cannot be read or the frame does not exist (naming the
/// file and how many whole frames it has) or breaks the schema; [`StateFileError::Frame`] for a
/// frame without boids, with a zero hue vector or a duplicated id, or whose step is past u32.
pub fn read_frame_state(r: &FrameRef) -> Result<StateFile, StateFileError> {
    let mut reader = TrajectoryReader::open(&r.path)?;
    let frames = reader.frames();
    let frame = r.frame.unwrap_or(frames.saturating_sub(1));
    let f = reader.read_frame(frame)?;
    let step = u32::try_from(f.step).map_err(|_| StateFileError::Frame {
        path: show_path(&r.path),
        frame,
        message: format!(
            "configuration/step = {}: above the largest step index, {}",
            f.step,
            u32::MAX
        ),
    })?;
    StateFile::of_frame(
        &r.path,
        f.boids,
        FrameOrigin {
            frame,
            frames,
            step,
            world: f.world,
            predators: f.predators,
            cut_short: reader.cut_short().map(String::from),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn init_names_a_gsd_file_and_maybe_a_frame() {
        let r = |s: &str| frame_ref(Path::new(s));
        assert_eq!(r("state.csv").unwrap(), None);
        assert_eq!(r("a:b.csv").unwrap(), None);
        assert_eq!(
            r("t.gsd").unwrap(),
            Some(FrameRef {
                path: "t.gsd".into(),
                frame: None
            })
        );
        assert_eq!(
            r("dir/T.GSD:12").unwrap(),
            Some(FrameRef {
                path: "dir/T.GSD".into(),
                frame: Some(12)
            })
        );
        for bad in ["t.gsd:", "t.gsd:-1", "t.gsd:x", "t.gsd:+3", "t.gsd:1.5"] {
            let e = r(bad).unwrap_err().to_string();
            assert!(e.contains("whole number from 0"), "{bad}: {e}");
        }
    }
}
