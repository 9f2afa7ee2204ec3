//! Video recording (`boids run --record DIR`, the V key, the script's `video start|stop`): the
//! simulation's picture as a PNG frame sequence, `DIR/frame-000001.png`, `frame-000002.png`, …, at
//! a fixed simulated frame rate whatever the display's, then `DIR/recording.mp4` when `ffmpeg` is on
//! the PATH (H.264, yuv420p); without it one line says so and how to encode the frames later.
//! (F9's live captures of frame times are [`crate::app::record`], another thing.)
//!
//! - **Fixed simulated rate.** While recording, each drawn frame advances the simulation by the
//!   steps of one frame interval, `speed / fps` simulated seconds ([`FrameSchedule`]: 2 steps of
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
/// The name of the MP4 written beside the frames.
pub const MP4_NAME: &str = "recording.mp4";

pub use crate::app::error::RecordingError;

/// The file name of frame `k` (from 1).
pub fn frame_name(k: u64) -> String {
    format!("frame-{k:06}.png")
}

/// The closest fraction p/q (q ≤ `max_q`) to `x` ≥ 0, when it is within `tol` relative of it
/// (continued fractions): 2 for 1.99999992, 10/3 for 3.333333.
fn near_fraction(x: f64, max_q: u64, tol: f64) -> Option<(u64, u64)> {
    let (mut p0, mut q0, mut p1, mut q1) = (0u64, 1u64, 1u64, 0u64);
    let mut r = x;
    for _ in 0..40 {
        let a = r.floor();
        if a > 1e12 {
            break;
        }
        let a = a as u64;
        let (p2, q2) = (a * p1 + p0, a * q1 + q0);
        if q2 > max_q {
            break;
        }
        (p0, q0, p1, q1) = (p1, q1, p2, q2);
        if (p1 as f64 / q1 as f64 - x).abs() <= tol * x.max(1e-300) {
            return Some((p1, q1));
        }
        let frac = r - a as f64;
        if frac < 1e-12 {
            break;
        }
        r = 1.0 / frac;
    }
    None
}

/// How many steps of Δt each recorded frame takes so that frame k shows the simulation at
/// k × speed / fps simulated seconds: `floor(k · r)` steps in all for r = speed / (fps · Δt), frame
/// by frame. A ratio within 1e-6 of a fraction with a denominator up to 100 is taken as that
/// fraction (Δt is an f32: 1/60 s is 0.016666668, and 1/30 s would otherwise drift to one step in
/// 12 million short), so 2 steps a frame stays 2 for ever.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameSchedule {
    /// Steps per frame as a fraction p/q (exact), or as a float when no near fraction exists.
    ratio: Ratio,
    /// Frames scheduled so far.
    frames: u64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Ratio {
    Exact(u64, u64),
    Float(f64),
}

impl FrameSchedule {
    /// The schedule of frames every `speed / fps` simulated seconds for steps of `dt` s.
    pub fn new(dt: f64, fps: f64, speed: f64) -> FrameSchedule {
        let r = (speed / (fps * dt.max(1e-9))).max(0.0);
        let ratio = match near_fraction(r, 100, 1e-6) {
            Some((p, q)) => Ratio::Exact(p, q),
            None => Ratio::Float(r),
        };
        FrameSchedule { ratio, frames: 0 }
    }

    /// Steps taken before frame `k` in all.
    fn total(&self, k: u64) -> u64 {
        match self.ratio {
            Ratio::Exact(p, q) => (k as u128 * p as u128 / q as u128) as u64,
            Ratio::Float(r) => (k as f64 * r + 1e-9).floor() as u64,
        }
    }

    /// The steps to take before the next frame (0 when frames come faster than steps).
    pub fn next_steps(&mut self) -> u32 {
        let before = self.total(self.frames);
        self.frames += 1;
        (self.total(self.frames) - before).min(u32::MAX as u64) as u32
    }
}

/// What a finished recording left.
#[derive(Clone, Debug, PartialEq)]
pub struct VideoOutcome {
    /// The folder.
    pub dir: PathBuf,
    /// Frames written.
    pub frames: u64,
    /// The frame rate (frames per simulated second).
    pub fps: f64,
    /// What became of the MP4.
    pub mp4: Mp4,
}

/// What became of a recording's MP4.
#[derive(Clone, Debug, PartialEq)]
pub enum Mp4 {
    /// Written at this path.
    Written(PathBuf),
    /// `ffmpeg` is not on the PATH.
    NoFfmpeg,
    /// `ffmpeg` failed; its last words.
    Failed(String),
    /// No frame was recorded.
    NoFrames,
}

