//! How the picture looks: the colour [`Theme`] and the [`RenderStyle`] (boid size, opacity, tail
//! hue shift, what the colour shows, obstacle discs, the world's edge, density dots, trails).

pub use crate::render::colour::ColourMode;

/// Colour theme of the app and of snapshots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    /// Night blue background, light pastel boids.
    #[default]
    Dark,
    /// Paper white background, deeper pastel boids.
    Light,
}

impl Theme {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Dark => "dark",
            Theme::Light => "light",
        }
    }
    /// Background outside the world rectangle (sRGB, 0..1).
    pub fn outside_color(self) -> [f32; 3] {
        match self {
            Theme::Dark => [0.027, 0.031, 0.051],
            Theme::Light => [0.86, 0.855, 0.835],
        }
    }
    /// Background inside the world rectangle (sRGB, 0..1).
    pub fn world_color(self) -> [f32; 3] {
        match self {
            Theme::Dark => [0.055, 0.063, 0.098],
            Theme::Light => [0.965, 0.957, 0.937],
        }
    }
    /// Obstacle colour (sRGB, 0..1).
    pub fn obstacle_color(self) -> [f32; 3] {
        match self {
            Theme::Dark => [0.62, 0.64, 0.70],
            Theme::Light => [0.33, 0.34, 0.38],
        }
    }
    /// Colour of the world's edge line (sRGB, 0..1).
    pub fn edge_color(self) -> [f32; 3] {
        match self {
            Theme::Dark => [0.55, 0.58, 0.68],
            Theme::Light => [0.40, 0.41, 0.46],
        }
    }
    /// (tip lightness, tail lightness, chroma) in OKLCh.
    pub fn palette(self) -> (f32, f32, f32) {
        match self {
            Theme::Dark => (0.90, 0.74, 0.115),
            Theme::Light => (0.76, 0.62, 0.14),
        }
    }
}

/// How the world's edge is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Edge {
    /// Not drawn.
    #[default]
    None,
    /// A solid line around the world (walls and bounce: boids stay inside it).
    Solid,
    /// A faint dashed line, only where the view shows past the world (wrap: a seam, not a wall).
    Seam,
}

impl Edge {
    /// The edge of a boundary mode: solid for walls and bounce, a seam for wrap.
    pub fn of(boundary: crate::model::Boundary) -> Edge {
        match boundary {
            crate::model::Boundary::Wrap => Edge::Seam,
            _ => Edge::Solid,
        }
    }
}

/// Which way boids are drawn ([`crate::render::splat`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Rasteriser {
    /// The compute rasteriser where it is the faster — 20 000 boids or more, drawn as density dots
    /// or as spearheads at most 6 px long on screen (`RenderStyle::compute_min_boids`,
    /// `compute_max_px`) — the instanced draw elsewhere (the default).
    #[default]
    Auto,
    /// Always the instanced draw of the design card (the compute rasteriser's reference).
    Instanced,
    /// Always the compute rasteriser (where its buffers fit the adapter's binding limit; its
    /// anti-aliasing is analytic, so multisampling does not change its picture).
    Compute,
}

/// How boids, obstacles and predators look.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderStyle {
    /// Theme (backgrounds and palette).
    pub theme: Theme,
    /// Boid length tip to tail (wu).
    pub boid_length: f32,
    /// Smallest on-screen boid length of a spearhead (physical px; multiply by the scale factor
    /// for HiDPI). Boids whose length at the current zoom is below it are drawn as density dots.
    pub min_length_px: f32,
    /// Largest on-screen boid length (physical px): zooming in past it, or a world of a few
    /// boids, does not make boids larger.
    pub max_length_px: f32,
    /// Smallest side of a density dot (physical px).
    pub dot_min_px: f32,
    /// Boid opacity, 0..1.
    pub alpha: f32,
    /// Hue offset of the tail colour from the tip colour (degrees).
    pub tail_hue_shift_deg: f32,
    /// Obstacle disc radius (wu).
    pub obstacle_radius: f32,
    /// Smallest on-screen obstacle radius (physical px).
    pub obstacle_min_px: f32,
    /// The world's edge.
    pub edge: Edge,
    /// Width of the edge line (physical px).
    pub edge_px: f32,
    /// Predator disc radius in boid lengths.
    pub predator_scale: f32,
    /// Smallest on-screen predator radius (physical px).
    pub predator_min_px: f32,
    /// What the boids' colour shows ([`ColourMode`]).
    pub colour: ColourMode,
    /// Speeds at the slow and the fast end of the speed colour map (wu/s); the app takes the
    /// model's spawn speed range.
    pub speed_range: (f32, f32),
    /// Neighbour count at the top of the neighbour colour map.
    pub neighbours_full: f32,
    /// How quickly density dots become opaque: each dot is composited at the opacity 1 − exp(−gain
    /// × its coverage of the pixel), so a pixel's opacity is 1 − exp(−gain × the spearhead area
    /// (px²) of the boids over it) and its colour tends to theirs.
    pub dot_gain: f32,
    /// Motion streaks on density dots (on by default): see [`RenderStyle::streak_px`].
    pub streaks: bool,
    /// Length of a density dot's motion streak (physical px): zoomed out, with
    /// [`RenderStyle::streaks`] on, each dot is drawn with a streak this long behind it along its
    /// heading, its ink falling to 15 %
    /// at the tail, so that the heading of every boid and the flow of a flock read at a glance
    /// where a dot alone shows only where boids are. The length shows the heading, not the
    /// speed (the models' speeds have different units); 4 px by default, the length below which
    /// boids are dots, so a boid keeps about its length on screen as it becomes a dot.
    pub streak_px: f32,
    /// Fading trails behind the boids (off by default): each frame draws the boids over the
    /// previous frames' picture, which fades with [`RenderStyle::trail_seconds`].
    pub trails: bool,
    /// Time constant of the trails' fade (s of simulated time): a trail keeps exp(−t / this) of its
    /// opacity t simulated seconds after it was drawn.
    pub trail_seconds: f32,
    /// Which way boids are drawn.
    pub rasteriser: Rasteriser,
    /// The longest on-screen spearhead (physical px) the compute rasteriser draws in
    /// [`Rasteriser::Auto`]: the crossover measured against the instanced draw
    /// (docs/performance.md, "Drawing many boids").
    pub compute_max_px: f32,
    /// The fewest boids the compute rasteriser draws in [`Rasteriser::Auto`]: below, its cost per
    /// frame (clearing and resolving its planes, whatever the count) outweighs what it saves.
    pub compute_min_boids: u32,
}

