//! `boids bench`: the command-line front of [`crate::bench::sweep`] (progress bar, Ctrl-C) and of
//! [`crate::bench::compare`] (`--compare A B`).

use std::path::PathBuf;

use crate::backend::BackendKind;
use crate::bench::compare::{compare_table, format_fps, load_summary, scaling_table};
use crate::bench::sweep::{run_sweep, BenchConfig, SweepEvent, DEFAULT_NAIVE_MAX_PAIRS};
use crate::capture::error::BenchError;
use crate::capture::summary::CaptureStatus;
use crate::run::args::{parse_count, SetupArgs};
use crate::run::provenance::now_folder_timestamp;
use crate::run::steps::{Progress, Stop};
use crate::stats::format::format_ms;

/// Options of `boids bench`.
#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// Backends to measure, comma separated.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "gpu,cpu,cpu-naive"
    )]
    pub backends: Vec<BackendKind>,
    /// Boid counts, comma separated (suffixes k and M allowed: 1k,10k,100k,1M).
    #[arg(long, value_delimiter = ',', value_parser = parse_count,
          default_value = "1000,10000,100000,1000000")]
    pub boids: Vec<usize>,
    /// Measured steps per run.
    #[arg(long, default_value_t = 100)]
    pub steps: u32,
    /// Unmeasured warm-up steps before each run.
    #[arg(long, default_value_t = 10)]
    pub warmup: u32,
    /// Also render every measured frame offscreen at this size (e.g. 1920x1080); its time is the
    /// render_ms column and part of wall_ms.
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub render: Option<(u32, u32)>,
    /// Multisampling of --render (clamped to what the adapter offers).
    #[arg(long, default_value_t = 4)]
    pub msaa: u32,
    /// How --render draws the boids: `auto` (the compute rasteriser for many small boids, the
    /// instanced draw otherwise, as the app), `instanced`, `compute`.
    #[arg(long, value_enum, default_value_t = crate::render::Rasteriser::Auto, requires = "render")]
    pub rasteriser: crate::render::Rasteriser,
    /// --render draws density dots as square dots, without the app's motion streaks (to measure
    /// what the streaks cost).
    #[arg(long, requires = "render")]
    pub no_streaks: bool,
    /// The scene, the seed of the initial flock and `--set KEY=VALUE` (every run).
    #[command(flatten)]
    pub setup: SetupArgs,
    /// Output folder (default captures/YYYYMMDDTHHMMSSZ, UTC). A missing one is created when its
    /// parent exists; an existing one must be writable, and an existing non-empty folder is
    /// refused unless --force.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Use a non-empty output folder (the capture's files in it are replaced, others left alone).
    #[arg(long)]
    pub force: bool,
    /// Skip cpu-naive runs whose boids² × (warmup + steps) is above this.
    #[arg(long, default_value_t = DEFAULT_NAIVE_MAX_PAIRS)]
    pub naive_max_pairs: f64,
    /// Print two captures side by side with ratios instead of running (summary.json files or
    /// capture folders).
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    pub compare: Option<Vec<PathBuf>>,
    /// Measure GPU ensembles instead (docs/sweeps.md, "Ensembles"): for each --boids count and
    /// each R here, R replicas as one ensemble against the same R run one after another on one
    /// backend, and one system of R·N boids (the cost model's prediction); replica-steps per
    /// second in a table, written with the adapter and options to ensembles.csv and
    /// ensembles.json in the capture folder. GPU only, without --render.
    #[arg(long, value_delimiter = ',', value_name = "R,…", value_parser = parse_replicas,
          conflicts_with_all = ["backends", "render", "compare", "naive_max_pairs"])]
    pub replicas: Vec<usize>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Parses a replica count, 1 ..= the most one ensemble holds.
///
/// # Errors
/// The value and the allowed range.
fn parse_replicas(s: &str) -> Result<usize, String> {
    let max = crate::stages::MAX_REPLICAS as usize;
    match s.trim().parse::<usize>() {
        Ok(r) if (1..=max).contains(&r) => Ok(r),
        _ => Err(format!("--replicas {s}: allowed 1 ..= {max}")),
    }
}

/// Parses `WxH` (e.g. `1920x1080`), each side ≥ 1.
///
/// # Errors
/// A message for anything else.
pub fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("{s:?} is not a size WxH (e.g. 1920x1080)");
    let (w, h) = s.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    if w == 0 || h == 0 {
        return Err(bad());
    }
    Ok((w, h))
}

