//! `boids bench`: the command-line front of [`crate::bench::sweep`] (progress bar, Ctrl-C) and of
//! [`crate::bench::compare`] (`--compare A B`).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::backend::BackendKind;
use crate::bench::compare::{compare_table, format_fps, load_summary, scaling_table};
use crate::bench::format::format_ms;
use crate::bench::summary::CaptureStatus;
use crate::bench::sweep::{run_sweep, BenchConfig, SweepEvent, DEFAULT_NAIVE_MAX_PAIRS};
use crate::bench::sysinfo::now_folder_timestamp;

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
    /// Scene file (TOML): parameters, obstacles, seed.
    #[arg(long)]
    pub scene: Option<PathBuf>,
    /// Random seed of the initial flock (default: the scene's, else 1).
    #[arg(long)]
    pub seed: Option<u32>,
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
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Parses a boid count: digits with an optional `k` (×1000) or `M` (×1 000 000) suffix.
///
/// # Errors
/// A message for anything else.
pub fn parse_count(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let (num, mult) = if let Some(x) = t.strip_suffix(['k', 'K']) {
        (x, 1_000)
    } else if let Some(x) = t.strip_suffix('M') {
        (x, 1_000_000)
    } else {
        (t, 1)
    };
    num.parse::<usize>()
        .ok()
        .and_then(|v| v.checked_mul(mult))
        .ok_or_else(|| format!("{s:?} is not a boid count (e.g. 5000, 10k, 1M)"))
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
            scene: self.scene.clone(),
            seed: self.seed,
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
/// A message naming the option, file or limit at fault.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    if let Some(paths) = &args.compare {
        let (a, b) = (&paths[0], &paths[1]);
        let sa = load_summary(a).map_err(|e| e.to_string())?;
        let sb = load_summary(b).map_err(|e| e.to_string())?;
        print!("{}", compare_table(a, &sa, b, &sb));
        return Ok(());
    }
    let cfg = args.config();
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        // Ctrl-C, SIGTERM (a scheduler cancelling the job) and SIGHUP. Fails only when a handler is
        // already installed (then they keep their old meaning).
        let _ = ctrlc::set_handler(move || {
            if stop.swap(true, Ordering::SeqCst) {
                eprintln!("\ninterrupted again: quitting without writing");
                // Removes the temporary files of a write in progress.
                crate::io::exit_interrupted();
            }
            eprintln!("\nCtrl-C: stopping after the current step (again to quit at once)");
        });
    }
    let pb = if args.quiet {
        ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden())
    } else {
        ProgressBar::new(0)
    };
    pb.set_style(
        ProgressStyle::with_template(
            "{msg:22} [{bar:32.cyan/blue}] {pos}/{len} steps  {elapsed_precise} (eta {eta})",
        )
        .map_err(|e| e.to_string())?
        .progress_chars("=> "),
    );
    let quiet = args.quiet;
    let say = |pb: &ProgressBar, s: String| {
        if !quiet {
            pb.suspend(|| eprintln!("{s}"));
        }
    };
    // Skipped runs are reported even with --quiet (it only hides progress): they change the table.
    let warn = |pb: &ProgressBar, s: String| pb.suspend(|| eprintln!("{s}"));
    let outcome = run_sweep(&cfg, None, &stop, &mut |ev| match ev {
        SweepEvent::Planned { runs, total_steps } => {
            say(
                &pb,
                format!(
                    "{} runs, {} steps, into {}",
                    runs.len(),
                    total_steps,
                    cfg.out.display()
                ),
            );
            pb.set_length(total_steps);
        }
        SweepEvent::Skipped(s) => {
            warn(&pb, format!("skip {} {}: {}", s.backend, s.boids, s.reason))
        }
        SweepEvent::RunStarted(r) => {
            pb.set_message(format!("{} {} boids", r.backend.name(), r.boids))
        }
        SweepEvent::Step { .. } => pb.inc(1),
        SweepEvent::RunFinished(r) => say(
            &pb,
            format!(
                "{:>9} {:>8} boids: median {}, p95 {}, {} fps{}",
                r.backend,
                r.boids,
                format_ms(r.stats.median_ms),
                format_ms(r.stats.p95_ms),
                format_fps(r.stats.fps),
                if r.complete { "" } else { " (incomplete)" }
            ),
        ),
    });
    pb.finish_and_clear();
    let outcome = outcome.map_err(|e| e.to_string())?;
    println!("median step time:");
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
        assert_eq!(parse_count("10k"), Ok(10_000));
        assert_eq!(parse_count("1M"), Ok(1_000_000));
        assert_eq!(parse_count(" 500 "), Ok(500));
        assert!(parse_count("1.5k").is_err());
        assert_eq!(parse_size("1920x1080"), Ok((1920, 1080)));
        assert!(parse_size("0x10").is_err());
        assert!(parse_size("1920").is_err());
    }
}
