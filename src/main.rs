//! The `boids` command line: the interactive app (default), headless runs, adapter info,
//! benchmark captures and parameter sweeps.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use boids::backend::BackendKind;
use boids::bench::format::format_ms;
use boids::headless::{self, HeadlessOptions};

#[derive(Parser)]
#[command(
    name = "boids",
    version,
    about = "GPU flocking simulator (wgpu compute) with a CPU reference backend"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the simulation without a window; print step times and flock measures.
    #[command(after_help = headless::RESUME_RULE)]
    Headless {
        /// Backend.
        #[arg(long, value_enum, default_value = "cpu")]
        backend: BackendKind,
        /// Number of boids, suffixes k and M allowed (default: the --init file's, the scene's,
        /// else 20000).
        #[arg(long, value_parser = boids::bench::cli::parse_count)]
        boids: Option<usize>,
        /// Steps to run; 0 only with --save (exports the initial state).
        #[arg(long, default_value_t = 100)]
        steps: u32,
        /// Random seed (default: the scene's, the --init checkpoint's, else 1).
        #[arg(long)]
        seed: Option<u32>,
        /// Scene file (TOML, at most 16 MiB).
        #[arg(long)]
        scene: Option<PathBuf>,
        /// Initial state: a checkpoint (resumes it, its predators where they were saved) or a plain
        /// CSV id,x,y,vx,vy,hx,hy,hvx,hvy.
        #[arg(long)]
        init: Option<PathBuf>,
        /// Write the final state here as a checkpoint (--init resumes it).
        #[arg(long)]
        save: Option<PathBuf>,
        /// Write the flock measures (CSV) here: step, step time, polarization, milling, mean speed,
        /// mean neighbours, v_a (the Vicsek order parameter |Σv|/(N·v0)) (and, when the scene has
        /// predators, the boids caught in that step and since the start), one row every
        /// --stats-every steps.
        #[arg(long)]
        stats: Option<PathBuf>,
        /// Steps between two rows of --stats (e.g. 60: one row per simulated second at dt 1/60).
        #[arg(long, default_value_t = 1, value_name = "N")]
        stats_every: u32,
        /// Also count the flocks (connected components of at least 10 boids linked within the
        /// perception radius) and their hue coherence (1 = one hue per flock): adds the columns
        /// time_s, flocks, largest_flock, flocked_fraction, hue_coherence to --stats, and prints
        /// them for the final state.
        #[arg(long)]
        flocks: bool,
    },
    /// List GPU adapters with backend, device type, driver and limits.
    Info,
    /// Render the app's picture offscreen after some steps and write a PNG (no window needed).
    Snapshot(boids::app::snapshot::SnapshotArgs),
    /// Open the interactive app (the default when no subcommand is given).
    Run(boids::app::RunArgs),
    /// Benchmark sweep (counts × backends) recorded as a capture folder; or --compare A B.
    Bench(boids::bench::cli::BenchArgs),
    /// Parameter sweep: an order parameter against rotational diffusion, density or a weight (with error bars),
    /// optionally one shard of it; or `sweep merge OUT DIR…` to combine shard folders.
    Sweep(boids::sweep::args::SweepArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => exit_on_usage_error(e),
    };
    if !matches!(
        cli.command,
        Some(Command::Bench(_)) | Some(Command::Sweep(_))
    ) {
        // `bench` and `sweep` install their own handler (stop after the current step or point).
        let _ = boids::io::install_interrupt_cleanup();
    }
    let result = match cli.command {
        Some(Command::Headless {
            backend,
            boids,
            steps,
            seed,
            scene,
            init,
            save,
            stats,
            stats_every,
            flocks,
        }) => run_headless(HeadlessOptions {
            backend,
            boids,
            steps,
            seed,
            scene,
            init,
            save,
            stats,
            stats_every,
            flocks,
        }),
        Some(Command::Info) => {
            print!("{}", boids::gpu::adapter_report());
            Ok(())
        }
        Some(Command::Snapshot(args)) => boids::app::snapshot::run(&args),
        Some(Command::Bench(args)) => boids::bench::cli::run(&args),
        Some(Command::Sweep(args)) => boids::sweep::cli::run(&args),
        Some(Command::Run(args)) => boids::app::run(args),
        None => boids::app::run(boids::app::RunArgs::default()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", boids::io::clip_message(&e));
            ExitCode::FAILURE
        }
    }
}

/// Prints clap's message and exits with its code; a message that quotes a huge value (clap quotes
/// the whole invalid value) is shortened first, which drops its colours.
fn exit_on_usage_error(e: clap::Error) -> ! {
    use clap::error::ErrorKind;
    let text = e.render().to_string();
    let help = matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
    if help || text.len() <= 1000 {
        e.exit()
    }
    let short = boids::io::clip_quoted(&text, &['\'', '"', '`']);
    eprint!("{short}");
    if !short.ends_with('\n') {
        eprintln!();
    }
    std::process::exit(e.exit_code())
}

fn run_headless(opts: HeadlessOptions) -> Result<(), String> {
    let r = headless::run(&opts)?;
    for w in &r.warnings {
        eprintln!("warning: {w}");
    }
    println!("backend:        {}", opts.backend.name());
    println!("device:         {}", r.device);
    println!("boids:          {}", r.boids);
    println!(
        "steps:          {} (step index now {})",
        opts.steps, r.step_index
    );
    if opts.steps == 0 {
        println!("step time:      no step run");
    } else {
        println!(
            "step time:      median {}, p95 {}, mean {}",
            format_ms(r.step_ms.median_ms),
            format_ms(r.step_ms.p95_ms),
            format_ms(r.step_ms.mean_ms)
        );
    }
    if !r.stage_median_ms.is_empty() {
        let parts: Vec<String> = r
            .stage_median_ms
            .iter()
            .map(|(n, ms)| format!("{n} {}", format_ms(*ms)))
            .collect();
        println!("stages (median): {}", parts.join(", "));
    }
    for m in &r.columns {
        let id =
            boids::model::measures::MeasureId::by_name(m.name).expect("a measure of the table");
        let label = format!("{}:", m.title);
        let value = match r.measures.get(id) {
            Some(v) => m.format(v, r.speed_unit),
            // Not computed: the mean neighbour count before any step.
            None => "—".to_string(),
        };
        println!("{label:<15} {value}");
    }
    if r.predators > 0 {
        println!("{:<15} {}", "predators:", r.predators);
    }
    Ok(())
}
