//! How the renderer looks, checked on planted states drawn offscreen: spearheads anti-aliased by
//! their analytic coverage (a 1× picture against a 4× supersampled one), density dots that keep a
//! flock's hue and streak behind each boid along its heading, trails that fade by simulated time
//! and restart on a new view, and colour modes that show what they name. A test without an
//! adapter says SKIPPED (and fails under BOIDS_REQUIRE_GPU=1).

use crate::support;
use boids::gpu::GpuContext;
use boids::model::Boid;
use boids::render::{
    Camera, ColourMode, Offscreen, Rasteriser, RenderStyle, Renderer, StateMirror, Theme,
};
use boids::simulation::StateSlices;
use glam::Vec2;

/// A boid at `at` (wu) flying along `heading` (rad) at `speed` (wu/s) with the hue angle `hue`.
fn boid(id: u32, at: [f32; 2], heading: f32, speed: f32, hue: f32) -> Boid {
    let (s, c) = heading.sin_cos();
    let (hs, hc) = hue.sin_cos();
    Boid::from_parts([at[0], at[1], c * speed, s * speed], [hc, hs, 0.0, 0.0], id)
}

/// Draws `boids` (with their neighbour counts) once, `size` px, through the world `world` (wu)
/// fitted to the picture (or `camera`), with `style`.
struct Painter {
    ctx: GpuContext,
    renderer: Renderer,
    mirror: StateMirror,
}

impl Painter {
    fn new(ctx: &GpuContext) -> Painter {
        Painter {
            ctx: ctx.clone(),
            renderer: Renderer::new(&ctx.device, Offscreen::FORMAT, 1),
            mirror: StateMirror::default(),
        }
    }

    fn draw(
        &mut self,
        boids: &[Boid],
        neighbors: &[u32],
        camera: &Camera,
        style: &RenderStyle,
    ) -> image::RgbaImage {
        let pos_vel: Vec<[f32; 4]> = boids.iter().map(Boid::pos_vel).collect();
        let hue: Vec<[f32; 4]> = boids.iter().map(Boid::hue_parts).collect();
        let state = self.mirror.upload(
            &self.ctx.device,
            &self.ctx.queue,
            StateSlices {
                pos_vel: &pos_vel,
                hue: &hue,
                neighbors,
            },
        );
        let vp = camera.viewport;
        let target = Offscreen::new(&self.ctx.device, vp.x as u32, vp.y as u32);
        let mut enc = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        self.renderer.record(
            &mut enc,
            target.view(),
            &self.ctx.queue,
            &state,
            boids.len() as u32,
            camera,
            style,
        );
        self.ctx.queue.submit([enc.finish()]);
        target.read(&self.ctx.device, &self.ctx.queue).unwrap()
    }
}

fn background(theme: Theme) -> [u8; 3] {
    theme
        .world_color()
        .map(|c| (c * 255.0).round().clamp(0.0, 255.0) as u8)
}

/// The largest channel difference of a pixel from `bg`.
fn ink(p: &image::Rgba<u8>, bg: [u8; 3]) -> u8 {
    (0..3).map(|c| p[c].abs_diff(bg[c])).max().unwrap()
}

/// The mean colour (0..255) of the pixels in columns `x0..x1` that differ from `bg` by more than
/// 8, and how many there are.
fn mean_ink_colour(img: &image::RgbaImage, x0: u32, x1: u32, bg: [u8; 3]) -> ([f64; 3], usize) {
    let mut sum = [0.0; 3];
    let mut n = 0;
    for (x, _, p) in img.enumerate_pixels() {
        if (x0..x1).contains(&x) && ink(p, bg) > 8 {
            for c in 0..3 {
                sum[c] += p[c] as f64;
            }
            n += 1;
        }
    }
    (sum.map(|s| s / n.max(1) as f64), n)
}

fn style(theme: Theme, length: f32) -> RenderStyle {
    RenderStyle {
        theme,
        boid_length: length,
        ..RenderStyle::default()
    }
}

