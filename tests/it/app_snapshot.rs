//! Snapshot tests of the renderer: the picture of a fixed scene, rendered offscreen by
//! the same `Renderer` as the window, against committed reference PNGs.
//!
//! Tolerance: a pixel differs when one of its channels differs by more than 24/255; an image
//! matches when at most 0.25 % of its pixels differ (160 of 320×200). On one Mesa/LLVM version the
//! images are identical; the slack absorbs rasteriser rounding on other versions, while a wrong
//! shape, orientation, colour, size, camera or a missing obstacle changes far more pixels (see
//! `comparator_rejects_planted_changes`). The scene is stepped on the CPU backend, whose result is
//! bit-reproducible (the GPU's atomic binning orders neighbours differently run to run).
//!
//! On failure the actual and difference images go to `target/snapshot-failures/`. To re-bless the
//! references after an intended change: `BOIDS_BLESS=1 cargo test --release --test it -- app_snapshot::`.

use crate::support;
use std::path::{Path, PathBuf};

use crate::support::images::{compare_images, Tolerance};
use boids::app::snapshot::{render_snapshot, SnapshotArgs};
use boids::app::AppBackend as BackendKind;
use boids::io::write_png;
use boids::render::{PictureSizeError, Theme};

const TOLERANCE: Tolerance = Tolerance {
    channel: 24,
    max_fraction: 0.0025,
};

fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference")
}

fn scene_args(theme: Theme, backend: BackendKind, steps: u32) -> SnapshotArgs {
    let mut a = SnapshotArgs::new(PathBuf::from("unused.png"));
    a.width = 320;
    a.height = 200;
    a.steps = steps;
    a.setup.scene = Some(reference_dir().join("app_snapshot_scene.toml"));
    a.backend = backend;
    a.theme = theme;
    a
}

