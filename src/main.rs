//! The `boids` command line: the interactive app (default), headless runs, adapter info,
//! benchmark captures and parameter sweeps.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use boids::backend::BackendKind;
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
    Headless {
        /// Backend.
        #[arg(long, value_enum, default_value = "cpu")]
        backend: BackendKind,
        /// Number of boids (default: the scene's, else 20000).
        #[arg(long)]
        boids: Option<usize>,
        /// Steps to run (at least 1).
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
        steps: u32,
        /// Random seed (default: the scene's, else 1).
        #[arg(long)]
        seed: Option<u32>,
        /// Scene file (TOML).
        #[arg(long)]
        scene: Option<PathBuf>,
        /// Initial state CSV (id,x,y,vx,vy,hx,hy,hvx,hvy).
        #[arg(long)]
        init: Option<PathBuf>,
        /// Write the final state CSV here.
        #[arg(long)]
        save: Option<PathBuf>,
        /// Write per-step measures (CSV) here.
        #[arg(long)]
        stats: Option<PathBuf>,
    },
    /// List GPU adapters with backend, device type, driver and limits.
    Info,
    /// Render the app's picture offscreen after some steps and write a PNG (no window needed).
    Snapshot(boids::app::snapshot::SnapshotArgs),
    /// Open the interactive app (the default when no subcommand is given).
    Run(boids::app::RunArgs),
    /// Benchmark sweep (counts × backends) recorded as a capture folder; or --compare A B.
    Bench(boids::bench::cli::BenchArgs),
    /// Parameter sweep: an order parameter against noise, density or a weight (with error bars),
    /// optionally one shard of it; or `sweep merge OUT DIR…` to combine shard folders.
    Sweep(boids::sweep::args::SweepArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
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
        }) => run_headless(HeadlessOptions {
            backend,
            boids,
            steps,
            seed,
            scene,
            init,
            save,
            stats,
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
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_headless(opts: HeadlessOptions) -> Result<(), String> {
    let r = headless::run(&opts)?;
    println!("backend:        {}", opts.backend.name());
    println!("device:         {}", r.device);
    println!("boids:          {}", r.boids);
    println!("steps:          {}", opts.steps);
    println!(
        "step time:      median {:.3} ms, p95 {:.3} ms, mean {:.3} ms",
        r.step_ms.median_ms, r.step_ms.p95_ms, r.step_ms.mean_ms
    );
    if !r.stage_median_ms.is_empty() {
        let parts: Vec<String> = r
            .stage_median_ms
            .iter()
            .map(|(n, ms)| format!("{n} {ms:.3}"))
            .collect();
        println!("stages (median ms): {}", parts.join(", "));
    }
    println!("polarization:   {:.4}", r.measures.polarization);
    println!("milling:        {:.4}", r.measures.milling);
    println!("mean speed:     {:.3} wu/s", r.measures.mean_speed);
    println!("mean neighbors: {:.3}", r.measures.mean_neighbors);
    Ok(())
}
