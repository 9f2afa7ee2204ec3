//! The one sweep driver of `boids bench` (boid counts × backends) and `boids sweep` (points ×
//! repeats): [`drive`] runs a plan's runs in plan order on one [`Device`] (the GPU context made
//! once, one GPU backend reset for every GPU run), as many consecutive runs side by side as the
//! command's [`Sweep::wave`] allows (each on its own thread, its step on a rayon pool of one),
//! checks Ctrl-C before every wave (a run that started finishes), hands each finished run to the
//! command in plan order ([`Sweep::record`]), lets it save its folder after every wave
//! ([`Sweep::save`]), and reports progress as one [`Event`] type.

use std::path::PathBuf;
use std::time::Instant;

use crate::backend::{self, BackendKind, Simulation};
use crate::gpu::{GpuBackend, GpuContext, Replica};
use crate::model::Setup;
use crate::run::steps::Stop;
use crate::run::RunError;
use crate::simulation::GpuError;

/// Progress of a sweep, for a progress bar or a test: `R` is the command's planned run, `D` what
/// it recorded of a finished one.
#[derive(Debug)]
pub enum Event<'a, R, D> {
    /// The runs that will be done, in order, and their total number of steps.
    Planned {
        /// The runs.
        runs: &'a [R],
        /// Their steps (warm-up included).
        steps: u64,
    },
    /// A run that will not be done (or did not finish), and why.
    Skipped {
        /// The run.
        run: &'a R,
        /// Why, in words.
        reason: &'a str,
    },
    /// A run begins.
    Started(&'a R),
    /// One step of the current run is done.
    Step {
        /// Whether it was a warm-up (unmeasured) step.
        warmup: bool,
    },
    /// A run finished and was recorded.
    Finished {
        /// The run.
        run: &'a R,
        /// What the command recorded of it.
        done: &'a D,
        /// Its wall time (s).
        seconds: f64,
    },
}

/// What a sweep wrote: its folder, the files in it and its summary.
#[derive(Debug)]
pub struct Outcome<S> {
    /// The output folder.
    pub dir: PathBuf,
    /// The files written.
    pub files: Vec<PathBuf>,
    /// The summary written.
    pub summary: S,
}

/// A command's sweep, as the driver runs it.
pub trait Sweep: Sync {
    /// A planned run.
    type Run: Sync;
    /// What running one gives (its results, or its error: the command decides what a failure
    /// means in [`Sweep::record`]).
    type Output: Send;
    /// What the command records of a finished run, for [`Event::Finished`].
    type Done;
    /// An error that stops the sweep.
    type Error;

    /// The steps of `run` (warm-up included), for progress.
    fn steps(&self, run: &Self::Run) -> u64;

    /// How many of `next` (the runs still to do, at least one) run side by side: 1 runs the first
    /// alone.
    fn wave(&self, _next: &[Self::Run]) -> usize {
        1
    }

    /// Runs `run` on `device` (a device of its own when side by side), calling `step(warmup)`
    /// after every step.
    fn run(&self, run: &Self::Run, device: &mut Device, step: &mut dyn FnMut(bool))
        -> Self::Output;

    /// Runs a wave of several runs together on `device` (a GPU ensemble), calling `step(warmup)`
    /// after every step of the wave and polling `stop` between steps: each run's output and
    /// seconds, or `None` for a run stopped before its end (not done). `None` when the command
    /// runs a wave's runs side by side, each on its own thread (the default).
    fn run_wave(
        &self,
        _runs: &[Self::Run],
        _device: &mut Device,
        _stop: &Stop,
        _step: &mut dyn FnMut(bool),
    ) -> Option<Vec<WaveRun<Self::Output>>> {
        None
    }

    /// Records a finished run (in plan order); why it is not done, when the command counts it
    /// as skipped (reported as [`Event::Skipped`]).
    ///
    /// # Errors
    /// An error that stops the sweep (the command has written what it must).
    fn record(
        &mut self,
        run: &Self::Run,
        output: Self::Output,
        seconds: f64,
    ) -> Result<Option<String>, Self::Error>;

    /// What [`Event::Finished`] shows of a recorded run, if anything.
    fn done(&self, run: &Self::Run) -> Option<&Self::Done>;

    /// Writes the folder after a wave.
    ///
    /// # Errors
    /// A file that cannot be written.
    fn save(&mut self) -> Result<(), Self::Error>;

