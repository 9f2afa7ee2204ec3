//! `boids sweep`: the command-line front of [`crate::sweep::run`] (progress bar, Ctrl-C, one line
//! per point) and of [`crate::sweep::merge`].

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::bench::sysinfo::now_folder_timestamp;
use crate::sweep::args::{SweepArgs, SweepCommand};
use crate::sweep::merge::merge;
use crate::sweep::plan::Axis;
use crate::sweep::run::{describe, run_sweep, SweepConfig, SweepEvent};
use crate::sweep::summary::SweepStatus;
use crate::sweep::values::parse_values;

/// The sweep configuration of these options (default folder `sweeps/<UTC time>`).
///
/// # Errors
/// A message for bad `--values`.
pub fn config(args: &SweepArgs) -> Result<SweepConfig, String> {
    let mut axes = Vec::new();
    for (name, values) in [(&args.param, &args.values), (&args.param2, &args.values2)] {
        if let (Some(n), Some(v)) = (name, values) {
            let values = parse_values(v).map_err(|e| format!("--param {n}: {e}"))?;
            axes.push(Axis {
                name: n.trim().to_string(),
                values,
            });
        }
    }
    let out = match &args.out {
        Some(p) => p.clone(),
        None => {
            let mut name = now_folder_timestamp();
            if let Some(s) = args.shard {
                name += &format!("-shard-{}-of-{}", s.index, s.count);
            }
            PathBuf::from("sweeps").join(name)
        }
    };
    Ok(SweepConfig {
        scene: args.scene.clone(),
        backend: args.backend,
        axes,
        boids: args.boids,
        steps: args.steps,
        discard: args.discard,
        repeats: args.repeats,
        seed: args.seed,
        shard: args.shard,
        out,
        force: args.force,
    })
}

/// Runs `boids sweep` (or `merge`). The first Ctrl-C stops after the current point and still
/// writes the folder, then exits with status 130; a second one quits at once (the folder then
/// holds the points done so far, status `in-progress`).
///
/// # Errors
/// A message naming the option, file, value or shard at fault.
pub fn run(args: &SweepArgs) -> Result<(), String> {
    if let Some(SweepCommand::Merge { out, dirs, force }) = &args.command {
        let m = merge(out, dirs, *force)?;
        println!(
            "merged {} points from {} folders into {}",
            m.rows.len(),
            dirs.len(),
            m.dir.display()
        );
        return Ok(());
    }
    let cfg = config(args)?;
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        // Ctrl-C, SIGTERM (a scheduler cancelling the job) and SIGHUP. Fails only when a handler is
        // already installed (then they keep their old meaning).
        let _ = ctrlc::set_handler(move || {
            if stop.swap(true, Ordering::SeqCst) {
                eprintln!("\ninterrupted again: quitting now (the folder holds the points done)");
                // Removes the temporary files of a write in progress.
                crate::io::exit_interrupted();
            }
            eprintln!("\nCtrl-C: stopping after the current point (again to quit at once)");
        });
    }
    let pb = if args.quiet {
        ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden())
    } else {
        ProgressBar::new(0)
    };
    pb.set_style(
        ProgressStyle::with_template(
            "{msg:30} [{bar:30.cyan/blue}] {pos}/{len} steps  {elapsed_precise} (eta {eta})",
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
    let axes = cfg.axes.clone();
    let outcome = run_sweep(&cfg, &stop, &mut |ev| match ev {
        SweepEvent::Planned {
            points,
            total,
            steps,
        } => {
            say(
                &pb,
                format!(
                    "{} of {total} points, {steps} steps, into {}",
                    points.len(),
                    cfg.out.display()
                ),
            );
            pb.set_length(steps);
        }
        SweepEvent::PointStarted(p) => pb.set_message(format!(
            "point {} {}",
            p.index + 1,
            describe(&axes, &p.values)
        )),
        SweepEvent::Step => pb.inc(1),
        SweepEvent::PointFinished { row, seconds } => {
            let (s, va) = (&row.stats[0], &row.stats[4]);
            say(
                &pb,
                format!(
                    "point {:>4} {} (repeat {} of {}): polarization {:.4} ± {:.4}, v_a {:.4} ± \
                     {:.4}, {seconds:.1} s",
                    row.point,
                    describe(&axes, &row.values),
                    row.repeat,
                    cfg.repeats,
                    s.mean,
                    s.se,
                    va.mean,
                    va.se
                ),
            )
        }
    });
    pb.finish_and_clear();
    let outcome = outcome?;
    println!(
        "sweep: {} ({} of {} points, {:.1} s)",
        outcome.dir.display(),
        outcome.summary.points_done,
        outcome.summary.points.len(),
        outcome.summary.seconds_total
    );
    if outcome.summary.status == SweepStatus::Interrupted {
        println!("interrupted: the folder holds the points that finished");
        std::process::exit(130);
    }
    Ok(())
}
