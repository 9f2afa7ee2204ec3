//! A recording's files and its MP4 ([`Mp4`], [`VideoOutcome`]): the frame names, the MP4 encoded
//! in-process with the default `h264` feature ([`crate::app::h264`]: OpenH264 and a pure-Rust
//! muxer) or by `ffmpeg` on the PATH without it, and the `ffmpeg` line that encodes the frames
//! later, pasted into a shell as it is.

use std::path::{Path, PathBuf};

/// The name of the MP4 written beside the frames.
pub const MP4_NAME: &str = "recording.mp4";

/// The file name of frame `k` (from 1).
pub fn frame_name(k: u64) -> String {
    format!("frame-{k:06}.png")
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
pub(crate) fn encode_mp4(dir: &Path, frames: u64, fps: f64) -> Mp4 {
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
pub(crate) fn encode_mp4(dir: &Path, _frames: u64, fps: f64) -> Mp4 {
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
}
