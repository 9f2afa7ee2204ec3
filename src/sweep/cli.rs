//! `boids sweep`: the command-line front of [`crate::sweep::run`] (progress bar, Ctrl-C, one line
//! per point) and of [`crate::sweep::merge`].

use std::path::PathBuf;

use crate::run::provenance::now_folder_timestamp;
use crate::run::steps::{Progress, Stop};
use crate::sweep::args::{SweepArgs, SweepCommand};
use crate::sweep::error::SweepError;
use crate::sweep::merge::merge;
use crate::sweep::plan::{
    branch_axis, AnalysisPlan, Axis, Protocol, HYSTERESIS_ONE_PARAMETER, SWEEP_ANALYSE_EVERY,
};
use crate::sweep::run::{describe, run_sweep, SweepConfig, SweepEvent};
use crate::sweep::summary::{LogAxes, SweepStatus};
use crate::sweep::values::parse_values;

/// The sweep configuration of these options (default folder `sweeps/<UTC time>`).
///
/// # Errors
/// [`SweepError::Plan`] for bad `--values`, naming the parameter; for a `--set` of a swept
/// parameter, or `--boids` with `--param boids` (either would be silently overridden).
pub fn config(args: &SweepArgs) -> Result<SweepConfig, SweepError> {
    let mut axes = Vec::new();
    for (name, values) in [(&args.param, &args.values), (&args.param2, &args.values2)] {
        if let (Some(n), Some(v)) = (name, values) {
            axes.push(axis(n.trim(), v)?);
        }
    }
    if args.protocol == Protocol::Hysteresis {
        if args.param2.is_some() {
            return Err(SweepError::Plan(HYSTERESIS_ONE_PARAMETER.into()));
        }
        if let Some(s) = args.shard {
            if s.count > args.repeats {
                return Err(SweepError::Plan(format!(
                    "--shard {s} with --protocol hysteresis: shards split the chains, one per \
                     repeat, and there are {} (--repeats); give N at most {0}",
                    args.repeats
                )));
            }
        }
        axes.push(branch_axis());
    }
    // A logarithmic x axis asked for takes positive numbers (the plot would draw a linear one).
    if let (Some(LogAxes { x: Some(true), .. }), Some(a)) = (args.log, axes.first()) {
        if a.is_categorical() {
            return Err(SweepError::Plan(format!(
                "--log x (or xy): --param {} takes names, which have no logarithmic axis; give \
                 --log y or none",
                a.name
            )));
        }
        if let Some(v) = a.values.iter().find(|v| **v <= 0.0) {
            return Err(SweepError::Plan(format!(
                "--log x (or xy): --param {} has the value {v}, and a logarithmic axis takes \
                 values above 0; give --log y or none, or sweep positive values",
                a.name
            )));
        }
    }
    // What the sweep sets itself is not also set another way (the other would be ignored).
    for a in &axes {
        if let Some(set) = args.setup.set.iter().find(|s| s.key == a.name) {
            return Err(SweepError::Plan(format!(
                "--set {}={} sets the swept parameter {}: its values come from --values; drop the \
                 --set",
                set.key, set.value, a.name
            )));
        }
        if a.name == "boids" {
            if let Some(n) = args.boids {
                return Err(SweepError::Plan(format!(
                    "--boids {n} with --param boids: the counts come from --values; drop --boids"
                )));
            }
        }
    }
    let analyses = if args.analyse.is_empty() {
        args.analysis.refuse_unused()?;
        None
    } else {
        // The default written out, so a resume that gives it explicitly is the same plan.
        let mut options = args.analysis.clone();
        options.analyse_every = Some(args.analysis.every(SWEEP_ANALYSE_EVERY)?);
        let plan = AnalysisPlan {
            names: args.analyse.iter().map(|n| n.trim().to_string()).collect(),
            options,
        };
        plan.refuse_unread()?;
        Some(plan)
    };
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
        scene: args.setup.scene.clone(),
        backend: args.backend,
        axes,
        boids: args.boids,
        steps: args.steps,
        discard: args.discard,
        repeats: args.repeats,
        seed: args.setup.seed,
        sets: args.setup.set.clone(),
        shard: args.shard,
        out,
        force: args.force,
        resume: args.resume,
        start: args.start,
        protocol: args.protocol,
        init: args.init.clone(),
        keep_world: args.setup.keep_world,
        series: args.series,
        log: args.log.unwrap_or_default(),
        analyses,
        batch: args.batch,
    })
}

/// The axis of the parameter `name` with the values `text`: names (`angular,vectorial`) for a
/// categorical parameter of the table, else numbers ([`parse_values`]).
///
/// # Errors
/// [`SweepError::Plan`] naming the parameter: a name not among its values (with them), a name
/// given twice, `model` (one model per sweep), or bad numbers.
pub fn axis(name: &str, text: &str) -> Result<Axis, SweepError> {
    let plan = |why: String| SweepError::Plan(format!("--param {name}: {why}"));
    let choices = match crate::model::SimParams::spec(name).map(|s| s.range) {
        Some(crate::model::param_table::Range::Choice(c)) => c,
        _ => {
            let values = parse_values(text).map_err(|e| plan(e.to_string()))?;
            return Ok(Axis::numeric(name, values));
        }
    };
    if name == "model" {
        return Err(plan(
            "a sweep runs one model (the order parameter and the parameters differ between \
             models): give it with --set model=NAME or the scene, and sweep its parameters"
                .into(),
        ));
    }
    let mut labels: Vec<String> = Vec::new();
    for item in text.split(',').map(str::trim) {
        if !choices.contains(&item) {
            return Err(plan(format!(
                "{item:?} is not one of its values: {}",
                choices.join(", ")
            )));
        }
        if labels.iter().any(|l| l == item) {
            return Err(plan(format!(
                "{item} is given twice; each value once (more runs of one value: --repeats)"
            )));
        }
        labels.push(item.to_string());
    }
    Ok(Axis {
        name: name.to_string(),
        values: (0..labels.len()).map(|i| i as f64).collect(),
        labels,
    })
}