/// A 1× picture of small spearheads at many angles matches the same picture drawn 4× larger and
/// averaged over 4 × 4 blocks (what a box filter sees): the edges are partly covered pixels, not
/// stair steps. The picture is drawn in sRGB-encoded values, blended there, so the blocks are
/// averaged there too. An aliased picture — the 4× picture sampled at each pixel's centre, as a
/// rasteriser without coverage draws — is off in at least 4× as many pixels.
#[test]
fn spearheads_are_anti_aliased_like_a_supersampled_picture() {
    let Some(ctx) = support::gpu() else { return };
    let mut p = Painter::new(&ctx);
    let world = Vec2::new(160.0, 100.0);
    let mut boids = Vec::new();
    for i in 0..8u32 {
        for j in 0..5u32 {
            let at = [
                12.0 + 19.0 * i as f32 + 0.37 * j as f32,
                12.0 + 19.0 * j as f32,
            ];
            let heading = (i * 5 + j) as f32 * 0.41;
            boids.push(boid(i * 5 + j, at, heading, 50.0, 1.3));
        }
    }
    let counts = vec![0; boids.len()];
    let bg = background(Theme::Dark);
    let channel_diff = |a: [u8; 3], b: [u8; 3]| (0..3).map(|c| a[c].abs_diff(b[c])).max().unwrap();
    for length in [6.0f32, 12.0] {
        let st = RenderStyle {
            min_length_px: 1.0,
            max_length_px: 1000.0,
            ..style(Theme::Dark, length)
        };
        let one = support::checked(&ctx, || {
            p.draw(&boids, &counts, &Camera::fit(world, world), &st)
        });
        let four = support::checked(&ctx, || {
            p.draw(&boids, &counts, &Camera::fit(world, world * 4.0), &st)
        });
        let (mut inked, mut partial, mut off, mut off_aliased) = (0, 0, 0, 0);
        for (x, y, a) in one.enumerate_pixels() {
            let mut sum = [0u32; 3];
            for dy in 0..4 {
                for dx in 0..4 {
                    let q = four.get_pixel(4 * x + dx, 4 * y + dy);
                    for c in 0..3 {
                        sum[c] += q[c] as u32;
                    }
                }
            }
            let filtered = sum.map(|v| ((v + 8) / 16) as u8);
            let centre = four.get_pixel(4 * x + 2, 4 * y + 2);
            let aliased = [centre[0], centre[1], centre[2]];
            let i = ink(a, bg).max(channel_diff(filtered, bg));
            if i > 4 {
                inked += 1;
                off += (channel_diff([a[0], a[1], a[2]], filtered) > 40) as u32;
                off_aliased += (channel_diff(aliased, filtered) > 40) as u32;
                // Partly covered: well between the background and a covered pixel.
                partial += (20..120).contains(&ink(a, bg)) as u32;
            }
        }
        eprintln!(
            "{length} px: {inked} inked pixels, {partial} partly covered, {off} off by > 40 \
             from the filtered 4× picture ({off_aliased} when aliased)"
        );
        if std::env::var_os("BOIDS_LOOKS_DEBUG").is_some() {
            one.save(format!("target/aa-{length}-1x.png")).unwrap();
            four.save(format!("target/aa-{length}-4x.png")).unwrap();
        }
        assert!(inked > 40 * 4, "{length} px: only {inked} inked pixels");
        assert!(
            partial * 4 > inked,
            "{length} px: {partial} of {inked} pixels partly covered: edges are not smoothed"
        );
        assert!(
            off * 20 < inked && off * 4 < off_aliased,
            "{length} px: {off} of {inked} pixels differ by > 40 from the filtered picture \
             ({off_aliased} aliased)"
        );
    }
}

