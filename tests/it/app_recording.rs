//! Video recording in the real window (`boids run --record DIR`, the script's `video`): exactly
//! the frames asked for, PNGs of the window's size, at a fixed simulated frame rate, and the MP4
//! through ffmpeg or the line saying it was not found. Like every window test these need a display:
//! they skip (printing why) without one, unless BOIDS_REQUIRE_GPU=1, where they fail.

use crate::support;
use support::window::{have_display, lock, run_app_env, scratch};

/// The `frame-*.png` names in `dir`, sorted.
fn frames_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("frame-"))
        .collect();
    names.sort();
    names
}

/// Every frame of `dir` decodes as a PNG of `size` px; returns how many.
fn check_frames(dir: &std::path::Path, n: usize, size: (u32, u32)) {
    let names = frames_in(dir);
    let expected: Vec<String> = (1..=n).map(|k| format!("frame-{k:06}.png")).collect();
    assert_eq!(names, expected, "in {}", dir.display());
    for name in &names {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        assert_eq!(
            image::guess_format(&bytes).unwrap(),
            image::ImageFormat::Png,
            "{name}"
        );
        let img = image::load_from_memory(&bytes).unwrap();
        assert_eq!((img.width(), img.height()), size, "{name}");
    }
    let stray: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(stray.is_empty(), "temporary files left: {stray:?}");
}

/// `--record DIR --record-frames 12` writes exactly 12 frames of the window's size, taking 2 steps
/// of Δt = 1/60 s per frame at the default 30 fps (0.4 simulated seconds), then leaves the app;
/// with no ffmpeg on the PATH it says so in one line with the command to encode them later.
#[test]
fn record_frames_writes_exactly_n_frames_of_the_window_size() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let dir = scratch("record");
    let out = dir.path().join("clip");
    let empty_path = scratch("no-ffmpeg");
    let path = empty_path.path().to_str().unwrap();
    let r = run_app_env(
        "record",
        &[
            "--boids",
            "1500",
            "--width",
            "480",
            "--height",
            "270",
            "--record",
            out.to_str().unwrap(),
            "--record-frames",
            "12",
        ],
        None,
        &[("PATH", path)],
    );
    r.assert_ok();
    check_frames(&out, 12, (480, 270));
    let rep = r.report("final.json");
    assert_eq!(rep["steps"], 24, "{rep}");
    assert!(
        (rep["sim_time_s"].as_f64().unwrap() - 0.4).abs() < 1e-6,
        "{rep}"
    );
    assert_eq!(rep["video_frames"], serde_json::Value::Null);
    let line = r
        .stderr
        .lines()
        .find(|l| l.contains("recorded 12 frames"))
        .unwrap_or_else(|| panic!("no outcome line:\n{}", r.stderr));
    // With the `h264` feature (the default) the MP4 is encoded in-process, ffmpeg or not (the
    // PATH above has none); without it the message says how to encode the frames later.
    if cfg!(feature = "h264") {
        assert!(
            line.contains("video") && line.contains("recording.mp4"),
            "{line}"
        );
        let mp4 = std::fs::read(out.join("recording.mp4")).unwrap();
        assert!(mp4.len() > 1000 && &mp4[4..8] == b"ftyp", "not an MP4");
        assert!(!out.join("recording.mp4.tmp").exists());
    } else {
        assert!(
            line.contains("ffmpeg was not found") && line.contains("frame-%06d.png"),
            "{line}"
        );
        assert!(!out.join("recording.mp4").exists());
    }
}

