//! `boids analyse FILE.gsd`: the analyses of the frames of a trajectory (ours or another
//! program's: the HOOMD schema's `particles/position`, `velocity`, `image` and `configuration/box`
//! chunks; every particle whose type is not `predator` is a boid, whatever its type's name, and
//! no hue is needed: [`TrajectoryReader::open_foreign`]), without running anything. The parameters (the perception radius behind the defaults,
//! Δt and the model's unit of time, whether the world wraps) are the run's, from the file's
//! `log/boids/run` when it has one, else the defaults; a GSD box is periodic, so the world wraps
//! unless those parameters say walls.

use std::path::PathBuf;

use crate::analysis::{descs, finished_curves, summary_lines, Analyses, Frame};
use crate::formats::gsd::{TrajectoryReader, RUN};
use crate::model::{SimParams, World};
use crate::run::analyses::{time_unit, write_curves, AnalysisArgs};
use crate::run::RunError;

/// Options of `boids analyse`.
#[derive(clap::Args, Clone, Debug)]
pub struct AnalyseArgs {
    /// The trajectory (GSD, HOOMD schema).
    pub file: PathBuf,
    /// The first frame analysed (from 0).
    #[arg(long, default_value_t = 0, value_name = "F")]
    pub from: u64,
    /// The analyses (`--analyse NAME=FILE.csv`, repeated) and their settings; --analyse-every
    /// counts frames here.
    #[command(flatten)]
    pub analyses: AnalysisArgs,
}

/// What `boids analyse` did: the frames read and one summary line per analysis.
#[derive(Clone, Debug)]
pub struct AnalyseReport {
    /// What the user should know about the file read (it ends early: only its whole frames
    /// are read).
    pub warnings: Vec<String>,
    /// Frames given to the analyses (the time analyses; the others also have a last frame
    /// closer to the one before, when there is one).
    pub frames: u64,
    /// Boids per frame.
    pub boids: usize,
    /// Where the parameters came from.
    pub params_from: String,
    /// One line per analysis (its scalars and its CSV).
    pub lines: Vec<String>,
    /// The analyses that could not be finished (the others' files are written): the command
    /// reports the rest, then fails naming them.
    pub unfinished: Vec<crate::analysis::AnalysisError>,
}