/// Zoomed out to density dots, a flock keeps its hue: two dense flocks of different hues resolve
/// to colours as saturated as their spearheads' and of the same hue (within 30°), on both themes, rather than to the grey that adding pastel colours on a dark background gave.
#[test]
fn density_dots_keep_each_flocks_hue() {
    let Some(ctx) = support::gpu() else { return };
    let mut p = Painter::new(&ctx);
    // The world fits 400 × 200 px at 0.4 px per wu: a boid of 8 wu is a 3.2 px dot, one of 20 wu
    // an 8 px spearhead.
    let world = Vec2::new(1000.0, 500.0);
    let cam = Camera::fit(world, Vec2::new(400.0, 200.0));
    // Two flocks of 1500 boids, 150 wu across, at hue angles 0 (pink) and 2.4 rad (green).
    let mut boids = Vec::new();
    let mut rng = 12345u32;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 17;
        rng ^= rng << 5;
        rng as f32 / u32::MAX as f32
    };
    for (k, (cx, hue)) in [(250.0f32, 0.0f32), (750.0, 2.4)].into_iter().enumerate() {
        for i in 0..1500u32 {
            let at = [cx + 150.0 * (next() - 0.5), 250.0 + 150.0 * (next() - 0.5)];
            boids.push(boid(
                k as u32 * 1500 + i,
                at,
                next() * std::f32::consts::TAU,
                60.0,
                hue,
            ));
        }
    }
    let counts = vec![10; boids.len()];
    let spread = |c: [f64; 3]| {
        c.iter().cloned().fold(f64::MIN, f64::max) - c.iter().cloned().fold(f64::MAX, f64::min)
    };
    // Hue angle (HSV, degrees) of a colour.
    let hue = |c: [f64; 3]| {
        let [r, g, b] = c;
        let (hi, lo) = (r.max(g).max(b), r.min(g).min(b));
        let d = (hi - lo).max(1e-9);
        let h = if hi == r {
            (g - b) / d
        } else if hi == g {
            2.0 + (b - r) / d
        } else {
            4.0 + (r - g) / d
        };
        (h * 60.0).rem_euclid(360.0)
    };
    let apart = |a: f64, b: f64| {
        let d = (a - b).rem_euclid(360.0);
        d.min(360.0 - d)
    };
    for theme in [Theme::Dark, Theme::Light] {
        let bg = background(theme);
        let (big, small) = (style(theme, 20.0), style(theme, 8.0));
        assert!(small.dots_at(cam.zoom) && !big.dots_at(cam.zoom));
        let spear = support::checked(&ctx, || p.draw(&boids, &counts, &cam, &big));
        let dots = support::checked(&ctx, || p.draw(&boids, &counts, &cam, &small));
        for (k, (x0, x1)) in [(0, 200), (200, 400)].into_iter().enumerate() {
            let (s, ns) = mean_ink_colour(&spear, x0, x1, bg);
            let (d, nd) = mean_ink_colour(&dots, x0, x1, bg);
            eprintln!("{theme:?} flock {k}: spearheads {s:.0?} ({ns} px), dots {d:.0?} ({nd} px)");
            assert!(
                ns > 1000 && nd > 1000,
                "{theme:?} flock {k}: {ns}, {nd} pixels"
            );
            assert!(
                spread(d) > 0.6 * spread(s),
                "{theme:?} flock {k}: dots {d:.0?} are greyer than spearheads {s:.0?}"
            );
            assert!(
                apart(hue(d), hue(s)) < 30.0,
                "{theme:?} flock {k}: hue {:.0}° of {d:.0?} against {:.0}° of {s:.0?}",
                hue(d),
                hue(s)
            );
        }
    }
}