impl BenchArgs {
    /// The sweep configuration of these options (the default folder is `captures/<UTC time>`,
    /// created with its parent).
    pub fn config(&self) -> BenchConfig {
        let (out, create_out_parents) = match &self.out {
            Some(p) => (p.clone(), false),
            None => (PathBuf::from("captures").join(now_folder_timestamp()), true),
        };
        BenchConfig {
            backends: self.backends.clone(),
            boids: self.boids.clone(),
            steps: self.steps,
            warmup: self.warmup,
            render: self.render,
            msaa: self.msaa,
            rasteriser: self.rasteriser,
            streaks: !self.no_streaks,
            scene: self.setup.scene.clone(),
            seed: self.setup.seed,
            sets: self.setup.set.clone(),
            keep_world: self.setup.keep_world,
            out,
            create_out_parents,
            force: self.force,
            naive_max_pairs: self.naive_max_pairs,
        }
    }
}

/// Runs `boids bench` (or `--compare`): prints the plan, a progress bar on stderr, one line per
/// finished run, then the scaling table and the capture folder. The first Ctrl-C stops after the
/// current step and still writes the capture, then exits with status 130 (so scripts can tell a
/// partial sweep); a second one quits at once without writing.
///
/// # Errors
/// [`BenchError`], naming the option, file or limit at fault.
pub fn run(args: &BenchArgs) -> Result<(), BenchError> {
    if let Some(paths) = &args.compare {
        let (a, b) = (&paths[0], &paths[1]);
        let sa = load_summary(a)?;
        let sb = load_summary(b)?;
        print!("{}", compare_table(a, &sa, b, &sb));
        return Ok(());
    }
    let cfg = args.config();
    if !args.replicas.is_empty() {
        let ctx = crate::gpu::GpuContext::new().map_err(|e| BenchError::Config(e.to_string()))?;
        crate::bench::ensemble::run(&cfg, &ctx, &args.replicas)?;
        return Ok(());
    }
    let stop = Stop::install("the current step");
    let pb = Progress::new(args.quiet, "steps");
    let outcome = run_sweep(&cfg, None, &stop, &mut |ev| match ev {
        SweepEvent::Planned {
            runs,
            steps: total_steps,
        } => {
            pb.say(&format!(
                "{} runs, {} steps, into {}",
                runs.len(),
                total_steps,
                cfg.out.display()
            ));
            pb.set_length(total_steps);
        }
        // Skipped runs are reported even with --quiet (it only hides progress): they change the
        // table.
        SweepEvent::Skipped { run, reason } => pb.warn(&format!(
            "skip {} {}: {}",
            run.backend.name(),
            run.boids,
            reason
        )),
        SweepEvent::Started(r) => pb.set_message(format!("{} {} boids", r.backend.name(), r.boids)),
        SweepEvent::Step { .. } => pb.inc(1),
        SweepEvent::Finished { done: r, .. } => {
            pb.say(&format!(
                "{:>9} {:>8} boids: median {}, p95 {}, {} fps{}{}",
                r.backend,
                r.boids,
                format_ms(r.stats.median_ms),
                format_ms(r.stats.p95_ms),
                format_fps(r.stats.fps),
                if args.render.is_some() {
                    " (step and render)"
                } else {
                    ""
                },
                if r.complete { "" } else { " (incomplete)" }
            ));
            if let Some(c) = &r.costs {
                pb.say(&format!("{:>18}  {}", "", c.describe()));
            }
        }
    });
    pb.finish();
    let outcome = outcome?;
    // With --render each frame's time is its step and its render (the render_ms column).
    println!(
        "{}",
        if args.render.is_some() {
            "median frame time (the step, then its render):"
        } else {
            "median step time:"
        }
    );
    print!("{}", scaling_table(&outcome.summary));
    println!("capture: {}", outcome.dir.display());
    if outcome.summary.status == CaptureStatus::Interrupted {
        println!("interrupted: the capture holds the runs that finished");
        // The capture is valid, but scripts must be able to tell a partial sweep: 128 + SIGINT.
        std::process::exit(130);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_sizes() {
        assert_eq!(parse_size("1920x1080"), Ok((1920, 1080)));
        assert!(parse_size("0x10").is_err());
        assert!(parse_size("1920").is_err());
    }
}
