//! Inputs at the extremes: endless and oversize files, overlong lines, and huge values quoted
//! in error messages. Every file read has a stated limit and every error names it.

use std::path::Path;
use std::process::Command;

use boids::app::script::Script;
use boids::formats::checkpoint::{load_state, MAX_LINE_BYTES};
use boids::formats::scene::Scene;

const HEADER: &str = "id,x,y,vx,vy,hx,hy,hvx,hvy";

#[test]
fn dev_zero_is_refused_by_every_reader() {
    let zero = Path::new("/dev/zero");
    let e = Scene::load(zero).unwrap_err().to_string();
    assert!(e.contains("/dev/zero") && e.contains("16 MiB"), "{e}");
    let e = Script::load(zero).unwrap_err().to_string();
    assert!(e.contains("/dev/zero") && e.contains("16 MiB"), "{e}");
    let e = load_state(zero).unwrap_err().to_string();
    assert!(
        e.contains("/dev/zero") && e.contains("line 1") && e.contains("4 KiB"),
        "{e}"
    );
}

#[test]
fn oversize_scene_and_script_files_are_refused_with_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    // A valid scene padded with comments past 16 MiB.
    let scene = dir.path().join("big.toml");
    let mut text = String::from("boids = 10\n");
    let pad = format!("# {}\n", "p".repeat(1000));
    while text.len() <= 16 << 20 {
        text.push_str(&pad);
    }
    std::fs::write(&scene, &text).unwrap();
    let e = Scene::load(&scene).unwrap_err().to_string();
    assert!(e.contains("big.toml") && e.contains("16 MiB"), "{e}");
    // Just under the limit loads.
    std::fs::write(&scene, &text[..(16 << 20) - 2000]).unwrap();
    Scene::load(&scene).unwrap();

    let script = dir.path().join("big.txt");
    std::fs::write(&script, &text).unwrap();
    let e = Script::load(&script).unwrap_err().to_string();
    assert!(e.contains("big.txt") && e.contains("16 MiB"), "{e}");
}

#[test]
fn state_lines_longer_than_the_limit_are_refused_naming_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.csv");
    let row = "0,1,1,50,0,1,0,0,0";
    let long = format!("1,1,1,50,0,1,0,0,{}", "0".repeat(MAX_LINE_BYTES));
    std::fs::write(&path, format!("{HEADER}\n{row}\n{long}\n")).unwrap();
    let e = load_state(&path).unwrap_err().to_string();
    assert!(
        e.contains("long.csv") && e.contains("line 3") && e.contains("4 KiB"),
        "{e}"
    );
    // A line of exactly the limit is fine (leading zeros of a valid number).
    let fits = format!("1,1,1,50,0,1,0,0,{}", "0".repeat(MAX_LINE_BYTES - 17));
    assert_eq!(fits.len(), MAX_LINE_BYTES);
    std::fs::write(&path, format!("{HEADER}\r\n{row}\r\n{fits}\r\n")).unwrap();
    assert_eq!(load_state(&path).unwrap().len(), 2);
}

#[test]
fn checkpoint_metadata_past_its_limit_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("meta.csv");
    let mut text = String::from("# boids-state 1\n");
    let pad = format!("# # {}\n", "m".repeat(1000));
    while text.len() <= (16 << 20) + (64 << 10) {
        text.push_str(&pad);
    }
    text.push_str(HEADER);
    text.push_str("\n0,1,1,50,0,1,0,0,0\n");
    std::fs::write(&path, text).unwrap();
    let e = load_state(&path).unwrap_err().to_string();
    assert!(e.contains("meta.csv") && e.contains("16 MiB"), "{e}");
}

#[test]
fn a_checkpoint_cut_short_is_detected() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.csv");
    let (_, text) = saved_checkpoint(&path, 30, |_| {});
    let cut: Vec<&str> = text.lines().collect();
    std::fs::write(&path, cut[..cut.len() - 3].join("\n")).unwrap();
    let e = load_state(&path).unwrap_err().to_string();
    assert!(e.contains("boids = 30") && e.contains("27 rows"), "{e}");
}

/// A checkpoint cut anywhere inside its last row is refused (each row has the header's 11
/// fields, and a checkpoint's last line ends with its line end), and so is a middle row that
/// lost its image counts; the whole file loads.
#[test]
fn a_checkpoint_cut_inside_a_row_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.csv");
    let (_, text) = saved_checkpoint(&path, 30, |b| b[29].image = [12, -345]);
    assert_eq!(load_state(&path).unwrap().len(), 30);
    let last_row = text.trim_end().rfind('\n').unwrap() + 1;
    for k in last_row + 1..text.len() {
        std::fs::write(&path, &text[..k]).unwrap();
        let e = load_state(&path).expect_err(&format!("cut after {k} of {} bytes", text.len()));
        assert!(e.to_string().contains("cut.csv"), "{e}");
    }
    // A middle row without its image counts: 9 fields under the 11 of the header.
    let lines: Vec<&str> = text.lines().collect();
    let mid = lines.len() - 10;
    let nine = lines[mid].rsplitn(3, ',').nth(2).unwrap().to_string();
    let mut edited = lines.clone();
    edited[mid] = &nine;
    std::fs::write(&path, edited.join("\n") + "\n").unwrap();
    let e = load_state(&path).unwrap_err().to_string();
    assert!(
        e.contains(&format!("line {}", mid + 1)) && e.contains("expected 11 fields"),
        "{e}"
    );
}