/// Runs `boids analyse`.
///
/// # Errors
/// [`RunError`]: the file cannot be read, no analysis asked for, a setting that cannot be
/// honoured (named with its limit, before any frame is read past the first), a file that cannot be
/// written.
pub fn run(args: &AnalyseArgs) -> Result<AnalyseReport, RunError> {
    if !args.analyses.any() {
        return Err(RunError::Conflict(format!(
            "nothing to compute: give --analyse NAME=FILE.csv (NAME: {})",
            crate::analysis::names()
        )));
    }
    check_outputs(args)?;
    let mut reader = TrajectoryReader::open_foreign(&args.file)?;
    let frames = reader.frames();
    if frames == 0 {
        return Err(RunError::Conflict(format!(
            "{} holds no frame: nothing to analyse",
            crate::io::show_path(&args.file)
        )));
    }
    if args.from >= frames {
        return Err(RunError::Conflict(format!(
            "--from {}: {} has {frames} frame{} (0 ..= {})",
            args.from,
            crate::io::show_path(&args.file),
            if frames == 1 { "" } else { "s" },
            frames.saturating_sub(1)
        )));
    }
    let warnings: Vec<String> = reader
        .cut_short()
        .map(|why| {
            format!(
                "{}: {why}; its {frames} whole {} read",
                crate::io::show_path(&args.file),
                if frames == 1 {
                    "frame is"
                } else {
                    "frames are"
                }
            )
        })
        .into_iter()
        .collect();
    let every = u64::from(args.analyses.every(1)?);
    // Only the time analyses (MSD, heading autocorrelation) need evenly spaced frames; the
    // others average over whatever frames they are given.
    let timed = args.analyses.analyse.iter().any(|r| r.desc.series);
    let mut even = true;
    let picked: Vec<u64> = (args.from..frames).step_by(every as usize).collect();
    let (params, params_from) = run_params(&mut reader);
    check_parts(&mut reader, &picked, &params, args)?;
    let first = reader.read_frame(picked[0])?;
    // The interval between the frames picked, from their steps (a trajectory's frames are
    // --every steps apart; the last may be closer).
    let step_gap = match picked.get(1) {
        Some(&f) => {
            let next = reader.read_frame(f)?.step;
            if next < first.step && timed {
                return Err(RunError::Conflict(format!(
                    "{}: frame {f} is at step {next}, before frame {}'s step {}: the time \
                     analyses (msd, heading_autocorrelation) need the frames in step order",
                    crate::io::show_path(&args.file),
                    picked[0],
                    first.step
                )));
            }
            let gap = next.saturating_sub(first.step);
            if gap == 0 && timed {
                return Err(RunError::Conflict(format!(
                    "{}: frames {} and {f} are both at step {}: the file does not say how far \
                     apart its frames are (HOOMD's configuration/step), which the analyses need \
                     to order and time them; write the steps into the file",
                    crate::io::show_path(&args.file),
                    picked[0],
                    first.step
                )));
            }
            gap.max(1)
        }
        None => 1,
    };
    let time = params.model.desc().speed.time;
    let unit = time_unit(time);
    let world = |size: [f32; 2]| World {
        width: size[0],
        height: size[1],
        wrap: params.boundary == crate::model::Boundary::Wrap,
    };
    let settings = args.analyses.options.settings(
        &descs(&args.analyses.analyse),
        params.perception_radius as f64,
        picked.len() as u64,
        time.after(step_gap as u32, params.dt),
        unit,
    )?;
    let mut analyses = Analyses::new(
        &descs(&args.analyses.analyse),
        &settings,
        world(first.world),
    )?;
    let boids = first.boids.len();
    let mut last_step = None;
    let mut skipped = None;
    let mut given = 0u64;
    for &f in &picked {
        let frame = if f == picked[0] {
            first.clone()
        } else {
            reader.read_frame(f)?
        };
        // The time analyses take the states as evenly spaced: refuse a gap that is not.
        if let Some(prev) = last_step {
            if frame.step != prev + step_gap && !timed {
                even = false;
            } else if frame.step > prev
                && frame.step < prev + step_gap
                && f == *picked.last().unwrap_or(&f)
            {
                // A run's last step is written when it falls between two frames: left out of the
                // time analyses, given to the others (which take every frame picked).
                skipped = Some(frame.step);
                analyses.add_untimed(&Frame {
                    boids: &frame.boids,
                    world: world(frame.world),
                    time: time.after(frame.step as u32, params.dt),
                })?;
                break;
            }
            if frame.step <= prev && timed {
                return Err(RunError::Conflict(format!(
                    "{}: frame {f} is at step {}, not after the frame before it (step {prev}): \
                     the time analyses (msd, heading_autocorrelation) need the frames in step \
                     order",
                    crate::io::show_path(&args.file),
                    frame.step
                )));
            }
            if frame.step != prev + step_gap && timed {
                return Err(RunError::Conflict(format!(
                    "{}: frame {f} is at step {}, {} steps after the frame before it, whose \
                     gap to the first frames is {step_gap}: the time analyses (msd, \
                     heading_autocorrelation) need evenly spaced frames (give --from and \
                     --analyse-every that pick them, or a trajectory written with one --every)",
                    crate::io::show_path(&args.file),
                    frame.step,
                    frame.step as i64 - prev as i64
                )));
            }
        }
        last_step = Some(frame.step);
        given += 1;
        analyses.add(&Frame {
            boids: &frame.boids,
            world: world(frame.world),
            time: time.after(frame.step as u32, params.dt),
        })?;
    }
    // An analysis that cannot be finished loses nothing of the others: they are written, then
    // its error is the command's.
    let (curves, unfinished) = finished_curves(&args.analyses.analyse, analyses.each_curve());
    let uneven = |n: u64| {
        format!(
            "{} · {boids} boids · {n} frames from {}, unevenly spaced",
            crate::io::show_path(&args.file),
            args.from
        )
    };
    let subtitle = match given {
        1 => format!(
            "{} · {boids} boids · frame {}",
            crate::io::show_path(&args.file),
            args.from
        ),
        _ if !even => uneven(given),
        _ => format!(
            "{} · {boids} boids · {given} frames from {}, {step_gap} steps apart",
            crate::io::show_path(&args.file),
            args.from
        ),
    };
    // With a last frame left out of the time analyses, the others say they have it.
    let (timed_curves, others): (Vec<_>, Vec<_>) =
        curves.iter().cloned().partition(|(r, _)| r.desc.series);
    write_curves(&timed_curves, &subtitle, unit)?;
    match skipped {
        // As they are subtitled alone: every frame, unevenly spaced.
        Some(_) => write_curves(&others, &uneven(given + 1), unit)?,
        None => write_curves(&others, &subtitle, unit)?,
    };
    let extra = u64::from(skipped.is_some());
    let mut lines = summary_lines(&curves, |d| if d.series { given } else { given + extra });
    if let Some(step) = skipped {
        lines.push(format!(
            "the last frame (step {step}) is closer than {step_gap} steps to the one before: left \
             out of the time analyses"
        ));
    }
    Ok(AnalyseReport {
        warnings,
        frames: given,
        boids,
        params_from,
        lines,
        unfinished,
    })
}