impl VideoOutcome {
    /// The command that encodes the frames (what the recording runs, and tells to run later).
    pub fn ffmpeg_command(&self) -> String {
        ffmpeg_line(&self.dir, self.fps)
    }

    /// One line for the user.
    pub fn message(&self) -> String {
        let dir = crate::io::show_path(&self.dir);
        let frames = format!("{} frames at {} fps in {dir}", self.frames, self.fps);
        match &self.mp4 {
            Mp4::Written(p) => {
                format!("recorded {frames}; video {}", crate::io::show_path(p))
            }
            Mp4::NoFfmpeg => format!(
                "recorded {frames}; ffmpeg was not found on the PATH, so no MP4: to encode them \
                 later, `{}`",
                self.ffmpeg_command()
            ),
            Mp4::Failed(why) => format!(
                "no MP4: {why}; recorded {frames}; to encode them with ffmpeg: `{}`",
                self.ffmpeg_command()
            ),
            Mp4::NoFrames => format!("recording in {dir} stopped before its first frame"),
        }
    }
}

/// The ffmpeg command line encoding `dir`'s frames at `fps` into `dir/recording.mp4`.
/// Every argument that a POSIX shell could split or expand is single-quoted, so the line pastes
/// into a shell as it is.
fn ffmpeg_line(dir: &Path, fps: f64) -> String {
    let input = sh_quote(&dir.join("frame-%06d.png").display().to_string());
    let output = sh_quote(&dir.join(MP4_NAME).display().to_string());
    format!(
        "ffmpeg -framerate {fps} -i {input} -c:v libx264 -pix_fmt yuv420p \
         -vf 'pad=ceil(iw/2)*2:ceil(ih/2)*2' {output}"
    )
}

/// `s` as one word of a POSIX shell: as it is when it holds only characters no shell treats
/// specially, else in single quotes (a `'` inside written `'\''`).
fn sh_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./%+,:@=".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// Encodes `dir`'s frames into `dir/recording.mp4` in-process ([`crate::app::h264`]), whole (a
/// temporary file renamed).
#[cfg(feature = "h264")]
fn encode_mp4(dir: &Path, frames: u64, fps: f64) -> Mp4 {
    let tmp = dir.join(format!("{MP4_NAME}.tmp"));
    let frames: Vec<PathBuf> = (1..=frames).map(|k| dir.join(frame_name(k))).collect();
    let result = crate::app::h264::encode(&frames, fps, &tmp)
        .map_err(|e| e.to_string())
        .and_then(|_| {
            let mp4 = dir.join(MP4_NAME);
            std::fs::rename(&tmp, &mp4)
                .map(|()| mp4)
                .map_err(|e| e.to_string())
        });
    match result {
        Ok(mp4) => Mp4::Written(mp4),
        Err(why) => {
            let _ = std::fs::remove_file(&tmp);
            Mp4::Failed(why)
        }
    }
}