/// Trails: a boid that moved leaves a trail where it was, which fades with simulated time
/// (advance), is kept while no time passes, and is gone after a change of theme; without
/// trails nothing is left behind.
#[test]
fn trails_fade_by_simulated_time() {
    let Some(ctx) = support::gpu() else { return };
    let mut p = Painter::new(&ctx);
    let world = Vec2::new(200.0, 100.0);
    let cam = Camera::fit(world, world * 2.0);
    let at_a = vec![boid(0, [50.0, 50.0], 0.0, 60.0, 1.0)];
    let at_b = vec![boid(0, [150.0, 50.0], 0.0, 60.0, 1.0)];
    let counts = [0u32];
    let trails = RenderStyle {
        trails: true,
        trail_seconds: 0.5,
        ..style(Theme::Dark, 10.0)
    };
    let bg = background(Theme::Dark);
    // Ink left of the middle (where the boid was) and right of it (where it is).
    let left = |img: &image::RgbaImage| mean_ink_colour(img, 0, 200, bg).1;
    let right = |img: &image::RgbaImage| mean_ink_colour(img, 200, 400, bg).1;
    let first = p.draw(&at_a, &counts, &cam, &trails);
    assert!(left(&first) > 20 && right(&first) == 0);
    p.renderer.advance(0.1);
    let moved = p.draw(&at_b, &counts, &cam, &trails);
    assert!(right(&moved) > 20, "the boid is drawn where it is");
    let trail = left(&moved);
    assert!(
        trail * 2 > left(&first),
        "a trail of {trail} px after 0.1 s (τ 0.5 s)"
    );
    let first_ink: u32 = first.pixels().map(|q| ink(q, bg) as u32).sum();
    let trail_ink: u32 = moved
        .enumerate_pixels()
        .filter(|(x, _, _)| *x < 200)
        .map(|(_, _, q)| ink(q, bg) as u32)
        .sum();
    let keep = trail_ink as f64 / first_ink as f64;
    assert!(
        (keep - (-0.2f64).exp()).abs() < 0.1,
        "kept {keep:.3} of the trail after 0.1 s, expected about {:.3}",
        (-0.2f64).exp()
    );
    // No simulated time: the trail stays as it is.
    let paused = p.draw(&at_b, &counts, &cam, &trails);
    assert_eq!(left(&paused), trail);
    // Ten time constants: gone.
    p.renderer.advance(5.0);
    assert_eq!(left(&p.draw(&at_b, &counts, &cam, &trails)), 0);
    // A theme change starts afresh.
    p.draw(&at_a, &counts, &cam, &trails);
    p.renderer.advance(0.1);
    let light = RenderStyle {
        theme: Theme::Light,
        ..trails
    };
    let img = p.draw(&at_b, &counts, &cam, &light);
    assert_eq!(mean_ink_colour(&img, 0, 200, background(Theme::Light)).1, 0);
    // Without trails, nothing is left behind.
    let plain = style(Theme::Dark, 10.0);
    p.draw(&at_a, &counts, &cam, &plain);
    p.renderer.advance(0.1);
    assert_eq!(left(&p.draw(&at_b, &counts, &cam, &plain)), 0);
}

/// Each colour mode shows what it names: two boids alike but for one property are drawn in the
/// same colour by the modes that ignore it and in different colours by the mode that shows it.
#[test]
fn colour_modes_show_what_they_name() {
    let Some(ctx) = support::gpu() else { return };
    let mut p = Painter::new(&ctx);
    let world = Vec2::new(200.0, 100.0);
    let cam = Camera::fit(world, world * 2.0);
    let bg = background(Theme::Dark);
    // (the property that differs, left boid, right boid, their neighbour counts)
    let base = |x: f32| boid(0, [x, 50.0], 0.0, 70.0, 1.0);
    let cases: [(ColourMode, Boid, Boid, u32, u32); 3] = [
        (
            ColourMode::Heading,
            base(50.0),
            boid(1, [150.0, 50.0], std::f32::consts::PI, 70.0, 1.0),
            20,
            20,
        ),
        (
            ColourMode::Speed,
            boid(0, [50.0, 50.0], 0.0, 40.0, 1.0),
            boid(1, [150.0, 50.0], 0.0, 100.0, 1.0),
            20,
            20,
        ),
        (ColourMode::Neighbours, base(50.0), base(150.0), 0, 40),
    ];
    let differ = |a: [f64; 3], b: [f64; 3]| (0..3).map(|c| (a[c] - b[c]).abs()).fold(0.0, f64::max);
    for (shown, left, right, nl, nr) in cases {
        let boids = [left, Boid { id: 1, ..right }];
        for mode in ColourMode::ALL {
            let st = RenderStyle {
                colour: mode,
                speed_range: (40.0, 100.0),
                neighbours_full: 40.0,
                ..style(Theme::Dark, 20.0)
            };
            let img = support::checked(&ctx, || p.draw(&boids, &[nl, nr], &cam, &st));
            let (a, na) = mean_ink_colour(&img, 0, 200, bg);
            let (b, nb) = mean_ink_colour(&img, 200, 400, bg);
            assert!(na > 30 && nb > 30, "{mode:?}: {na}, {nb} pixels");
            let d = differ(a, b);
            if mode == shown {
                assert!(
                    d > 40.0,
                    "{mode:?} does not tell {shown:?} apart: {a:.0?} vs {b:.0?}"
                );
            } else {
                assert!(
                    d < 12.0,
                    "{mode:?} tells apart two boids alike but for {shown:?}: {a:.0?} vs {b:.0?}"
                );
            }
        }
    }
}

