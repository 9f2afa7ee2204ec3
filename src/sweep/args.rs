//! The options of `boids sweep` and `boids sweep merge`.

use std::path::PathBuf;

use crate::backend::BackendKind;
use crate::run::args::{parse_count, SetupArgs};
use crate::sweep::shard::Shard;
use crate::sweep::summary::LogAxes;

/// `boids sweep …` or `boids sweep merge OUT DIR…`.
#[derive(clap::Args, Debug, Clone)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct SweepArgs {
    /// Merge shard folders instead of running.
    #[command(subcommand)]
    pub command: Option<SweepCommand>,
    /// The scene, the base seed of the point seeds (default: the scene's, else 1) and `--set
    /// KEY=VALUE` applied to every point before its swept values.
    #[command(flatten)]
    pub setup: SetupArgs,
    /// Parameter to sweep: any numeric parameter the model uses (a key of a scene's `[params]`:
    /// rotational_diffusion, alignment_weight, vicsek_eta, …), `boids` (the count), `density`
    /// (boids/wu² at a fixed count), or a categorical one by its values' names (vicsek_noise:
    /// angular,vectorial; neighborhood: metric,topological,voronoi; boundary: wrap,walls,bounce).
    #[arg(long, required = true, value_name = "NAME")]
    pub param: Option<String>,
    /// Its values: a,b,c or start:stop:step (stop included within 1e-9 of a step); names a,b for
    /// a categorical parameter.
    #[arg(long, required = true, allow_hyphen_values = true, value_name = "LIST")]
    pub values: Option<String>,
    /// A second parameter: every combination with the first is run (one plot line per value).
    #[arg(long, requires = "values2", value_name = "NAME")]
    pub param2: Option<String>,
    /// Values of the second parameter.
    #[arg(
        long,
        requires = "param2",
        allow_hyphen_values = true,
        value_name = "LIST"
    )]
    pub values2: Option<String>,
    /// Boid count (default: the scene's, else 20000; k and M suffixes allowed).
    #[arg(long, value_parser = parse_count)]
    pub boids: Option<usize>,
    /// Steps per run.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u32).range(1..))]
    pub steps: u32,
    /// Steps discarded (transient) before the measures are averaged.
    #[arg(long, default_value_t = 500)]
    pub discard: u32,
    /// The state every run starts from: random (uniform positions and headings from the run's
    /// seed), ordered (the same positions, every boid heading along +x at the middle of its
    /// model's spawn speeds: polarization 1) or group (the random boids gathered into one disc at
    /// the world's centre, as Couzin et al. start theirs).
    #[arg(long, value_enum, default_value = "random")]
    pub start: crate::sweep::plan::Start,
    /// How the runs follow one another: independent (each from --start or --init), or
    /// hysteresis (--param's values stepped up then back down, one chain per repeat, each run
    /// starting from the final state of the chain's run before it; the first from --start or
    /// --init; the branch, up or down, is a second axis of the outputs). Hysteresis takes one
    /// numeric parameter of the model (not the world's size), its values in increasing order,
    /// and --shard splits it by repeat.
    #[arg(long, value_enum, default_value = "independent")]
    pub protocol: crate::sweep::plan::Protocol,
    /// Every run starts from this state instead: a checkpoint, a plain state CSV, or a frame of a
    /// GSD trajectory (FILE.gsd for its last frame, FILE.gsd:FRAME) — its boids, step index and
    /// predators; the parameters come from the scene, the defaults, --set and the point, the
    /// noise from each run's seed. The count is the file's: refused with --boids, a boids or
    /// density axis, and --start ordered.
    #[arg(long, value_name = "STATE")]
    pub init: Option<PathBuf>,
    /// Runs per combination of values, each from its own seed.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub repeats: u32,
    /// Backend. cpu: reproducible bit for bit on every machine. gpu: bit for bit between runs on
    /// the same adapter and driver; across adapters or drivers (and against cpu) each step agrees
    /// within 1e-5 relative (docs/model.md §4.5), so long runs diverge and their averages agree
    /// statistically, not bit for bit.
    #[arg(long, value_enum, default_value = "cpu")]
    pub backend: BackendKind,
    /// Output folder (default sweeps/YYYYMMDDTHHMMSSZ, UTC; created with its parents). An
    /// existing non-empty folder is refused unless --force.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Use a non-empty output folder (the sweep's files in it are replaced).
    #[arg(long)]
    pub force: bool,
    /// Go on with the sweep in --out, interrupted or failed: only its runs not done are run, and
    /// the folder ends as an uninterrupted sweep's. Refused (before anything runs) when the
    /// folder's plan differs — every option and the scene's contents; the differing options are
    /// named — or its shard or --series.
    #[arg(long, requires = "out", conflicts_with = "force")]
    pub resume: bool,
    /// Do only shard I of N: the runs k with (k - 1) mod N = I - 1 (shards, runs, points and
    /// repeats are all numbered from 1, in the progress lines, sweep.csv and summary.json).
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Write each run's per-step measures to series/point-PPPPP-repeat-RRR.csv.gz (gzip CSV of
    /// the f64 values, about 50 bytes per measured step).
    #[arg(long)]
    pub series: bool,
    /// Record an analysis's scalar summaries per run (docs/model.md §12.11), as columns of
    /// sweep.csv and, combined over the repeats with their error, of points.csv: NAME, repeated
    /// for more. NAME: velocity_correlation (xi, the correlation length), cluster_sizes
    /// (mean_size, largest), local_density (mean_density) or density_profile (first_mode,
    /// first_mode_gas). Each run gives the analyses its
    /// state at the end of --discard and every --analyse-every steps after it.
    #[arg(long = "analyse", value_name = "NAME")]
    pub analyse: Vec<String>,
    /// The analyses' settings.
    #[command(flatten)]
    pub analysis: crate::run::analyses::AnalysisOptions,
    /// Logarithmic plot axes: x, y, xy or none (default: x when its values are positive and span
    /// a factor of 100 or more). x takes a numeric parameter's values, all above 0.
    #[arg(long, value_name = "AXES", value_parser = LogAxes::parse)]
    pub log: Option<LogAxes>,
    /// GPU runs stepped together as one ensemble (docs/sweeps.md, "Ensembles"): auto (as many
    /// consecutive runs as fit 64 replicas and 2^20 boids), N (at most N, 1 ..= 64) or 1 (one
    /// run at a time). The files are the same bits whatever the batch. The CPU backend ignores
    /// it (it runs small runs side by side, one per thread).
    #[arg(long, value_name = "auto|N", default_value = "auto", value_parser = crate::sweep::batch::Batch::parse)]
    pub batch: crate::sweep::batch::Batch,
    /// No progress bar and no line per run.
    #[arg(long)]
    pub quiet: bool,
}

/// Subcommands of `boids sweep`.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum SweepCommand {
    /// Combine the folders of every shard of one sweep into OUT (the same files an unsharded run
    /// writes).
    Merge {
        /// Folder for the merged sweep (created with its parents). An existing non-empty folder is
        /// refused unless --force.
        out: PathBuf,
        /// The shard folders.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Use a non-empty OUT.
        #[arg(long)]
        force: bool,
    },
}