    /// The runs not started because the sweep was stopped (Ctrl-C), each already reported as
    /// [`Event::Skipped`] with [`INTERRUPTED`].
    fn stopped(&mut self, _runs: &[Self::Run]) {}
}

/// A run of a wave: its output and seconds, or `None` when it was stopped before its end.
pub type WaveRun<O> = Option<(O, f64)>;

/// The callback of a sweep's events.
pub type OnEvent<'e, S> = dyn FnMut(Event<'_, <S as Sweep>::Run, <S as Sweep>::Done>) + 'e;

/// Why a run stopped by Ctrl-C before it began is not done.
pub const INTERRUPTED: &str = "not started: interrupted (Ctrl-C)";

/// How a sweep ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Every run was done.
    Done,
    /// Stopped by Ctrl-C before the run of this index.
    Stopped(usize),
}

/// Runs `runs` of `sweep` in order (see the module docs), reporting to `on_event`.
///
/// # Errors
/// The first error of [`Sweep::record`] or [`Sweep::save`].
pub fn drive<S: Sweep>(
    sweep: &mut S,
    runs: &[S::Run],
    device: &mut Device,
    stop: &Stop,
    on_event: &mut OnEvent<'_, S>,
) -> Result<Ended, S::Error> {
    on_event(Event::Planned {
        runs,
        steps: runs.iter().map(|r| sweep.steps(r)).sum(),
    });
    let mut i = 0;
    while i < runs.len() {
        if stop.is_set() {
            for run in &runs[i..] {
                on_event(Event::Skipped {
                    run,
                    reason: INTERRUPTED,
                });
            }
            sweep.stopped(&runs[i..]);
            return Ok(Ended::Stopped(i));
        }
        let wave = sweep.wave(&runs[i..]).clamp(1, runs.len() - i);
        let planned = &runs[i..i + wave];
        let together = if wave > 1 {
            for r in planned {
                on_event(Event::Started(r));
            }
            sweep.run_wave(planned, device, stop, &mut |warmup| {
                on_event(Event::Step { warmup })
            })
        } else {
            None
        };
        let outputs: Vec<(S::Output, f64)> = if let Some(outs) = together {
            // The runs done, up to the first one stopped (Ctrl-C) before its end.
            let outs: Vec<(S::Output, f64)> = outs.into_iter().map_while(|o| o).collect();
            let finished = outs.len();
            if finished < wave {
                // The stop flag is set: the loop's check reports the rest as not started.
                record_all(sweep, &planned[..finished], outs, on_event)?;
                i += finished;
                continue;
            }
            outs
        } else if wave == 1 {
            on_event(Event::Started(&planned[0]));
            let t = Instant::now();
            let out = sweep.run(&planned[0], device, &mut |warmup| {
                on_event(Event::Step { warmup })
            });
            vec![(out, t.elapsed().as_secs_f64())]
        } else {
            let shared: &S = sweep;
            let one = |r: &S::Run| {
                let t = Instant::now();
                let mut own = Device::default();
                #[cfg(target_arch = "wasm32")]
                let out = shared.run(r, &mut own, &mut |_| {});
                #[cfg(not(target_arch = "wasm32"))]
                let out = match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
                    Ok(pool) => pool.install(|| shared.run(r, &mut own, &mut |_| {})),
                    Err(_) => shared.run(r, &mut own, &mut |_| {}),
                };
                (out, t.elapsed().as_secs_f64())
            };
            // On the web (no threads; wgpu's objects stay on the page's thread) one after another.
            #[cfg(target_arch = "wasm32")]
            let out: Vec<_> = planned.iter().map(one).collect();
            #[cfg(not(target_arch = "wasm32"))]
            let out: Vec<_> = std::thread::scope(|s| {
                let handles: Vec<_> = planned.iter().map(|r| s.spawn(|| one(r))).collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                    .collect()
            });
            // Started above, before the wave ran.
            for r in planned {
                for _ in 0..shared.steps(r) {
                    on_event(Event::Step { warmup: false });
                }
            }
            out
        };
        record_all(sweep, planned, outputs, on_event)?;
        i += wave;
    }
    Ok(Ended::Done)
}