/// Runs `boids sweep` (or `merge`). The first Ctrl-C stops after the current run (within a GPU
/// batch: between steps, the batch's runs not done) and still
/// writes the folder, then exits with status 130; a second one quits at once (the folder then
/// holds the runs done so far, status `in-progress`).
///
/// # Errors
/// [`SweepError`] naming the option, file, value or shard at fault.
pub fn run(args: &SweepArgs) -> Result<(), SweepError> {
    if let Some(SweepCommand::Merge { out, dirs, force }) = &args.command {
        let m = merge(out, dirs, *force)?;
        println!(
            "merged {} runs from {} folder{} into {}",
            m.rows.len(),
            dirs.len(),
            if dirs.len() == 1 { "" } else { "s" },
            m.dir.display()
        );
        return Ok(());
    }
    let cfg = config(args)?;
    let stop = Stop::install("the current run (a GPU batch: its current step)");
    let pb = Progress::new(args.quiet, "steps");
    let axes = cfg.axes.clone();
    // Runs whose errors are not to be trusted (too short for their τ_int of φ).
    let short = std::cell::Cell::new(0usize);
    // Runs done by this command (a resumed sweep's earlier runs are not seen again).
    let ran = std::cell::Cell::new(0usize);
    // Runs where a scalar summary of the analyses does not exist (ξ without a zero of C).
    let missing = std::cell::Cell::new(0usize);
    let outcome = run_sweep(&cfg, &stop, &mut |ev| match ev {
        SweepEvent::Planned { runs, steps } => {
            pb.say(&format!(
                "{} runs to do, {steps} steps, into {}",
                runs.len(),
                cfg.out.display()
            ));
            pb.set_length(steps);
        }
        SweepEvent::Skipped { .. } => {}
        SweepEvent::Started(p) => pb.set_message(format!(
            "run {} (point {}: {})",
            p.index + 1,
            p.point + 1,
            describe(&axes, &p.values)
        )),
        SweepEvent::Step { .. } => pb.inc(1),
        SweepEvent::Finished {
            done: row, seconds, ..
        } => {
            // The averages of the sweep's measures, named from the measure table.
            let values: Vec<String> = crate::sweep::measures()
                .iter()
                .zip(&row.stats)
                .filter(|(m, _)| m.range.is_some())
                .map(|(m, s)| format!("{} {:.4} ± {:.4}", m.symbol, s.mean, s.se))
                .collect();
            pb.say(&format!(
                "run {:>4} (point {}: {}, repeat {} of {}): {}, {seconds:.1} s",
                row.run,
                row.point,
                describe(&axes, &row.values),
                row.repeat,
                cfg.repeats,
                values.join(", ")
            ));
            ran.set(ran.get() + 1);
            if let Some(why) = row.too_short() {
                short.set(short.get() + 1);
                pb.say(&format!("warning: run {}: {why}", row.run));
            }
            let bad = row.not_finite();
            if !bad.is_empty() {
                pb.warn(&format!(
                    "run {} (point {}: {}, repeat {}): its state is not finite ({} not finite \
                     over the run): its row's statistics are NaN, the other runs' are their own",
                    row.run,
                    row.point,
                    describe(&axes, &row.values),
                    row.repeat,
                    bad.join(", ")
                ));
            }
            for e in &row.analysis_errors {
                pb.warn(&format!(
                    "run {} (point {}: {}, repeat {}): {e}: its columns are left empty, the \
                     sweep goes on",
                    row.run,
                    row.point,
                    describe(&axes, &row.values),
                    row.repeat,
                ));
            }
            if row.analysis_errors.is_empty() && row.scalars.iter().any(Option::is_none) {
                missing.set(missing.get() + 1);
            }
        }
    });
    pb.finish();
    let outcome = outcome?;
    println!(
        "sweep: {} ({} of {} runs, {:.1} s)",
        outcome.dir.display(),
        outcome.summary.runs_done,
        outcome.summary.runs.len(),
        outcome.summary.seconds_total
    );
    if short.get() > 0 {
        eprintln!(
            "warning: {} of the {} runs done now are shorter than {} τ_int of φ, or their \
             batches shorter than {} τ_int: their errors are not to be trusted (tau_int in \
             sweep.csv); raise --steps",
            short.get(),
            ran.get(),
            crate::stats::RUN_TAUS,
            crate::stats::BATCH_TAUS
        );
    }
    if missing.get() > 0 {
        eprintln!(
            "warning: in {} of the {} runs done now an analysis's scalar summary does not exist \
             (ξ where C(r) has no robust zero below r_max): a point's value averages only the \
             repeats that have one (the _repeats column of points.csv); raise --r-max for ξ",
            missing.get(),
            ran.get()
        );
    }
    if outcome.summary.status == SweepStatus::Interrupted {
        println!("interrupted: the folder holds the runs that finished");
        std::process::exit(130);
    }
    Ok(())
}