/// The default [`RenderStyle::compute_max_px`] (px), measured on lavapipe at 1280 × 720 (the draw
/// alone, docs/performance.md "Drawing many boids"): at 100 000 boids the compute rasteriser took
/// 0.78× the instanced draw's time at 8 px and 1.06× at 12 px.
pub const COMPUTE_MAX_PX: f32 = 6.0;

/// The default [`RenderStyle::compute_min_boids`], measured likewise with `boids bench --render`
/// at the app's own boid length: the compute rasteriser took 1.5× the instanced draw's time at
/// 10 000 boids (5.8 px), 0.5× at 20 000 (4.1 px), 0.2× at 1 000 000 (dots).
pub const COMPUTE_MIN_BOIDS: u32 = 20_000;

impl Default for RenderStyle {
    fn default() -> Self {
        RenderStyle {
            theme: Theme::Dark,
            boid_length: 8.0,
            min_length_px: 4.0,
            max_length_px: 64.0,
            dot_min_px: 1.5,
            alpha: 0.92,
            tail_hue_shift_deg: 42.0,
            obstacle_radius: 3.0,
            obstacle_min_px: 2.0,
            edge: Edge::None,
            edge_px: 1.5,
            predator_scale: 1.25,
            predator_min_px: 8.0,
            colour: ColourMode::Hue,
            speed_range: (40.0, 100.0),
            neighbours_full: 40.0,
            dot_gain: 2.5,
            streaks: true,
            streak_px: 4.0,
            trails: false,
            trail_seconds: 0.35,
            rasteriser: Rasteriser::Auto,
            compute_max_px: COMPUTE_MAX_PX,
            compute_min_boids: COMPUTE_MIN_BOIDS,
        }
    }
}

impl RenderStyle {
    /// The speed colour map's range for the parameters `p`: the model's spawn speeds, from 0 for
    /// a constant speed (the app's and `boids snapshot`'s map).
    pub fn speed_range_of(p: &crate::model::SimParams) -> (f32, f32) {
        let (lo, hi) = p.spawn_speeds();
        let lo = if hi - lo < 1e-3 * hi { 0.0 } else { lo };
        (lo, hi)
    }

    /// Whether boids are drawn as density dots at `zoom` (px per wu): their length on screen is
    /// below [`RenderStyle::min_length_px`].
    pub fn dots_at(&self, zoom: f32) -> bool {
        self.boid_length * zoom < self.min_length_px
    }
}

/// The default boid length for a parameter set and `boids` boids (wu): the separation radius (the
/// first of the model's rule radii: Couzin's zone of repulsion), so neighbours at the separation
/// distance just touch, whatever the scale of the scene (10 wu for the defaults, 2 wu in a 100 wu
/// fish box, 1 wu for Couzin's animals); else 0.4 × the radius of the neighbourhood — the
/// perception radius (0.4 wu for the Vicsek model's r = 1), or in the topological neighbourhood,
/// which has none, the typical distance of the k-th nearest, √(k/(π·ρ)) (0.3 wu for k = 7 at the
/// Vicsek density 4), and in the Voronoi one the radius of the disc holding its mean 6
/// neighbours, √(6/(π·ρ)) (0.55 wu at density 1).
pub fn boid_length_for(params: &crate::model::SimParams, boids: usize) -> f32 {
    use crate::model::Neighborhood;
    let separation = params.rule_radii().first().map_or(0.0, |&(_, r)| r);
    if separation > 0.0 {
        return separation;
    }
    match params.neighborhood {
        Neighborhood::Metric => 0.4 * params.perception_radius,
        Neighborhood::Topological => 0.4 * crate::model::derive::kth_nearest_radius(params, boids),
        Neighborhood::Voronoi => {
            let area = params.world_width as f64 * params.world_height as f64;
            let r = (6.0 * area / (std::f64::consts::PI * boids.max(1) as f64)).sqrt();
            0.4 * r.min(0.5 * params.world_width.min(params.world_height) as f64) as f32
        }
    }
}
