//! Video recording (`boids run --record DIR`, the V key, the script's `video start|stop`): the
//! simulation's picture as a PNG frame sequence, `DIR/frame-000001.png`, `frame-000002.png`, …, at
//! a fixed simulated frame rate whatever the display's, then `DIR/recording.mp4` (H.264, yuv420p;
//! [`crate::app::video_mp4`]: in-process by default, else by `ffmpeg`, and when it cannot be
//! written one line says why and how to encode the frames later).
//! (F9's live captures of frame times are [`crate::app::record`], another thing.)
//!
//! - **Fixed simulated rate.** While recording, each drawn frame advances the simulation by the
//!   steps of one frame interval, `speed / fps` simulated seconds ([`crate::app::frame_schedule`]: 2 steps of
//!   the default Δt = 1/60 s at 30 fps), and is recorded; the display's rate and the machine's
//!   speed only change how long the recording takes, not what it shows. Paused, nothing is
//!   recorded.
//! - **The picture.** Each frame is rendered offscreen by the same renderer as the window (no UI),
//!   at the size the recording started with, and written whole (temporary file, then rename) by a
//!   writer thread, so encoding overlaps the next frame's work; at most [`QUEUED_FRAMES`] wait.
//! - **The folder** is created; one that already holds `frame-*.png` files is refused rather than
//!   mixed with them. The key's recordings go to a new `<capture dir>/video-<UTC time>/`.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, SyncSender};
use std::thread::JoinHandle;

/// Frames that may wait for the writer before the frame loop waits for it.
pub const QUEUED_FRAMES: usize = 3;
/// The default frame rate of a recording (frames per simulated second).
pub const DEFAULT_FPS: f64 = 30.0;
/// The frame rates allowed (frames per simulated second).
pub const FPS_RANGE: std::ops::RangeInclusive<f64> = 1.0..=240.0;

pub use crate::app::error::RecordingError;
use crate::app::frame_schedule::FrameSchedule;
use crate::app::video_mp4::{encode_mp4, frame_name, Mp4, VideoOutcome};

/// A frame for the writer thread: its path and picture.
type Job = (PathBuf, image::RgbaImage);

/// A recording in progress.
pub struct VideoRecording {
    dir: PathBuf,
    fps: f64,
    limit: Option<u64>,
    /// Frames handed to the writer.
    queued: u64,
    schedule: FrameSchedule,
    /// The Δt and speed the schedule was made for.
    schedule_for: (f64, f64),
    /// The frames' size (px), fixed by the first.
    size: Option<(u32, u32)>,
    sender: Option<SyncSender<Job>>,
    writer: Option<JoinHandle<Result<u64, RecordingError>>>,
    /// The app leaves once this recording is finished (`--record-frames` from the command line).
    pub exit_when_done: bool,
}