/// A whole checkpoint loads whatever follows its last row without a line end: a blank line of
/// spaces, or a `#` comment; rows of 11 fields under a header of 9 are told to name ix,iy.
#[test]
fn a_whole_checkpoint_loads_with_a_last_blank_or_comment_line_without_line_end() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("whole.csv");
    let (cp, text) = saved_checkpoint(&path, 12, |_| {});
    for tail in ["   ", "# the end", "\n# the end", "\r\n"] {
        std::fs::write(&path, format!("{text}{tail}")).unwrap();
        let loaded = load_state(&path).unwrap_or_else(|e| panic!("{tail:?}: {e}"));
        assert_eq!(loaded, cp.boids, "{tail:?}");
    }
    // The header of 9 columns, rows of 11.
    let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let nine = body[0].rsplitn(3, ',').nth(2).unwrap();
    let plain = dir.path().join("plain.csv");
    std::fs::write(&plain, format!("{nine}\n{}\n", body[1..].join("\n"))).unwrap();
    let e = load_state(&plain).unwrap_err().to_string();
    assert!(
        e.contains("found 11") && e.contains("need ix,iy in the header"),
        "{e}"
    );
}

/// A 100 000-character value gives a message under 300 bytes that still names the field and the
/// file and line.
#[test]
fn huge_values_are_quoted_short() {
    let huge = "9".repeat(50_000) + &"x".repeat(50_000);
    let short = |e: &str| {
        assert!(
            e.len() < 300,
            "{} bytes: {}",
            e.len(),
            &e[..e.len().min(400)]
        );
    };

    // Scene: a string where a number goes, and an unknown key.
    let e = Scene::parse(
        &format!("boids = 5\n[params]\ndt = \"{huge}\"\n"),
        Path::new("dt.toml"),
    )
    .unwrap_err()
    .to_string();
    short(&e);
    assert!(
        e.contains("dt.toml")
            && e.contains("line 3")
            && e.contains("dt")
            && e.contains("100000 characters"),
        "{e}"
    );
    // An unknown key: the key clipped, its line, the nearest known keys (none close here).
    let e = Scene::parse(&format!("[params]\n{huge} = 1\n"), Path::new("k.toml"))
        .unwrap_err()
        .to_string();
    short(&e);
    assert!(
        e.contains("k.toml") && e.contains("line 2") && e.contains("unknown parameter"),
        "{e}"
    );

    // Script.
    let e = Script::parse(&format!("1: quit\n2: {huge}\n"))
        .unwrap_err()
        .to_string();
    short(&e);
    assert!(e.contains("line 2") && e.contains("unknown command"), "{e}");
    let e = Script::parse(&format!("1: tool {huge}\n"))
        .unwrap_err()
        .to_string();
    short(&e);
    assert!(e.contains("line 1") && e.contains("tool"), "{e}");
    let e = Script::parse(&format!("1: move 3 {huge}\n"))
        .unwrap_err()
        .to_string();
    short(&e);
    assert!(e.contains("line 1") && e.contains("Y"), "{e}");

    // State file: values are at most a line long (4 KiB).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v.csv");
    let big = "7".repeat(4000);
    std::fs::write(&path, format!("{HEADER}\n0,1,1,{big}x,0,1,0,0,0\n")).unwrap();
    let e = load_state(&path).unwrap_err().to_string();
    short(&e);
    assert!(
        e.contains("v.csv")
            && e.contains("line 2")
            && e.contains("vx")
            && e.contains("4001 characters"),
        "{e}"
    );
    std::fs::write(&path, format!("{HEADER}\n0,1,1,{big},0,1,0,0,0\n")).unwrap();
    let e = load_state(&path).unwrap_err().to_string();
    short(&e);
    assert!(
        e.contains("line 2") && e.contains("vx") && e.contains("finite"),
        "{e}"
    );
    std::fs::write(&path, format!("{HEADER}\n{big},1,1,1,0,1,0,0,0\n")).unwrap();
    let e = load_state(&path).unwrap_err().to_string();
    short(&e);
    assert!(e.contains("line 2") && e.contains("id"), "{e}");
    std::fs::write(&path, format!("{big}\n0,1,1,1,0,1,0,0,0\n")).unwrap();
    let e = load_state(&path).unwrap_err().to_string();
    short(&e);
    assert!(e.contains("line 1") && e.contains("header"), "{e}");
    std::fs::write(
        &path,
        format!("# boids-state 1\n# seed = \"{big}\"\n{HEADER}\n0,1,1,1,0,1,0,0,0\n"),
    )
    .unwrap();
    let e = load_state(&path).unwrap_err().to_string();
    short(&e);
    assert!(e.contains("line 2") && e.contains("seed"), "{e}");
}

/// The command line: a huge flag value is quoted short too.
#[test]
fn huge_command_line_values_are_quoted_short() {
    let huge = "8".repeat(100_000);
    let out = Command::new(env!("CARGO_BIN_EXE_boids"))
        .args(["headless", "--boids", &huge])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.len() < 600, "{} bytes", e.len());
    assert!(
        e.contains("--boids") && e.contains("100000 characters"),
        "{e}"
    );
}

/// A checkpoint of `n` boids of seed 1 (changed by `edit`) saved at `path`: it and its text.
fn saved_checkpoint(
    path: &Path,
    n: usize,
    edit: impl FnOnce(&mut Vec<boids::model::Boid>),
) -> (boids::formats::checkpoint::Checkpoint, String) {
    let p = boids::model::SimParams::default();
    let mut boids = boids::model::initial_state(1, n, &p);
    edit(&mut boids);
    let cp = boids::formats::checkpoint::Checkpoint {
        predators: Vec::new(),
        catches_total: 0,
        boids,
        params: p,
        seed: 1,
        step: 0,
        obstacles: Vec::new(),
    };
    boids::formats::checkpoint::save_checkpoint(path, &cp).unwrap();
    (cp, std::fs::read_to_string(path).unwrap())
}