/// Refuses an analysis that needs a part of the states that a frame picked does not hold
/// (another program's trajectory without velocities or image counts): it would read 0 for every
/// particle and write a curve that means nothing. Image counts are needed in a wrapping world
/// only (against walls every path is unwrapped, its counts 0).
fn check_parts(
    reader: &mut TrajectoryReader,
    picked: &[u64],
    params: &SimParams,
    args: &AnalyseArgs,
) -> Result<(), RunError> {
    use crate::analysis::types::StatePart;
    let wraps = params.boundary == crate::model::Boundary::Wrap;
    for r in &args.analyses.analyse {
        for part in r.desc.needs {
            let (has, chunk, what) = match part {
                StatePart::Velocity => (
                    picked.iter().all(|&f| reader.has_velocities(f)),
                    "particles/velocity",
                    "the velocities",
                ),
                StatePart::Image => (
                    !wraps || picked.iter().all(|&f| reader.has_images(f)),
                    "particles/image",
                    "the periodic image counts, which unwrap the paths",
                ),
            };
            if !has {
                return Err(RunError::Conflict(format!(
                    "--analyse {}: {} has no {chunk} ({what}) in a frame picked, which {} needs: \
                     it would read 0 for every particle; nothing was read",
                    r.desc.name,
                    crate::io::show_path(&args.file),
                    r.desc.name
                )));
            }
        }
    }
    Ok(())
}

/// Refuses two outputs naming one file, or an output naming the trajectory read.
fn check_outputs(args: &AnalyseArgs) -> Result<(), RunError> {
    let mut seen = vec![("the trajectory read", crate::io::file_key(&args.file))];
    for r in &args.analyses.analyse {
        for (what, p) in [
            ("--analyse", r.csv.clone()),
            ("--analyse (its plot)", crate::analysis::plot_path(&r.csv)),
        ] {
            crate::io::check_folder_of(&p)
                .map_err(|e| RunError::Conflict(format!("{what}: {e}; nothing was read")))?;
            let key = crate::io::file_key(&p);
            if let Some((other, _)) = seen.iter().find(|(_, k)| *k == key) {
                return Err(RunError::Conflict(format!(
                    "{what} {} names the same file as {other}: give each output its own file",
                    crate::io::show_path(&p)
                )));
            }
            seen.push((what, key));
        }
    }
    Ok(())
}

/// The run's parameters from the file's `log/boids/run` (a boids trajectory), else the defaults,
/// with where they came from.
fn run_params(reader: &mut TrajectoryReader) -> (SimParams, String) {
    let from_file = reader
        .gsd()
        .read_chunk(0, RUN)
        .ok()
        .flatten()
        .and_then(|c| String::from_utf8(c.data).ok())
        .and_then(|text| {
            serde_json::from_str::<serde_json::Value>(text.trim_end_matches('\0')).ok()
        })
        .and_then(|v| serde_json::from_value::<SimParams>(v.get("params")?.clone()).ok());
    match from_file {
        Some(p) => (p, "the file's log/boids/run".into()),
        None => (
            SimParams::default(),
            "the defaults (the file has no log/boids/run of boids)".into(),
        ),
    }
}
