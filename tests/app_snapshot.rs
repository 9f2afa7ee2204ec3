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
//! references after an intended change: `BOIDS_BLESS=1 cargo test --release --test app_snapshot`.

mod common;

use std::path::{Path, PathBuf};

use boids::app::snapshot::{compare_images, render_snapshot, write_png, SnapshotArgs, Tolerance};
use boids::app::AppBackend as BackendKind;
use boids::render::Theme;

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
    a.scene = Some(reference_dir().join("app_snapshot_scene.toml"));
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
    let Some(ctx) = common::gpu() else { return };
    let img = common::checked(&ctx, || {
        render_snapshot(&ctx, &scene_args(Theme::Dark, BackendKind::Cpu, 90)).unwrap()
    });
    check_against_reference(&img, "app_snapshot_dark.png");
}

#[test]
fn light_snapshot_matches_reference() {
    let Some(ctx) = common::gpu() else { return };
    let img = common::checked(&ctx, || {
        render_snapshot(&ctx, &scene_args(Theme::Light, BackendKind::Cpu, 90)).unwrap()
    });
    check_against_reference(&img, "app_snapshot_light.png");
}

/// The GPU backend's own state buffer and the CPU backend's uploaded mirror draw the same picture
/// for the same state (no steps: both hold the seeded initial flock).
#[test]
fn gpu_state_buffer_and_cpu_mirror_draw_the_same_picture() {
    let Some(ctx) = common::gpu() else { return };
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
    let Some(_ctx) = common::gpu() else { return };
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