/// Records the outputs of `planned` (a wave's runs, or those of a stopped wave that finished),
/// writes the folder once and reports each run finished.
fn record_all<S: Sweep>(
    sweep: &mut S,
    planned: &[S::Run],
    outputs: Vec<(S::Output, f64)>,
    on_event: &mut OnEvent<'_, S>,
) -> Result<(), S::Error> {
    let mut seconds = Vec::with_capacity(planned.len());
    for (run, (output, s)) in planned.iter().zip(outputs) {
        if let Some(reason) = sweep.record(run, output, s)? {
            on_event(Event::Skipped {
                run,
                reason: &reason,
            });
        }
        seconds.push(s);
    }
    // The folder is written once per wave: its runs finished together.
    sweep.save()?;
    for (k, run) in planned.iter().enumerate() {
        if let Some(done) = sweep.done(run) {
            on_event(Event::Finished {
                run,
                done,
                seconds: seconds[k],
            });
        }
    }
    Ok(())
}

/// What the runs of a sweep share: the GPU context (made by the first run that needs it, or
/// given), the time it took (charged to the first run that takes it), and one GPU backend, made
/// by the first GPU run and reset for the next ones ([`GpuBackend::reset`]: its pipelines and
/// buffers are kept, the buffers grown only when a run needs more, the state uploaded per run).
/// Every run's results are those of a new backend (`tests/it/sweep_reuse.rs`). A CPU run gets a
/// new backend.
#[derive(Default)]
pub struct Device {
    ctx: Option<GpuContext>,
    adapter_ms: f64,
    gpu: Option<GpuBackend>,
    cpu: Option<Box<dyn Simulation>>,
    profiling: bool,
}

impl Device {
    /// A device on the context `ctx` (made when first needed when `None`), with GPU timer
    /// queries on when `profiling` (a benchmark's per-stage times) and off otherwise.
    pub fn new(ctx: Option<GpuContext>, profiling: bool) -> Device {
        Device {
            ctx,
            profiling,
            ..Device::default()
        }
    }

    /// The context, made now (and timed) when there is none yet.
    ///
    /// # Errors
    /// [`GpuError`] when no adapter can be found.
    pub fn context(&mut self) -> Result<&GpuContext, GpuError> {
        if self.ctx.is_none() {
            let t = Instant::now();
            self.ctx = Some(GpuContext::new()?);
            self.adapter_ms = t.elapsed().as_secs_f64() * 1e3;
        }
        Ok(self.ctx.as_ref().expect("made above"))
    }

    /// The context, when one was given or made.
    pub fn existing_context(&self) -> Option<&GpuContext> {
        self.ctx.as_ref()
    }

    /// The time the context took to make, once (0 after): charged to the run that takes it.
    pub fn take_adapter_ms(&mut self) -> f64 {
        std::mem::take(&mut self.adapter_ms)
    }

    /// A backend of `kind` holding `setup`: on the GPU the kept backend reset to it (or a new
    /// one, kept), on the CPU a new one.
    ///
    /// # Errors
    /// As [`backend::create`] and [`backend::reset`]; [`GpuError::NoAdapter`] for a GPU run
    /// without an adapter.
    pub fn simulation(
        &mut self,
        kind: BackendKind,
        setup: &Setup,
    ) -> Result<&mut dyn Simulation, RunError> {
        if kind != BackendKind::Gpu {
            return Ok(self
                .cpu
                .insert(backend::create(kind, setup, None)?)
                .as_mut());
        }
        let profiling = self.profiling;
        let sim = match self.gpu.take() {
            Some(mut b) => {
                backend::reset(&mut b, setup)?;
                b
            }
            None => {
                let ctx = self.context()?;
                let mut b = GpuBackend::from_state(ctx, &setup.params, &setup.boids, setup.seed)?;
                b.set_profiling(profiling);
                backend::apply_actors(&mut b, setup)?;
                b
            }
        };
        Ok(self.gpu.insert(sim))
    }

