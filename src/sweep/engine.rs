//! The one place where a sweep calls into the simulator: scene parsing, the start-up rule
//! ([`crate::model::Setup::resolve_params`]), parameter validation, the initial flock, the backend
//! factory ([`crate::backend::create`]) and the [`crate::backend::Simulation`] steps and measures
//! all happen inside [`run_point`], so a change of those interfaces touches this function only.
//!
//! How a point's setup is resolved, in order:
//! 1. the scene (or the defaults), `--boids` (or the `boids` value of the point, or the scene's
//!    count, else 20 000) and the seed go through the same rule as `boids headless`: unless the
//!    scene fixes the world size, the world is a square sized to the count at the default density
//!    (0.01 boids/wu²) — so a `boids` sweep keeps the density and grows the world, while a scene
//!    that fixes the world keeps it and the density grows with the count;
//! 2. each swept [`crate::model::SimParams`] field is set (see [`crate::sweep::assign`]);
//! 3. a `density` value (boids/wu²) re-sizes the world last, keeping its aspect ratio, to
//!    count / density wu² — also when the scene fixes the world (the sweep asks for it); a
//!    density whose world side would fall outside 3 perception radii ..= 10⁶ wu is refused;
//! 4. the count and every parameter are validated, and every swept parameter must be one the
//!    model uses (its own and the shared ones its rules read: a sweep of `vicsek_eta` on a boids
//!    scene is refused, naming the model and its parameters).

use std::path::Path;

use crate::backend::{self, BackendKind};
use crate::bench::sysinfo::AdapterSummary;
use crate::gpu::GpuContext;
use crate::model::measures::MeasureId;
use crate::model::{initial_state, validate_boid_count, Scene, Setup, SimParams};
use crate::sweep::assign::set_field;

/// Boid count when neither `--boids`, a `boids` axis nor the scene gives one (as `boids headless`).
pub const DEFAULT_BOIDS: usize = 20_000;

/// The GPU context, made on the first GPU point and kept for the next ones.
#[derive(Default)]
pub struct Device(Option<GpuContext>);

/// What to resolve (and run).
pub struct PointRequest<'a> {
    /// The scene file's path (for messages) and text.
    pub scene: Option<(&'a Path, &'a str)>,
    /// Backend.
    pub backend: BackendKind,
    /// `--boids`.
    pub boids: Option<usize>,
    /// The seed (None: the scene's, else 1).
    pub seed: Option<u32>,
    /// The swept names and the point's values.
    pub settings: Vec<(String, f64)>,
    /// Steps to run; 0 resolves and checks only (no backend is made, but the GPU context is, so
    /// a missing adapter or a count over its limits is found before any run).
    pub steps: u32,
    /// Steps run before the measures are recorded.
    pub discard: u32,
}

/// A resolved (and possibly run) point.
pub struct PointRun {
    /// Boid count.
    pub boids: usize,
    /// World width and height (wu).
    pub world: [f32; 2],
    /// The seed used.
    pub seed: u32,
    /// The parameters used (their scene-file form).
    pub params: serde_json::Value,
    /// The adapter, for a GPU run.
    pub adapter: Option<AdapterSummary>,
    /// The measures after each step past `discard`, in [`crate::sweep::measures`] order.
    pub samples: Vec<Vec<f64>>,
}