/// The script's `video start` and `video stop` record the frames between them (here 10) into a
/// new folder under --capture-dir, with trails on and the speed colour mode; a second start
/// makes a second folder. Frames are recorded only while running: a paused stretch adds none.
#[test]
fn script_video_commands_record_the_frames_between_them() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let captures = scratch("video-captures");
    let script = "\
        3: trails on\n\
        3: colour speed\n\
        5: video start\n\
        10: report @/during.json\n\
        15: video stop\n\
        20: video start\n\
        22: key space\n\
        30: key space\n\
        33: video stop\n\
        40: quit\n";
    let empty_path = scratch("no-ffmpeg");
    let r = run_app_env(
        "video",
        &[
            "--boids",
            "1500",
            "--width",
            "400",
            "--height",
            "300",
            "--capture-dir",
            captures.path().to_str().unwrap(),
        ],
        Some(script),
        &[("PATH", empty_path.path().to_str().unwrap())],
    );
    r.assert_ok();
    let during = r.report("during.json");
    assert_eq!(during["video_frames"], 5, "{during}");
    assert_eq!(during["trails"], true);
    assert_eq!(during["colour"], "speed");
    let mut folders: Vec<_> = std::fs::read_dir(captures.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    folders.sort();
    assert_eq!(folders.len(), 2, "{folders:?}");
    assert!(folders.iter().all(|f| f
        .file_name()
        .unwrap()
        .to_string_lossy()
        .starts_with("video-")));
    check_frames(&folders[0], 10, (400, 300));
    // Frames 20 and 21 run, 22..29 paused, 30..32 run (the resume takes effect at 30).
    check_frames(&folders[1], 5, (400, 300));
    let outcome = if cfg!(feature = "h264") {
        "; video "
    } else {
        "ffmpeg was not found"
    };
    let outcomes = r.stderr.lines().filter(|l| l.contains(outcome)).count();
    assert_eq!(outcomes, 2, "{}", r.stderr);
    if cfg!(feature = "h264") {
        assert!(folders.iter().all(|f| f.join("recording.mp4").is_file()));
    }
}

/// Built without the `h264` feature, with ffmpeg on the PATH the recording is also
/// `recording.mp4` (H.264), written whole.
#[cfg(not(feature = "h264"))]
#[test]
fn the_mp4_is_encoded_when_ffmpeg_is_there() {
    if !have_display() {
        return;
    }
    let found = std::process::Command::new("ffmpeg")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED (mp4 test): ffmpeg is not on the PATH (the message without it is tested)"
        );
        return;
    }
    let _l = lock();
    let dir = scratch("record-mp4");
    let out = dir.path().join("clip");
    let r = run_app_env(
        "record-mp4",
        &[
            "--boids",
            "1500",
            "--width",
            "320",
            "--height",
            "180",
            "--record",
            out.to_str().unwrap(),
            "--record-frames",
            "8",
            "--record-fps",
            "24",
        ],
        None,
        &[],
    );
    r.assert_ok();
    check_frames(&out, 8, (320, 180));
    let mp4 = std::fs::read(out.join("recording.mp4")).unwrap();
    assert!(mp4.len() > 1000 && &mp4[4..8] == b"ftyp", "not an MP4");
    assert!(!out.join("recording.mp4.tmp").exists());
    assert!(
        r.stderr.contains("recorded 8 frames at 24 fps") && r.stderr.contains("recording.mp4"),
        "{}",
        r.stderr
    );
    // 24 fps with Δt = 1/60 s: 2.5 steps a frame, 20 steps for 8 frames.
    assert_eq!(r.report("final.json")["steps"], 20);
}

/// A recording folder holding frames already is refused before anything runs, naming it.
#[test]
fn a_folder_with_frames_is_refused() {
    if !have_display() {
        return;
    }
    let _l = lock();
    let dir = scratch("record-used");
    std::fs::write(dir.path().join("frame-000001.png"), b"old").unwrap();
    let r = support::window::run_app(
        "record-used",
        &[
            "--boids",
            "500",
            "--record",
            dir.path().to_str().unwrap(),
            "--record-frames",
            "3",
        ],
        None,
    );
    assert_ne!(r.code, Some(0));
    assert!(
        r.stderr.contains("already holds frames") && r.stderr.contains("frame-000001.png"),
        "{}",
        r.stderr
    );
    assert_eq!(
        std::fs::read(dir.path().join("frame-000001.png")).unwrap(),
        b"old"
    );
}