impl VideoRecording {
    /// Starts a recording into `dir` (created with its parents) at `fps` frames per simulated
    /// second, stopping after `limit` frames when given, for steps of `dt` s at `speed` × real
    /// time.
    ///
    /// # Errors
    /// [`RecordingError::Fps`] out of [`FPS_RANGE`], [`RecordingError::Folder`] when the folder
    /// cannot be made or read, [`RecordingError::NotEmpty`] when it holds frames already.
    pub fn start(
        dir: &Path,
        fps: f64,
        limit: Option<u64>,
        dt: f64,
        speed: f64,
    ) -> Result<VideoRecording, RecordingError> {
        if !FPS_RANGE.contains(&fps) {
            return Err(RecordingError::Fps {
                fps,
                range: FPS_RANGE,
            });
        }
        check_folder(dir)?;
        let (sender, receiver) = sync_channel::<Job>(QUEUED_FRAMES);
        let writer = std::thread::Builder::new()
            .name("video frames".into())
            .spawn(move || {
                let mut written = 0;
                for (path, img) in receiver {
                    crate::io::write_png(&path, &img)?;
                    written += 1;
                }
                Ok(written)
            })
            .map_err(|source| RecordingError::Folder {
                dir: dir.to_path_buf(),
                source,
            })?;
        Ok(VideoRecording {
            dir: dir.to_path_buf(),
            fps,
            limit,
            queued: 0,
            schedule: FrameSchedule::new(dt, fps, speed),
            schedule_for: (dt, speed),
            size: None,
            sender: Some(sender),
            writer: Some(writer),
            exit_when_done: false,
        })
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Frames recorded so far.
    pub fn frames(&self) -> u64 {
        self.queued
    }

    /// The size every frame is rendered at (px): the first frame's, `viewport` until then.
    pub fn frame_size(&self, viewport: (u32, u32)) -> (u32, u32) {
        self.size.unwrap_or(viewport)
    }

    /// Whether the frame limit is reached.
    pub fn done(&self) -> bool {
        self.limit.is_some_and(|n| self.queued >= n)
    }

    /// The steps to take before the next frame, for steps of `dt` s at `speed` × real time (a
    /// change of either starts a new schedule from this frame on).
    pub fn next_steps(&mut self, dt: f64, speed: f64) -> u32 {
        if self.schedule_for != (dt, speed) {
            self.schedule = FrameSchedule::new(dt, self.fps, speed);
            self.schedule_for = (dt, speed);
        }
        self.schedule.next_steps()
    }

    /// Hands the next frame to the writer (waits while [`QUEUED_FRAMES`] are waiting already).
    ///
    /// # Errors
    /// The writer's error when it has stopped (a frame could not be written); the recording
    /// should then be finished, which reports it again.
    pub fn push(&mut self, img: image::RgbaImage) -> Result<(), RecordingError> {
        self.size.get_or_insert(img.dimensions());
        let path = self.dir.join(frame_name(self.queued + 1));
        let sent = self.sender.as_ref().map(|s| s.send((path, img)));
        match sent {
            Some(Ok(())) => {
                self.queued += 1;
                Ok(())
            }
            _ => Err(self.join_writer().err().unwrap_or(RecordingError::Writer {
                dir: self.dir.clone(),
            })),
        }
    }

    fn join_writer(&mut self) -> Result<u64, RecordingError> {
        self.sender = None;
        match self.writer.take().map(JoinHandle::join) {
            Some(Ok(r)) => r,
            Some(Err(_)) => Err(RecordingError::Writer {
                dir: self.dir.clone(),
            }),
            None => Ok(self.queued),
        }
    }

    /// Stops: waits for the frames still queued, then encodes the MP4 (in-process with the `h264`
    /// feature, else by `ffmpeg` when it is there), on a thread of its own so the app goes on; join
    /// it for the outcome.
    pub fn finish(mut self) -> JoinHandle<Result<VideoOutcome, RecordingError>> {
        std::thread::spawn(move || {
            let frames = self.join_writer()?;
            let mp4 = if frames == 0 {
                Mp4::NoFrames
            } else {
                encode_mp4(&self.dir, frames, self.fps)
            };
            Ok(VideoOutcome {
                dir: self.dir.clone(),
                frames,
                fps: self.fps,
                mp4,
            })
        })
    }
}

/// Creates `dir` and refuses one holding frames.
fn check_folder(dir: &Path) -> Result<(), RecordingError> {
    let folder = |source| RecordingError::Folder {
        dir: dir.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(folder)?;
    for entry in std::fs::read_dir(dir).map_err(folder)? {
        let name = entry.map_err(folder)?.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("frame-") && name.ends_with(".png") {
            return Err(RecordingError::NotEmpty {
                dir: dir.to_path_buf(),
                first: name.into_owned(),
            });
        }
    }
    Ok(())
}

/// The recordings of a run: the one in progress, the start or stop asked for, and the finished
/// ones still writing or encoding.
#[derive(Default)]
pub struct Videos {
    /// The recording in progress.
    pub active: Option<VideoRecording>,
    /// A start (`true`) or stop (`false`) asked for by the key or a script, for the frame loop.
    pub request: Option<bool>,
    finishing: Vec<JoinHandle<Result<VideoOutcome, RecordingError>>>,
    /// Outcomes of the finished recordings, in order.
    pub finished: Vec<VideoOutcome>,
}

impl Videos {
    /// Stops the recording in progress, if any (it finishes in the background).
    pub fn stop(&mut self) {
        if let Some(r) = self.active.take() {
            self.finishing.push(r.finish());
        }
    }

    /// Recordings stopped and still writing their frames or encoding (the overlay says so).
    pub fn writing(&self) -> usize {
        self.finishing.len()
    }

    /// The messages of the recordings that finished since the last call (outcomes or errors),
    /// each with whether it reports a problem (no MP4, frames not written).
    pub fn poll(&mut self) -> Vec<(String, bool)> {
        let (done, pending): (Vec<_>, Vec<_>) = std::mem::take(&mut self.finishing)
            .into_iter()
            .partition(|h| h.is_finished());
        self.finishing = pending;
        done.into_iter().map(|h| self.outcome(h)).collect()
    }

    /// Stops the recording in progress and waits for every recording to finish; their messages.
    pub fn wait_all(&mut self) -> Vec<String> {
        self.stop();
        std::mem::take(&mut self.finishing)
            .into_iter()
            .map(|h| self.outcome(h).0)
            .collect()
    }

    /// A finished recording's message, and whether it reports a problem (no MP4, frames not
    /// written).
    fn outcome(&mut self, h: JoinHandle<Result<VideoOutcome, RecordingError>>) -> (String, bool) {
        match h.join() {
            Ok(Ok(o)) => {
                let m = o.message();
                let problem = !matches!(o.mp4, Mp4::Written(_));
                self.finished.push(o);
                (m, problem)
            }
            Ok(Err(e)) => (format!("recording not written: {e}"), true),
            Err(_) => ("recording not written: its thread stopped".into(), true),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(feature = "h264")]
    use crate::app::video_mp4::MP4_NAME;

    fn picture(w: u32, h: u32) -> image::RgbaImage {
        image::RgbaImage::from_fn(w, h, |x, y| image::Rgba([x as u8, y as u8, 90, 255]))
    }

    /// A recording writes frame-000001.png … in order, whole, and says what became of the MP4;
    /// a folder holding frames is refused, and so is a rate out of range.
    #[test]
    fn frames_are_written_in_order_and_a_used_folder_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("rec");
        let mut r = VideoRecording::start(&dir, 30.0, Some(3), 1.0 / 60.0, 1.0).unwrap();
        for _ in 0..3 {
            assert!(!r.done());
            assert_eq!(r.next_steps(1.0 / 60.0, 1.0), 2);
            r.push(picture(6, 4)).unwrap();
        }
        assert!(r.done());
        assert_eq!(r.frame_size((100, 100)), (6, 4));
        let out = r.finish().join().unwrap().unwrap();
        assert_eq!(out.frames, 3);
        for k in 1..=3 {
            let img = image::open(dir.join(frame_name(k))).unwrap();
            assert_eq!((img.width(), img.height()), (6, 4));
        }
        assert!(!dir.join(frame_name(4)).exists());
        let leftovers: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
        let m = out.message();
        match &out.mp4 {
            Mp4::Written(p) => assert!(p.exists() && m.contains("recording.mp4"), "{m}"),
            Mp4::NoFfmpeg => assert!(
                m.contains("ffmpeg was not found") && m.contains("frame-%06d.png"),
                "{m}"
            ),
            other => panic!("{other:?}: {m}"),
        }
        let e = VideoRecording::start(&dir, 30.0, None, 1.0 / 60.0, 1.0)
            .err()
            .unwrap();
        assert!(matches!(e, RecordingError::NotEmpty { .. }), "{e:?}");
        assert!(e.to_string().contains("frame-00000"), "{e}");
        let e = VideoRecording::start(&tmp.path().join("b"), 0.5, None, 1.0 / 60.0, 1.0)
            .err()
            .unwrap();
        assert!(matches!(e, RecordingError::Fps { .. }), "{e}");
    }

    /// An MP4 that cannot be written is a problem (the app's warning colour), its reason first;
    /// the frames stay.
    #[cfg(feature = "h264")]
    #[test]
    fn a_failed_mp4_is_reported_as_a_problem_with_its_reason() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("rec");
        let mut r = VideoRecording::start(&dir, 30.0, None, 1.0 / 60.0, 1.0).unwrap();
        r.push(picture(32, 32)).unwrap();
        // The temporary MP4's name taken by a folder: the writer cannot create it.
        std::fs::create_dir_all(dir.join(format!("{MP4_NAME}.tmp"))).unwrap();
        let mut v = Videos {
            active: Some(r),
            ..Videos::default()
        };
        v.stop();
        let mut got = Vec::new();
        for _ in 0..2000 {
            got = v.poll();
            if !got.is_empty() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert_eq!(got.len(), 1, "no outcome");
        let (m, problem) = &got[0];
        assert!(problem, "{m}");
        assert!(m.starts_with("no MP4: "), "{m}");
        assert!(dir.join(frame_name(1)).is_file());
    }

    /// A recording stopped before its first frame says so and writes nothing.
    #[test]
    fn an_empty_recording_says_so() {
        let tmp = tempfile::tempdir().unwrap();
        let mut v = Videos {
            active: Some(VideoRecording::start(tmp.path(), 25.0, None, 0.01, 1.0).unwrap()),
            ..Videos::default()
        };
        let m = v.wait_all();
        assert_eq!(m.len(), 1);
        assert!(m[0].contains("before its first frame"), "{m:?}");
        assert_eq!(v.finished[0].mp4, Mp4::NoFrames);
        assert!(v.active.is_none() && v.poll().is_empty());
    }
}