    /// The kept GPU backend holding the ensemble `replicas` ([`GpuBackend::reset_ensemble`]),
    /// or a new one, kept.
    ///
    /// # Errors
    /// As [`GpuBackend::ensemble`]; [`GpuError::NoAdapter`] without an adapter.
    pub fn ensemble(&mut self, replicas: &[Replica]) -> Result<&mut GpuBackend, RunError> {
        let profiling = self.profiling;
        let b = match self.gpu.take() {
            Some(mut b) => {
                if let Err(e) = b.reset_ensemble(replicas) {
                    // Kept for the next run (it holds no ensemble now).
                    self.gpu = Some(b);
                    return Err(e.into());
                }
                b
            }
            None => {
                let ctx = self.context()?;
                let mut b = GpuBackend::ensemble(ctx, replicas)?;
                b.set_profiling(profiling);
                b
            }
        };
        Ok(self.gpu.insert(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs numbered from 0; a run's output is its number times 10, after `k + 1` steps. Waves
    /// of two; the stop flag is raised by the record of `stop_after`.
    struct Fake<'a> {
        recorded: Vec<(u32, u32)>,
        saves: usize,
        stopped: Vec<u32>,
        stop: &'a Stop,
        stop_after: u32,
        fail_at: Option<u32>,
    }

    impl Sweep for Fake<'_> {
        type Run = u32;
        type Output = u32;
        type Done = (u32, u32);
        type Error = String;

        fn steps(&self, run: &u32) -> u64 {
            u64::from(*run + 1)
        }
        fn wave(&self, next: &[u32]) -> usize {
            2.min(next.len())
        }
        fn run(&self, run: &u32, _device: &mut Device, step: &mut dyn FnMut(bool)) -> u32 {
            for _ in 0..=*run {
                step(false);
            }
            run * 10
        }
        fn record(
            &mut self,
            run: &u32,
            output: u32,
            _seconds: f64,
        ) -> Result<Option<String>, String> {
            if self.fail_at == Some(*run) {
                return Err(format!("run {run} failed"));
            }
            self.recorded.push((*run, output));
            if *run == self.stop_after {
                self.stop.set();
            }
            Ok((*run == 1).then(|| "planted skip".to_string()))
        }
        fn done(&self, run: &u32) -> Option<&(u32, u32)> {
            self.recorded.iter().find(|r| r.0 == *run)
        }
        fn save(&mut self) -> Result<(), String> {
            self.saves += 1;
            Ok(())
        }
        fn stopped(&mut self, runs: &[u32]) {
            self.stopped = runs.to_vec();
        }
    }

    /// Plan order, waves of two side by side, one save per wave, every step reported; Ctrl-C
    /// stops before the next wave and names the runs not started; a failed record stops the sweep
    /// with its error.
    #[test]
    fn runs_go_in_plan_order_in_waves_and_stop_between_them() {
        let stop = Stop::default();
        let mut fake = Fake {
            recorded: Vec::new(),
            saves: 0,
            stopped: Vec::new(),
            stop: &stop,
            stop_after: 2,
            fail_at: None,
        };
        let runs = [0, 1, 2, 3, 4, 5];
        let mut events = Vec::new();
        let ended = drive(&mut fake, &runs, &mut Device::default(), &stop, &mut |e| {
            events.push(match e {
                Event::Planned { runs, steps } => format!("planned {} {steps}", runs.len()),
                Event::Skipped { run, .. } => format!("skipped {run}"),
                Event::Started(r) => format!("started {r}"),
                Event::Step { .. } => "step".into(),
                Event::Finished { run, done, .. } => format!("finished {run} {}", done.1),
            })
        })
        .unwrap();
        // The third run's record raised the flag: its wave (2, 3) finished, 4 and 5 did not start.
        assert_eq!(ended, Ended::Stopped(4));
        assert_eq!(fake.recorded, vec![(0, 0), (1, 10), (2, 20), (3, 30)]);
        assert_eq!(fake.saves, 2);
        assert_eq!(fake.stopped, vec![4, 5]);
        assert_eq!(events[0], "planned 6 21");
        let steps = events.iter().filter(|e| *e == "step").count();
        assert_eq!(steps, 1 + 2 + 3 + 4);
        let rest: Vec<&String> = events.iter().filter(|e| *e != "step").collect();
        assert_eq!(
            rest[1..],
            [
                "started 0",
                "started 1",
                "skipped 1",
                "finished 0 0",
                "finished 1 10",
                "started 2",
                "started 3",
                "finished 2 20",
                "finished 3 30",
                "skipped 4",
                "skipped 5"
            ]
        );

        let stop = Stop::default();
        let mut failing = Fake {
            recorded: Vec::new(),
            saves: 0,
            stopped: Vec::new(),
            stop: &stop,
            stop_after: 99,
            fail_at: Some(1),
        };
        let e = drive(
            &mut failing,
            &runs,
            &mut Device::default(),
            &stop,
            &mut |_| {},
        );
        assert_eq!(e, Err("run 1 failed".to_string()));
        assert_eq!(failing.recorded, vec![(0, 0)]);
        assert_eq!(failing.saves, 0);
    }
}