fn load_png(path: &Path) -> image::RgbaImage {
    image::open(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_rgba8()
}

/// Compares `actual` with the reference `name`; writes actual and difference images on failure.
fn check_against_reference(actual: &image::RgbaImage, name: &str) {
    let path = reference_dir().join(name);
    if std::env::var("BOIDS_BLESS").as_deref() == Ok("1") {
        write_png(&path, actual).unwrap();
        eprintln!("blessed {}", path.display());
        return;
    }
    let expected = load_png(&path);
    let diff = compare_images(actual, &expected, &TOLERANCE).unwrap();
    eprintln!(
        "{name}: {} of {} pixels differ (max channel difference {})",
        diff.differing, diff.total, diff.max_channel_diff
    );
    if !diff.passes(&TOLERANCE) {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/snapshot-failures");
        std::fs::create_dir_all(&dir).unwrap();
        let stem = name.trim_end_matches(".png");
        let a = dir.join(format!("{stem}.actual.png"));
        let d = dir.join(format!("{stem}.diff.png"));
        write_png(&a, actual).unwrap();
        write_png(&d, &diff.diff_image).unwrap();
        panic!(
            "{name} differs from its reference: {:.3} % of pixels (allowed {:.3} %); wrote {} and {}",
            diff.fraction() * 100.0,
            TOLERANCE.max_fraction * 100.0,
            a.display(),
            d.display()
        );
    }
}

#[test]
fn dark_snapshot_matches_reference() {
    let Some(ctx) = support::gpu() else { return };
    let img = support::checked(&ctx, || {
        render_snapshot(&ctx, &scene_args(Theme::Dark, BackendKind::Cpu, 90)).unwrap()
    });
    check_against_reference(&img, "app_snapshot_dark.png");
}

#[test]
fn light_snapshot_matches_reference() {
    let Some(ctx) = support::gpu() else { return };
    let img = support::checked(&ctx, || {
        render_snapshot(&ctx, &scene_args(Theme::Light, BackendKind::Cpu, 90)).unwrap()
    });
    check_against_reference(&img, "app_snapshot_light.png");
}

/// The GPU backend's own state buffer and the CPU backend's uploaded mirror draw the same picture
/// for the same state (no steps: both hold the seeded initial flock).
#[test]
fn gpu_state_buffer_and_cpu_mirror_draw_the_same_picture() {
    let Some(ctx) = support::gpu() else { return };
    let gpu = render_snapshot(&ctx, &scene_args(Theme::Dark, BackendKind::Gpu, 0)).unwrap();
    let cpu = render_snapshot(&ctx, &scene_args(Theme::Dark, BackendKind::Cpu, 0)).unwrap();
    let d = compare_images(&gpu, &cpu, &TOLERANCE).unwrap();
    assert_eq!(
        d.differing, 0,
        "max channel difference {}",
        d.max_channel_diff
    );
}

/// The comparator is not a rubber stamp: the reference passes against itself, a single changed
/// pixel stays under the tolerance, and planted changes (a recoloured patch, the flock shifted by
/// two pixels, a slight hue change) are rejected.
#[test]
fn comparator_rejects_planted_changes() {
    let reference = load_png(&reference_dir().join("app_snapshot_dark.png"));
    let same = compare_images(&reference, &reference, &TOLERANCE).unwrap();
    assert_eq!(same.differing, 0);
    assert!(same.passes(&TOLERANCE));

    let mut one = reference.clone();
    one.put_pixel(10, 10, image::Rgba([255, 0, 255, 255]));
    let d = compare_images(&one, &reference, &TOLERANCE).unwrap();
    assert_eq!(d.differing, 1);
    assert!(d.passes(&TOLERANCE));

    let mut patch = reference.clone();
    for y in 80..110 {
        for x in 150..180 {
            patch.put_pixel(x, y, image::Rgba([255, 255, 255, 255]));
        }
    }
    let d = compare_images(&patch, &reference, &TOLERANCE).unwrap();
    assert!(
        !d.passes(&TOLERANCE),
        "a 30×30 patch passed: {}",
        d.differing
    );

    let mut shifted = image::RgbaImage::from_pixel(320, 200, *reference.get_pixel(0, 0));
    for (x, y, p) in reference.enumerate_pixels() {
        if x + 2 < 320 {
            shifted.put_pixel(x + 2, y, *p);
        }
    }
    let d = compare_images(&shifted, &reference, &TOLERANCE).unwrap();
    assert!(
        !d.passes(&TOLERANCE),
        "a 2 px shift passed: {}",
        d.differing
    );

    let mut hue = reference.clone();
    for p in hue.pixels_mut() {
        let [r, g, b, a] = p.0;
        *p = image::Rgba([g, b, r, a]);
    }
    let d = compare_images(&hue, &reference, &TOLERANCE).unwrap();
    assert!(
        !d.passes(&TOLERANCE),
        "a channel rotation passed: {}",
        d.differing
    );

    let small = image::RgbaImage::new(10, 10);
    assert!(compare_images(&small, &reference, &TOLERANCE).is_err());
}

/// `boids snapshot` writes a decodable PNG of the requested size with boids in it.
#[test]
fn snapshot_command_writes_a_png() {
    let Some(_ctx) = support::gpu() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let out = dir.join("snap.png");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_boids"))
        .args([
            "snapshot", "--width", "200", "--height", "120", "--steps", "5",
        ])
        .args(["--boids", "800", "--theme", "light", "--out"])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let img = load_png(&out);
    assert_eq!(img.dimensions(), (200, 120));
    let background = *img.get_pixel(0, 0);
    let others = img.pixels().filter(|p| **p != background).count();
    assert!(others > 500, "only {others} non-background pixels");
    assert!(!dir.join("snap.png.tmp").exists());
}

/// Pixels of `img` within `half` px of `(cx, cy)` whose colour is `kind`'s: red-dominant for a
/// hunter (red > 150, green and blue < 100), amber for a straight predator (red > 180, green 110
/// ..= 190, blue < 80). Returns their count and the width of their bounding box.
fn predator_pixels(
    img: &image::RgbaImage,
    cx: u32,
    cy: u32,
    half: u32,
    hunter: bool,
) -> (usize, u32) {
    let (mut n, mut lo, mut hi) = (0, u32::MAX, 0);
    for y in cy.saturating_sub(half)..(cy + half).min(img.height()) {
        for x in cx.saturating_sub(half)..(cx + half).min(img.width()) {
            let [r, g, b, _] = img.get_pixel(x, y).0;
            let hit = if hunter {
                r > 150 && g < 100 && b < 100
            } else {
                r > 180 && (110..=190).contains(&g) && b < 80
            };
            if hit {
                n += 1;
                lo = lo.min(x);
                hi = hi.max(x);
            }
        }
    }
    (n, if n > 0 { hi - lo + 1 } else { 0 })
}

/// Predators are drawn larger than a boid and in their own colours (hunting red, straight amber),
/// the same from the GPU backend's predator buffer and from the CPU backend's uploaded copy; the
/// same scene without predators has none of those pixels. The picture is also written to
/// `target/snapshot-failures/predators.png` to look at.
#[test]
fn predators_are_drawn_larger_than_boids_in_their_own_colours() {
    let Some(ctx) = support::gpu() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let scene = |predators: bool| {
        let mut text = String::from(
            "boids = 300\nseed = 3\n[params]\nworld_width = 400.0\nworld_height = 250.0\n",
        );
        if predators {
            text += "[[predators]]\nposition = [100.0, 125.0]\nvelocity = [30.0, 0.0]\n\
                     kind = \"hunting\"\n[[predators]]\nposition = [300.0, 125.0]\n\
                     velocity = [0.0, 30.0]\n";
        }
        let path = tmp.path().join(format!("scene_{predators}.toml"));
        std::fs::write(&path, text).unwrap();
        path
    };
    let args = |scene: PathBuf, backend: BackendKind| {
        let mut a = SnapshotArgs::new(PathBuf::from("unused.png"));
        (a.width, a.height, a.steps) = (400, 250, 0);
        a.setup.scene = Some(scene);
        a.backend = backend;
        a.boid_size = Some(4.0);
        a
    };
    let with = scene(true);
    let (gpu, cpu, none) = support::checked(&ctx, || {
        (
            render_snapshot(&ctx, &args(with.clone(), BackendKind::Gpu)).unwrap(),
            render_snapshot(&ctx, &args(with.clone(), BackendKind::Cpu)).unwrap(),
            render_snapshot(&ctx, &args(scene(false), BackendKind::Cpu)).unwrap(),
        )
    });
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/snapshot-failures");
    std::fs::create_dir_all(&dir).unwrap();
    write_png(&dir.join("predators.png"), &gpu).unwrap();
    // The world fills the 400 × 250 image at 1 px per wu: the predators sit at (100, 125) and
    // (300, 125) px. A boid is 4 px long; a predator's disc has a radius of at least 8 px.
    let (hunter, hunter_w) = predator_pixels(&gpu, 100, 125, 20, true);
    let (straight, straight_w) = predator_pixels(&gpu, 300, 125, 20, false);
    assert!(
        hunter >= 60 && hunter_w >= 12,
        "hunter: {hunter} px, {hunter_w} px wide"
    );
    assert!(
        straight >= 60 && straight_w >= 12,
        "straight: {straight} px, {straight_w} px wide"
    );
    // Each colour is its kind's: no amber at the hunter, no red at the straight one.
    assert_eq!(predator_pixels(&gpu, 100, 125, 20, false).0, 0);
    assert_eq!(predator_pixels(&gpu, 300, 125, 20, true).0, 0);
    // Boids alone have neither colour anywhere.
    let everywhere =
        |img: &image::RgbaImage, hunter: bool| predator_pixels(img, 200, 125, 200, hunter).0;
    assert_eq!((everywhere(&none, true), everywhere(&none, false)), (0, 0));
    let d = compare_images(&gpu, &cpu, &TOLERANCE).unwrap();
    assert_eq!(
        d.differing, 0,
        "max channel difference {}",
        d.max_channel_diff
    );
}

/// Every picture is written in the format its extension names (`.png`, `.jpg`/`.jpeg`, any case);
/// another extension is refused with the list of supported ones, before anything is rendered or
/// written.
#[test]
fn pictures_are_written_in_the_format_their_extension_names() {
    use boids::io::write_picture;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut img = image::RgbaImage::from_pixel(40, 30, image::Rgba([20, 30, 200, 255]));
    img.put_pixel(3, 3, image::Rgba([250, 250, 0, 255]));
    for (name, format) in [
        ("a.png", image::ImageFormat::Png),
        ("b.PNG", image::ImageFormat::Png),
        ("c.jpg", image::ImageFormat::Jpeg),
        ("d.JPEG", image::ImageFormat::Jpeg),
    ] {
        let p = dir.join(name);
        write_picture(&p, &img).unwrap();
        let bytes = std::fs::read(&p).unwrap();
        assert_eq!(image::guess_format(&bytes).unwrap(), format, "{name}");
        let back = image::load_from_memory(&bytes).unwrap().to_rgba8();
        assert_eq!(back.dimensions(), (40, 30), "{name}");
        // JPEG is lossy: the flat colour comes back close.
        let p = back.get_pixel(30, 20).0;
        assert!(
            (p[2] as i32 - 200).abs() < 8 && p[3] == 255,
            "{name}: {p:?}"
        );
    }
    for name in ["e.bmp", "f.gif", "noextension", "g.png.txt"] {
        let e = write_picture(&dir.join(name), &img).unwrap_err();
        assert!(
            matches!(e, boids::io::PictureError::Format { .. }),
            "{name}: {e:?}"
        );
        let e = e.to_string();
        assert!(
            e.contains(name) && e.contains(".png") && e.contains(".jpg") && e.contains(".jpeg"),
            "{name}: {e}"
        );
        assert!(!dir.join(name).exists(), "{name} was written");
    }
    // The command refuses before looking for an adapter or rendering.
    let out = dir.join("snap.bmp");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_boids"))
        .args(["snapshot", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && e.contains("snap.bmp") && e.contains(".jpeg"),
        "{e}"
    );
    assert!(!out.exists());
    // So do the script's picture commands, naming the line.
    for cmd in ["capture", "screenshot"] {
        let e = boids::app::script::Script::parse(&format!("1: quit\n2: {cmd} shot.tiff\n"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 2") && e.contains("shot.tiff") && e.contains(".png"),
            "{e}"
        );
    }
}

/// The snapshot's refusals are kinds a caller can act on: a wrong extension before any adapter is
/// looked for, a size or boid length out of range before anything is stepped or rendered, two
/// images of different sizes in the comparator.
#[test]
fn snapshot_refusals_have_their_own_kinds() {
    use boids::app::AppError;
    use boids::io::PictureError;
    let tmp = tempfile::tempdir().unwrap();
    let bmp = tmp.path().join("s.bmp");
    let e = boids::app::snapshot::run(&SnapshotArgs::new(bmp.clone())).unwrap_err();
    assert!(
        matches!(&e, AppError::Picture(PictureError::Format { path }) if *path == bmp),
        "{e:?}"
    );
    let small = image::RgbaImage::new(2, 3);
    let e = compare_images(&small, &image::RgbaImage::new(3, 2), &TOLERANCE).unwrap_err();
    assert_eq!((e.actual, e.expected), ((2, 3), (3, 2)));
    let Some(ctx) = support::gpu() else { return };
    let mut args = scene_args(Theme::Dark, BackendKind::Cpu, 0);
    args.width = 0;
    let e = render_snapshot(&ctx, &args).unwrap_err();
    assert!(
        matches!(
            e,
            AppError::PictureSize(PictureSizeError::Size {
                width: 0,
                height: 200
            })
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("1..=16384"), "{e}");
    args.width = 320;
    args.boid_size = Some(0.0);
    let e = render_snapshot(&ctx, &args).unwrap_err();
    assert!(
        matches!(e, AppError::PictureSize(PictureSizeError::BoidSize { value }) if value == 0.0),
        "{e:?}"
    );
}

/// `boids snapshot --out FILE.jpg` writes a JPEG.
#[test]
fn snapshot_command_writes_a_jpeg() {
    let Some(_ctx) = support::gpu() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("snap.jpg");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_boids"))
        .args([
            "snapshot", "--width", "160", "--height", "90", "--steps", "2",
        ])
        .args(["--boids", "500", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(
        image::guess_format(&bytes).unwrap(),
        image::ImageFormat::Jpeg
    );
    assert_eq!(image::load_from_memory(&bytes).unwrap().width(), 160);
}

/// `boids snapshot --init` draws a saved state: 300 boids placed in the left half of a 100 × 100
/// world leave the right half of the picture empty (a fresh spawn would fill it); `--colour
/// heading` colours the same state by heading, not by hue.
#[test]
fn snapshot_draws_a_saved_state_and_colours_by_heading() {
    let Some(_ctx) = support::gpu() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let state = dir.join("left.csv");
    let mut text = String::from("id,x,y,vx,vy,hx,hy,hvx,hvy\n");
    for i in 0..300u32 {
        let (x, y) = (5.0 + (i % 15) as f32 * 2.8, 5.0 + (i / 15) as f32 * 4.5);
        // Headings all round the circle, one hue for all: the two colourings differ.
        let a = i as f32 * 0.37;
        text += &format!(
            "{i},{x},{y},{},{},1,0,0,0\n",
            50.0 * a.cos(),
            50.0 * a.sin()
        );
    }
    std::fs::write(&state, text).unwrap();
    let picture = |colour: &str| {
        let out = dir.join(format!("{colour}.png"));
        let o = support::cmd::run(&[
            "snapshot",
            "--width",
            "200",
            "--height",
            "200",
            "--steps",
            "0",
            "--boids",
            "300",
            "--set",
            "world_width=100",
            "--set",
            "world_height=100",
            "--boid-size",
            "2",
            "--init",
            state.to_str().unwrap(),
            "--colour",
            colour,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", support::cmd::text(&o));
        load_png(&out)
    };
    let hue = picture("hue");
    let background = *hue.get_pixel(100, 100);
    let drawn = |img: &image::RgbaImage, xs: std::ops::Range<u32>| {
        xs.flat_map(|x| (8..192).map(move |y| (x, y)))
            .filter(|&(x, y)| *img.get_pixel(x, y) != background)
            .count()
    };
    let (left, right) = (drawn(&hue, 8..96), drawn(&hue, 104..192));
    assert!(
        left > 500 && right == 0,
        "left {left}, right {right} pixels drawn"
    );
    let heading = picture("heading");
    let differ = hue
        .pixels()
        .zip(heading.pixels())
        .filter(|(a, b)| a != b)
        .count();
    assert!(differ > 200, "heading colours change {differ} pixels");
}

/// Neighbour colours need a step (the counts are the last step's): `--steps 0` with them is
/// refused, saying so, rather than drawn in one flat colour.
#[test]
fn neighbour_colours_without_a_step_are_refused() {
    let Some(_ctx) = support::gpu() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("n.png");
    let e = support::cmd::refused(&[
        "snapshot",
        "--width",
        "64",
        "--height",
        "64",
        "--steps",
        "0",
        "--boids",
        "100",
        "--colour",
        "neighbours",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(e.contains("--steps 1 or more"), "{e}");
    assert!(!out.exists());
}