/// Encodes `dir`'s frames into `dir/recording.mp4` with `ffmpeg`, whole (a temporary file renamed).
#[cfg(not(feature = "h264"))]
fn encode_mp4(dir: &Path, _frames: u64, fps: f64) -> Mp4 {
    let tmp = dir.join(format!("{MP4_NAME}.tmp"));
    let out = std::process::Command::new("ffmpeg")
        .args(["-hide_banner", "-loglevel", "error", "-nostdin", "-y"])
        .arg("-framerate")
        .arg(fps.to_string())
        .arg("-i")
        .arg(dir.join("frame-%06d.png"))
        .args(["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        .args(["-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-f", "mp4"])
        .arg(&tmp)
        .stdin(std::process::Stdio::null())
        .output();
    let failed = |why: String| {
        let _ = std::fs::remove_file(&tmp);
        Mp4::Failed(why)
    };
    match out {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Mp4::NoFfmpeg,
        Err(e) => failed(e.to_string()),
        Ok(o) if !o.status.success() => {
            let text = String::from_utf8_lossy(&o.stderr);
            let last = text.lines().last().unwrap_or("no message").trim();
            failed(format!("{}: {}", o.status, crate::io::clip(last)))
        }
        Ok(_) => {
            let mp4 = dir.join(MP4_NAME);
            match std::fs::rename(&tmp, &mp4) {
                Ok(()) => Mp4::Written(mp4),
                Err(e) => failed(e.to_string()),
            }
        }
    }
}

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

    /// The printed ffmpeg line, split by a real shell, gives ffmpeg the arguments `encode_mp4`
    /// gives it: the filter one word, a folder with a space and a quote whole.
    #[test]
    fn the_ffmpeg_hint_pastes_into_a_shell() {
        let dir = Path::new("/tmp/my videos/it's here");
        let line = ffmpeg_line(dir, 30.0);
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "printf '%s\\n' {}",
                line.trim_start_matches("ffmpeg ")
            ))
            .output()
            .unwrap();
        let words: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        let want = [
            "-framerate",
            "30",
            "-i",
            "/tmp/my videos/it's here/frame-%06d.png",
            "-c:v",
            "libx264",
            "-pix_fmt",
            "yuv420p",
            "-vf",
            "pad=ceil(iw/2)*2:ceil(ih/2)*2",
            "/tmp/my videos/it's here/recording.mp4",
        ];
        assert_eq!(words, want, "{line}");
        assert_eq!(sh_quote("/tmp/a-b_1.png"), "/tmp/a-b_1.png");
    }

    fn steps(dt: f64, fps: f64, speed: f64, frames: usize) -> Vec<u32> {
        let mut s = FrameSchedule::new(dt, fps, speed);
        (0..frames).map(|_| s.next_steps()).collect()
    }

    /// Each frame k shows the simulation at k × speed / fps simulated seconds: the steps per frame
    /// at various Δt, rates and speeds, with Δt as the f32 the parameters hold.
    #[test]
    fn the_schedule_keeps_a_fixed_simulated_rate() {
        let f32dt = |x: f64| x as f32 as f64;
        // Δt = 1/60 s (0.016666668 as an f32): 30 fps is 2 steps every frame, for ever.
        assert!(steps(f32dt(1.0 / 60.0), 30.0, 1.0, 100_000)
            .iter()
            .all(|n| *n == 2));
        assert!(steps(f32dt(1.0 / 60.0), 60.0, 1.0, 1000)
            .iter()
            .all(|n| *n == 1));
        // 24 fps: 2.5 steps a frame, alternating.
        assert_eq!(steps(f32dt(1.0 / 60.0), 24.0, 1.0, 4), [2, 3, 2, 3]);
        // Frames faster than steps: a step every other frame.
        assert_eq!(steps(f32dt(1.0 / 30.0), 60.0, 1.0, 4), [0, 1, 0, 1]);
        // Δt = 0.016 s at 30 fps: 25 steps every 12 frames, each frame 2 or 3.
        let s = steps(f32dt(0.016), 30.0, 1.0, 120);
        assert_eq!(s.iter().sum::<u32>(), 250);
        assert!(s.iter().all(|n| *n == 2 || *n == 3));
        for k in 1..=120usize {
            let taken: u32 = s[..k].iter().sum();
            let due = k as f64 / 30.0 / 0.016;
            assert!(
                (taken as f64 - due).abs() < 1.0,
                "frame {k}: {taken} vs {due}"
            );
        }
        // Speed ½× and 2× halve and double the steps per frame.
        assert!(steps(f32dt(1.0 / 60.0), 30.0, 2.0, 50)
            .iter()
            .all(|n| *n == 4));
        assert!(steps(f32dt(1.0 / 60.0), 30.0, 0.5, 50)
            .iter()
            .all(|n| *n == 1));
        // A ratio with no near fraction (the golden ratio's are the farthest) keeps its rate.
        let r = (1.0 + 5f64.sqrt()) / 2.0;
        assert_eq!(near_fraction(r, 100, 1e-6), None);
        let s = steps(1.0 / (30.0 * r), 30.0, 1.0, 1000);
        assert!(s.iter().all(|n| *n == 1 || *n == 2));
        let total: u32 = s.iter().sum();
        assert!((total as f64 - 1000.0 * r).abs() < 1.0, "{total}");
    }

    #[test]
    fn near_fractions() {
        assert_eq!(near_fraction(1.999_999_92, 1000, 1e-6), Some((2, 1)));
        assert_eq!(near_fraction(10.0 / 3.0, 1000, 1e-6), Some((10, 3)));
        assert_eq!(near_fraction(0.5, 1000, 1e-6), Some((1, 2)));
        assert_eq!(near_fraction(std::f64::consts::PI, 1000, 1e-9), None);
        assert_eq!(near_fraction(0.0, 1000, 1e-6), Some((0, 1)));
    }

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