/// The mean channel difference of two pictures (0..255) and the fraction of pixels whose largest
/// channel difference exceeds 16.
fn picture_difference(a: &image::RgbaImage, b: &image::RgbaImage) -> (f64, f64) {
    assert_eq!(a.dimensions(), b.dimensions());
    let (mut sum, mut off) = (0u64, 0u64);
    for (p, q) in a.pixels().zip(b.pixels()) {
        let d: Vec<u8> = (0..3).map(|c| p[c].abs_diff(q[c])).collect();
        sum += d.iter().map(|&v| u64::from(v)).sum::<u64>();
        off += (d.iter().copied().max().unwrap() > 16) as u64;
    }
    let pixels = f64::from(a.width() * a.height());
    (sum as f64 / (3.0 * pixels), off as f64 / pixels)
}

/// Whether two pictures are the same drawing: mean |Δ| ≤ 2/255 and at most 1 % of pixels off by
/// more than 16/255.
fn same_drawing(a: &image::RgbaImage, b: &image::RgbaImage) -> Result<(), String> {
    let (mean, off) = picture_difference(a, b);
    if mean <= 2.0 && off <= 0.01 {
        Ok(())
    } else {
        Err(format!(
            "mean |Δ| {mean:.3}/255, {:.3} % of pixels off by > 16",
            off * 100.0
        ))
    }
}

/// Draws `boids` through both rasterisers with `st` and holds the two pictures to
/// [`same_drawing`]; returns the compute picture.
fn both_rasterisers(
    p: &mut Painter,
    ctx: &GpuContext,
    boids: &[Boid],
    cam: &Camera,
    st: &RenderStyle,
    what: &str,
) -> image::RgbaImage {
    let counts = vec![3; boids.len()];
    let draw = |p: &mut Painter, rasteriser| {
        let st = RenderStyle { rasteriser, ..*st };
        support::checked(ctx, || p.draw(boids, &counts, cam, &st))
    };
    let instanced = draw(p, Rasteriser::Instanced);
    let compute = draw(p, Rasteriser::Compute);
    // The rasteriser's planes are left clear for the next frame: the same frame again is the
    // same picture.
    let again = draw(p, Rasteriser::Compute);
    assert!(
        compute == again,
        "{what}: the compute rasteriser's second frame differs from its first"
    );
    let (mean, off) = picture_difference(&instanced, &compute);
    eprintln!(
        "{what}: mean |Δ| {mean:.3}/255, {:.3} % of pixels off by > 16",
        off * 100.0
    );
    if std::env::var_os("BOIDS_LOOKS_DEBUG").is_some() {
        instanced
            .save(format!("target/raster-{what}-instanced.png"))
            .unwrap();
        compute
            .save(format!("target/raster-{what}-compute.png"))
            .unwrap();
    }
    same_drawing(&instanced, &compute).unwrap_or_else(|e| panic!("{what}: {e}"));
    compute
}