/// Resolves the setup of one point, validates it, and runs it when `req.steps > 0`, calling
/// `on_step` after every step.
///
/// # Errors
/// A message naming the scene file, parameter, value and allowed range, or the backend's error.
pub fn run_point(
    req: &PointRequest<'_>,
    device: &mut Device,
    on_step: &mut dyn FnMut(),
) -> Result<PointRun, String> {
    let scene = match req.scene {
        Some((path, text)) => Some(Scene::parse(text, path).map_err(|e| e.to_string())?),
        None => None,
    };
    let get = |name: &str| req.settings.iter().find(|(n, _)| n == name).map(|s| s.1);
    let boids = match get("boids") {
        Some(v) if v.fract() != 0.0 || !(1.0..=1e12).contains(&v) => {
            return Err(format!("boids = {v}: the boid count is a whole number ≥ 1"))
        }
        Some(v) => Some(v as usize),
        None => req.boids,
    };
    let (params, n, seed, actors) =
        Setup::resolve_params(scene.as_ref(), boids, req.seed, DEFAULT_BOIDS, 1.0);
    validate_boid_count(n).map_err(|e| e.to_string())?;
    let mut table = toml::Table::try_from(&params).map_err(|e| e.to_string())?;
    for (name, v) in &req.settings {
        if !crate::sweep::assign::SPECIAL.contains(&name.as_str()) {
            set_field(&mut table, name, *v)?;
        }
    }
    let mut params: SimParams = table
        .try_into()
        .map_err(|e: toml::de::Error| e.message().to_string())?;
    if let Some(d) = get("density") {
        let aspect = params.world_width / params.world_height;
        let sized = params.clone().with_world_for_aspect(n, d as f32, aspect);
        let got = n as f64 / (sized.world_width as f64 * sized.world_height as f64);
        if !(d > 0.0 && ((got - d) / d).abs() < 1e-3) {
            let min_side = 3.0 * params.perception_radius as f64;
            return Err(format!(
                "density = {d} is out of range at {n} boids: allowed {} ..= {} boids/wu² (a \
                 world side between 3 perception radii, {min_side} wu, and 1e6 wu)",
                n as f64 / 1e12,
                n as f64 / (min_side * min_side)
            ));
        }
        params = sized;
    }
    params.validate().map_err(|e| e.to_string())?;
    // A swept parameter the model does not use would change nothing.
    for (name, _) in &req.settings {
        if !crate::sweep::assign::SPECIAL.contains(&name.as_str()) {
            params
                .check_used(name)
                .map_err(|e| format!("--param {name}: {e}"))?;
        }
    }
    if let Some(s) = &scene {
        s.check_inside(&params).map_err(|e| e.to_string())?;
    }
    let mut out = PointRun {
        boids: n,
        world: [params.world_width, params.world_height],
        seed,
        // Through text, so the f32 fields read 1.2, not 1.2000000476837158.
        params: serde_json::to_string(&params)
            .and_then(|t| serde_json::from_str(&t))
            .map_err(|e| e.to_string())?,
        adapter: None,
        samples: Vec::new(),
    };
    if req.backend == BackendKind::Gpu && device.0.is_none() {
        device.0 = Some(GpuContext::new().map_err(|e| e.to_string())?);
    }
    let ctx = device
        .0
        .as_ref()
        .filter(|_| req.backend == BackendKind::Gpu);
    if let Some(c) = ctx {
        crate::gpu::buffers::check_boids(c, n as u64).map_err(|e| e.to_string())?;
    }
    out.adapter = ctx.map(AdapterSummary::of);
    if req.steps == 0 {
        return Ok(out);
    }
    let setup = Setup {
        boids: initial_state(seed, n, &params),
        params,
        seed,
        step: 0,
        actors,
    };
    let mut sim = backend::create(req.backend, &setup, ctx).map_err(|e| e.to_string())?;
    drop(setup);
    let discard = req.discard.min(req.steps);
    for _ in 0..discard {
        sim.step().map_err(|e| e.to_string())?;
        on_step();
    }
    sim.finish().map_err(|e| e.to_string())?;
    // The measures of every later step, read back in batches (not one wait per step).
    let measured = sim
        .run_measured(req.steps - discard, on_step)
        .map_err(|e| e.to_string())?;
    let ids: Vec<MeasureId> = crate::sweep::measures()
        .iter()
        .map(|m| MeasureId::by_name(m.name).expect("a measure of the table"))
        .collect();
    out.samples = measured
        .iter()
        .map(|m| {
            ids.iter()
                .map(|id| m.get(*id).unwrap_or(f64::NAN))
                .collect()
        })
        .collect();
    Ok(out)
}
