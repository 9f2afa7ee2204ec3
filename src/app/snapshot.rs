//! `boids snapshot`: the app's picture rendered offscreen after a number of steps (the app's
//! setup and [`crate::render::picture`], the window's [`Renderer`](crate::render::Renderer) code
//! path), written in the format its file extension names (PNG or JPEG:
//! [`crate::io::write_picture`], as the app's `capture` and `screenshot`).

use std::path::PathBuf;

use crate::app::args::AppBackend;
use crate::app::error::AppError;
use crate::app::start::{app_setup, Spawn};
use crate::formats::scene::Scene;
use crate::gpu::GpuContext;
use crate::io::{picture_format, write_picture};
use crate::render::{render_sim, ColourMode, PictureStyle, Rasteriser, Sim, Theme};
use crate::run::args::SetupArgs;

/// Options of `boids snapshot`.
#[derive(Clone, Debug, clap::Args)]
pub struct SnapshotArgs {
    /// Picture to write, in the format its extension names: .png, or .jpg / .jpeg (JPEG, quality
    /// 90); any other extension is refused.
    #[arg(long)]
    pub out: PathBuf,
    /// Image width (px).
    #[arg(long, default_value_t = 1280)]
    pub width: u32,
    /// Image height (px).
    #[arg(long, default_value_t = 720)]
    pub height: u32,
    /// Simulation steps before the picture.
    #[arg(long, default_value_t = 120)]
    pub steps: u32,
    /// The scene, the seed and `--set KEY=VALUE`.
    #[command(flatten)]
    pub setup: SetupArgs,
    /// Initial state, as `boids headless --init`: a checkpoint (drawn as saved, its world and
    /// predators), a plain state CSV, or a frame of a GSD trajectory (FILE.gsd for its last frame,
    /// FILE.gsd:FRAME from 0); with --steps 0 the picture is the state itself.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Number of boids (default: the scene's, else 20000; k and M suffixes allowed). The world is
    /// sized to the image at the default density unless the scene fixes it.
    #[arg(long, value_parser = crate::run::args::parse_count)]
    pub boids: Option<usize>,
    /// Backend that computes the steps (the picture is always drawn on the GPU).
    #[arg(long, value_enum, default_value = "gpu")]
    pub backend: AppBackend,
    /// How the boids start: `flocks` (a few formed flocks, apart), `uniform` (spread evenly) or
    /// `group` (one disc at the world's centre).
    /// Default: the scene's `spawn` key (the default scene's is flocks), else uniform.
    #[arg(long, value_enum, conflicts_with = "init")]
    pub spawn: Option<Spawn>,
    /// Colour theme.
    #[arg(long, value_enum, default_value = "dark")]
    pub theme: Theme,
    /// Boid length (wu, 0.01 ..= 10000; default: the scene's separation radius).
    #[arg(long)]
    pub boid_size: Option<f32>,
    /// Multisampling (1 = off; clamped to what the adapter offers).
    #[arg(long, default_value_t = 4)]
    pub msaa: u32,
    /// What the boids' colour shows, as the app's --colour: the hue vector, the heading, the
    /// speed or the neighbour count (of the last step: `neighbours` needs --steps 1 or more).
    /// Default: the scene's `[view] colour`, else `hue`.
    #[arg(long, value_enum)]
    pub colour: Option<ColourMode>,
    /// How boids are drawn: `auto` (the compute rasteriser for many small boids — 20 000 or more,
    /// as density dots or spearheads up to 6 px — the instanced draw otherwise), `instanced` (the
    /// design card's instanced spearheads), `compute` (the compute rasteriser).
    #[arg(long, value_enum, default_value = "auto")]
    pub rasteriser: Rasteriser,
    /// Draw density dots (boids zoomed out below 4 px) as square dots, without the motion streak
    /// behind each along its heading.
    #[arg(long)]
    pub no_streaks: bool,
}

impl SnapshotArgs {
    /// The picture these options draw (its colour before the scene's is taken into account).
    pub fn style(&self) -> PictureStyle {
        PictureStyle {
            width: self.width,
            height: self.height,
            theme: self.theme,
            boid_size: self.boid_size,
            msaa: self.msaa,
            colour: self.colour.unwrap_or_default(),
            rasteriser: self.rasteriser,
            streaks: !self.no_streaks,
        }
    }

    /// Options for `out` with every other option at its default.
    pub fn new(out: PathBuf) -> Self {
        SnapshotArgs {
            out,
            width: 1280,
            height: 720,
            steps: 120,
            setup: SetupArgs::default(),
            init: None,
            boids: None,
            backend: AppBackend::Gpu,
            spawn: None,
            theme: Theme::Dark,
            boid_size: None,
            msaa: 4,
            colour: None,
            rasteriser: Rasteriser::Auto,
            no_streaks: false,
        }
    }
}

/// Renders the picture described by `args` on `ctx` (nothing is written).
///
/// # Errors
/// [`AppError::PictureSize`] for a size or length out of range or a picture the adapter cannot
/// hold; a scene, setup, simulation or GPU error.
pub fn render_snapshot(
    ctx: &GpuContext,
    args: &SnapshotArgs,
) -> Result<image::RgbaImage, AppError> {
    let scene = match &args.setup.scene {
        Some(p) => Some(Scene::load(p)?),
        None => None,
    };
    let scene_colour = match &scene {
        Some(s) => crate::run::spec::scene_colour(s)?,
        None => None,
    };
    let mut style = args.style();
    style.colour = args.colour.or(scene_colour).unwrap_or_default();
    if style.colour == ColourMode::Neighbours && args.steps == 0 {
        // The counts are those of the last step: before one, every boid would show 0.
        return Err(AppError::Setup(crate::run::RunError::Conflict(
            "--colour neighbours --steps 0: the neighbour counts are those of the last step; give \
             --steps 1 or more"
                .into(),
        )));
    }
    let samples = style.check(ctx)?;
    let aspect = args.width as f32 / args.height as f32;
    let setup = match &args.init {
        // A saved state: resolved as `boids headless --init` resolves it.
        Some(init) => {
            let inputs = crate::run::spec::Inputs::load(args.setup.scene.as_deref(), Some(init))?;
            let defaults = crate::run::spec::Defaults {
                aspect,
                ..crate::run::spec::Defaults::headless(20_000)
            };
            crate::run::spec::resolve(&inputs, &args.setup.overrides(args.boids), &defaults)?.setup
        }
        None => {
            app_setup(
                scene.as_ref(),
                &args.setup.overrides(args.boids),
                20_000,
                aspect,
                args.spawn,
            )?
            .0
        }
    };
    let mut sim = Sim::new(ctx, args.backend.kind(), &setup)?;
    for _ in 0..args.steps {
        sim.step().map_err(AppError::Step)?;
    }
    sim.finish()?;
    render_sim(&mut sim, &style, samples).map_err(AppError::GpuFault)
}

/// `boids snapshot`: renders on a fresh default GPU context and writes the picture (its format
/// checked first, so a wrong extension costs no rendering).
///
/// # Errors
/// As [`render_snapshot`], plus [`AppError::Picture`] for an unsupported extension (before
/// anything else) or a failed write, and [`AppError::Gpu`] when there is no adapter.
pub fn run(args: &SnapshotArgs) -> Result<(), AppError> {
    picture_format(&args.out)?;
    let ctx = GpuContext::new()?;
    let img = render_snapshot(&ctx, args)?;
    write_picture(&args.out, &img)?;
    println!(
        "wrote {} ({}×{} px, adapter {})",
        args.out.display(),
        img.width(),
        img.height(),
        ctx.describe()
    );
    Ok(())
}