/// The compute rasteriser draws what its reference, the instanced draw, draws: spearheads at the
/// crossover length (the longest it draws by default) at every heading and hue with no overlaps,
/// the default scene's flock of 20 000 (overlapping where dense) at that length and at its own,
/// and density dots — each within mean |Δ| ≤ 2/255 and ≤ 1 % of pixels off by more than 16/255,
/// and the same frame drawn twice by the compute rasteriser is the same picture.
/// The comparison finds a planted difference: the same boids one pixel further along.
#[test]
fn the_compute_rasteriser_draws_what_the_instanced_draw_draws() {
    let Some(ctx) = support::gpu() else { return };
    let mut p = Painter::new(&ctx);
    let crossover = boids::render::style::COMPUTE_MAX_PX;
    // Apart: a 24 × 14 lattice 12 px apart in a 320 × 200 px picture (1 px per wu).
    let world = Vec2::new(320.0, 200.0);
    let cam = Camera::fit(world, world);
    let mut apart = Vec::new();
    for i in 0..24u32 {
        for j in 0..14u32 {
            let k = i * 14 + j;
            let at = [
                12.0 + 12.0 * i as f32 + 0.31 * j as f32,
                12.0 + 13.0 * j as f32 + 0.17 * i as f32,
            ];
            apart.push(boid(
                k,
                at,
                k as f32 * 0.7,
                30.0 + k as f32 % 20.0,
                k as f32 * 0.9,
            ));
        }
    }
    for theme in [Theme::Dark, Theme::Light] {
        let st = style(theme, crossover);
        let what = format!("apart-{theme:?}");
        let compute = both_rasterisers(&mut p, &ctx, &apart, &cam, &st, &what);
        // Planted: every boid one pixel further along its heading.
        let moved: Vec<Boid> = apart
            .iter()
            .map(|b| {
                let [x, y, vx, vy] = b.pos_vel();
                let s = (vx * vx + vy * vy).sqrt();
                Boid::from_parts([x + vx / s, y + vy / s, vx, vy], b.hue_parts(), b.id)
            })
            .collect();
        let st = RenderStyle {
            rasteriser: Rasteriser::Instanced,
            ..st
        };
        let planted = support::checked(&ctx, || p.draw(&moved, &vec![3; moved.len()], &cam, &st));
        assert!(
            same_drawing(&planted, &compute).is_err(),
            "{theme:?}: boids moved by a pixel pass as the same drawing"
        );
    }
    // The default scene, 20 000 boids after 20 steps, at 1280 × 720.
    let n = 20_000;
    let scene = boids::app::presets::default_scene().unwrap();
    let setup =
        boids::run::spec::scene_setup(Some(&scene), Some(n), Some(1), n, 1280.0 / 720.0).unwrap();
    let mut sim = boids::backend::create(boids::backend::BackendKind::Cpu, &setup, None).unwrap();
    for _ in 0..20 {
        sim.step().unwrap();
    }
    let flock: Vec<Boid> = sim.read_state().unwrap();
    let world = Vec2::new(setup.params.world_width, setup.params.world_height);
    let cam = Camera::fit(world, Vec2::new(1280.0, 720.0));
    let own = boids::render::boid_length_for(&setup.params, n);
    for (what, length) in [
        ("default-crossover", crossover / cam.zoom),
        ("default-own", own),
        ("default-dots", own * 0.25),
    ] {
        let st = style(Theme::Dark, length);
        both_rasterisers(&mut p, &ctx, &flock, &cam, &st, what);
    }
}

/// Motion streaks: zoomed out, each density dot's ink lies behind it along its heading (its
/// ink-weighted centre 1 px or more behind the boid, within 0.3 px of the line of flight) at
/// every heading, on both rasterisers, and about as much ink as a square dot's (0.8–1.3×: a
/// streak spreads its dot's ink); with streaks off the dot is centred on the boid (within 0.3 px)
/// whatever its heading. The check finds a planted difference: streaks drawn ahead.
#[test]
fn density_dots_streak_behind_each_boid_along_its_heading() {
    let Some(ctx) = support::gpu() else { return };
    let mut p = Painter::new(&ctx);
    // 1 px per wu; boids 2 wu long are dots (below 4 px), on a lattice 20 px apart.
    let world = Vec2::new(400.0, 200.0);
    let cam = Camera::fit(world, world);
    let bg = background(Theme::Dark);
    // The mean offset (px) from each boid to the ink-weighted centre of the pixels within 9 px.
    let ink_offset = |img: &image::RgbaImage, boids: &[Boid]| -> Vec2 {
        let mut sum = Vec2::ZERO;
        for b in boids {
            let [x, y, _, _] = b.pos_vel();
            let at = (Vec2::new(x, y) - cam.center) * cam.zoom + 0.5 * cam.viewport;
            let (mut w, mut c) = (0.0f32, Vec2::ZERO);
            for py in (at.y as i32 - 9)..=(at.y as i32 + 9) {
                for px in (at.x as i32 - 9)..=(at.x as i32 + 9) {
                    let k = f32::from(ink(img.get_pixel(px as u32, py as u32), bg));
                    w += k;
                    c += k * (Vec2::new(px as f32, py as f32) + 0.5 - at);
                }
            }
            assert!(w > 0.0, "a boid at {at} left no ink");
            sum += c / w;
        }
        sum / boids.len() as f32
    };
    for k in 0..8 {
        let heading = k as f32 * std::f32::consts::FRAC_PI_4 + 0.1;
        let dir = Vec2::from_angle(heading);
        let boids: Vec<Boid> = (0..18u32)
            .flat_map(|i| (0..8u32).map(move |j| (i, j)))
            .map(|(i, j)| {
                let at = [20.0 + 20.0 * i as f32 + 0.3, 20.0 + 20.0 * j as f32 + 0.7];
                boid(i * 8 + j, at, heading, 50.0, 1.0)
            })
            .collect();
        let counts = vec![3; boids.len()];
        for rasteriser in [Rasteriser::Instanced, Rasteriser::Compute] {
            let st = RenderStyle {
                rasteriser,
                ..style(Theme::Dark, 2.0)
            };
            assert!(st.dots_at(cam.zoom) && st.streaks);
            let on = support::checked(&ctx, || p.draw(&boids, &counts, &cam, &st));
            let off = support::checked(&ctx, || {
                p.draw(
                    &boids,
                    &counts,
                    &cam,
                    &RenderStyle {
                        streaks: false,
                        ..st
                    },
                )
            });
            let (o_on, o_off) = (ink_offset(&on, &boids), ink_offset(&off, &boids));
            // A streak spreads its dot's ink instead of adding to it.
            let total = |img: &image::RgbaImage| -> f64 {
                img.pixels().map(|p| f64::from(ink(p, bg))).sum()
            };
            let spread = total(&on) / total(&off);
            eprintln!(
                "{rasteriser:?} heading {heading:.2}: ink with streaks / square dots {spread:.3}"
            );
            assert!(
                (0.8..=1.3).contains(&spread),
                "{rasteriser:?} heading {heading:.2}: streaks carry {spread:.2}× the ink of square dots"
            );
            eprintln!("{rasteriser:?} heading {heading:.2}: streaks {o_on}, square dots {o_off}");
            let behind = |o: Vec2| -o.dot(dir);
            let aside = |o: Vec2| o.perp_dot(dir).abs();
            assert!(
                behind(o_on) >= 1.0 && aside(o_on) <= 0.3,
                "{rasteriser:?} heading {heading:.2}: the streaks' ink centre is {o_on} from the boids"
            );
            assert!(
                o_off.length() <= 0.3,
                "{rasteriser:?} heading {heading:.2}: square dots' ink centre is {o_off} from the boids"
            );
            // Planted: streaks drawn ahead (the boids heading the other way) fail the check.
            let reversed: Vec<Boid> = boids
                .iter()
                .map(|b| {
                    let [x, y, vx, vy] = b.pos_vel();
                    Boid::from_parts([x, y, -vx, -vy], b.hue_parts(), b.id)
                })
                .collect();
            let ahead = support::checked(&ctx, || p.draw(&reversed, &counts, &cam, &st));
            assert!(behind(ink_offset(&ahead, &boids)) < 1.0);
        }
    }
}
