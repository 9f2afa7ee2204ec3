//! The plan of a sweep: its axes (one or two swept parameters and their values), repeats, steps,
//! seed and everything else that decides its results, and the runs it enumerates.
//!
//! **Points and runs** (as docs/sweeps.md defines them). A *point* is one combination of values;
//! a *run* is one point × one repeat. Points are numbered c = i₁·n₂ + i₂ for value i₁ of the
//! first axis and i₂ of the second (n₂ values; 0 and n₂ = 1 without one); runs k = c·R + r for
//! repeat r of R, in the full (unsharded) plan: the last axis varies fastest, the repeat fastest
//! of all. What is shown and written (progress lines, `sweep.csv`, `summary.json`, the series
//! files) numbers them from 1, as `--shard I/N` numbers shards: run k + 1, point c + 1, repeat
//! r + 1.
//!
//! **Hysteresis** (`--protocol hysteresis`): the axes are the swept parameter and the branch
//! ([`branch_axis`]: `up`, `down`), so point c = 2·i + b; the runs go in chain order
//! ([`PlanSpec::order`]) and each starts from the final state of [`PlanSpec::previous`].
//!
//! **Seeds.** Run k runs from seed `hash4(base, k, 0, SEED_STREAM)`
//! ([`crate::model::rng::hash4`], the PCG hash of the noise), base being `--seed`, else the
//! scene's, else 1. The seed depends on the run's index in the full plan only, so a run gets
//! the same seed in every shard split and on every machine, and repeats differ.
//!
//! **Fingerprint.** A SHA-256 of every option that defines the results ([`PlanSpec`] without
//! the scene's path, with the SHA-256 of the scene's text instead), so shards of different
//! plans are never merged.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::analysis::AnalysisDesc;
use crate::stats::MIN_SAMPLES;
use crate::sweep::error::SweepError;

/// Most runs (combinations × repeats) in one plan.
pub const MAX_RUNS: usize = 10_000;

/// The names a sweep may sweep that are not parameters: the boid count and the density.
pub const SPECIAL: [&str; 2] = ["boids", "density"];

/// The counter-based hash stream of run seeds ("SWEP").
pub const SEED_STREAM: u32 = 0x5357_4550;

/// One swept parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Axis {
    /// A [`crate::model::SimParams`] field, `boids` or `density`.
    pub name: String,
    /// Its values, in the order given; for a categorical parameter the indices 0, 1, … of
    /// `labels`.
    pub values: Vec<f64>,
    /// A categorical parameter's values by name (`angular`, `vectorial`), in the order given;
    /// empty for a numeric one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
}

impl Axis {
    /// A numeric axis.
    pub fn numeric(name: &str, values: Vec<f64>) -> Axis {
        Axis {
            name: name.to_string(),
            values,
            labels: Vec::new(),
        }
    }

    /// Whether its values are names (a categorical parameter).
    pub fn is_categorical(&self) -> bool {
        !self.labels.is_empty()
    }

    /// A value as the files and settings write it: a categorical value's name, else the number in
    /// shortest round-trip form.
    pub fn text(&self, v: f64) -> String {
        if self.is_categorical() {
            self.labels
                .get(v as usize)
                .cloned()
                .unwrap_or_else(|| v.to_string())
        } else {
            v.to_string()
        }
    }

    /// The value written as `text` ([`Axis::text`]'s inverse), if it is one.
    pub fn parse(&self, text: &str) -> Option<f64> {
        if self.is_categorical() {
            self.labels.iter().position(|l| l == text).map(|i| i as f64)
        } else {
            text.parse().ok()
        }
    }
}

/// The names of `axes`, in order.
pub fn axis_names(axes: &[Axis]) -> Vec<String> {
    axes.iter().map(|a| a.name.clone()).collect()
}

/// The state every run of a sweep starts from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Start {
    /// Uniform random positions and headings from the run's seed.
    #[default]
    Random,
    /// The random start's positions, every boid heading along +x at the middle of its model's
    /// spawn speeds ([`crate::model::spawn::align_headings`]): polarization 1.
    Ordered,
    /// The random start's boids gathered into one group at the world's centre
    /// ([`crate::model::spawn::group_state`]), as Couzin et al. (2002) start theirs.
    Group,
}

impl Start {
    /// Whether it is the random start (the default, left out of `summary.json`'s plan so the
    /// fingerprints of plans made before starts existed stay as they were).
    pub fn is_random(&self) -> bool {
        *self == Start::Random
    }
}

/// How the runs of a sweep follow one another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Protocol {
    /// Every run starts afresh (from `--start` or `--init`), independent of the others.
    #[default]
    Independent,
    /// The one swept parameter stepped up through its values then back down, one chain per
    /// repeat: each run starts from the final state of the chain's run before it (the first from
    /// `--start` or `--init`). The branch (`up`, `down`) is the plan's second axis.
    Hysteresis,
}

impl Protocol {
    /// Whether it is the independent protocol (the default, left out of `summary.json`'s plan so
    /// the fingerprints of plans made before protocols existed stay as they were).
    pub fn is_independent(&self) -> bool {
        *self == Protocol::Independent
    }
}

/// Why a hysteresis sweep takes no second parameter (said by the command line before it makes
/// the plan, and by the plan's check).
pub const HYSTERESIS_ONE_PARAMETER: &str = "--protocol hysteresis steps one parameter up and \
    down: drop --param2 (sweep another parameter with one hysteresis sweep per value)";

/// The name of a hysteresis sweep's second axis.
pub const BRANCH: &str = "branch";

/// A hysteresis sweep's second axis: `up` (the values in the order given), then `down` (back).
pub fn branch_axis() -> Axis {
    Axis {
        name: BRANCH.to_string(),
        values: vec![0.0, 1.0],
        labels: vec!["up".to_string(), "down".to_string()],
    }
}

/// The point of a hysteresis chain's step `step` (0 ..< 2n) through `n` values: value i up is
/// point 2·i, down 2·i + 1; the steps go up through the values, then back down.
fn chain_point(step: usize, n: usize) -> usize {
    if step < n {
        2 * step
    } else {
        2 * (2 * n - 1 - step) + 1
    }
}

/// Everything that decides a sweep's results (also written in `summary.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanSpec {
    /// `boids` version that ran it (a different build may compute different numbers).
    pub tool_version: String,
    /// The scene file as given on the command line (not part of the fingerprint).
    pub scene: Option<String>,
    /// SHA-256 of the scene file's text (hex).
    pub scene_sha256: Option<String>,
    /// Backend name (`cpu`, `gpu`, `cpu-naive`).
    pub backend: String,
    /// The swept parameters (one or two).
    pub axes: Vec<Axis>,
    /// `--boids` (None: the scene's count, else 20 000), unless an axis is `boids`.
    pub boids: Option<usize>,
    /// Steps per run.
    pub steps: u32,
    /// Steps discarded before the measures are averaged.
    pub discard: u32,
    /// Runs per combination of values.
    pub repeats: u32,
    /// Base seed of the run seeds.
    pub seed: u32,
    /// The `--set KEY=VALUE` settings applied to every run, in order (before its swept values).
    #[serde(default)]
    pub sets: Vec<String>,
    /// `--keep-world`: a scene's fixed world kept at any count (else scaled to keep its density).
    #[serde(default)]
    pub keep_world: bool,
    /// `--start`: the state every run starts from.
    #[serde(default, skip_serializing_if = "Start::is_random")]
    pub start: Start,
    /// `--protocol`: how the runs follow one another.
    #[serde(default, skip_serializing_if = "Protocol::is_independent")]
    pub protocol: Protocol,
    /// `--init`: the state file every run starts from, as given (not part of the fingerprint).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init: Option<String>,
    /// SHA-256 (hex) of the `--init` file's bytes, then `:FRAME` for a GSD frame given by number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init_sha256: Option<String>,
    /// `--analyse`: the analyses whose scalar summaries every run records, and their settings
    /// (absent without, so the fingerprints of plans made before analyses stay as they were).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analyses: Option<AnalysisPlan>,
}

/// The analyses of a sweep's runs (`--analyse NAME`, repeated) and their settings: each run gives
/// them its state at the end of `--discard` and every `--analyse-every` steps after it, and
/// records the scalar summaries of their curves (ξ of the velocity correlation, …) as columns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnalysisPlan {
    /// The analyses' names (each one with scalar summaries), in the order given.
    pub names: Vec<String>,
    /// Their settings.
    #[serde(flatten)]
    pub options: crate::run::analyses::AnalysisOptions,
}

/// Steps between two states given to a sweep's analyses without `--analyse-every` (as `boids
/// headless`).
pub const SWEEP_ANALYSE_EVERY: u32 = 10;

impl AnalysisPlan {
    /// The analyses, from the table.
    ///
    /// # Errors
    /// [`SweepError::Plan`] for a name not in the table (with its names), or an analysis without
    /// scalar summaries (naming those with them).
    pub fn descs(&self) -> Result<Vec<&'static AnalysisDesc>, SweepError> {
        self.names
            .iter()
            .map(|n| {
                let d = crate::analysis::by_name(n)
                    .map_err(|e| SweepError::Plan(format!("--analyse {e}")))?;
                if d.scalars.is_empty() {
                    let with: Vec<String> = crate::analysis::ANALYSES
                        .iter()
                        .filter(|d| !d.scalars.is_empty())
                        .map(|d| {
                            let s: Vec<&str> = d.scalars.iter().map(|s| s.0).collect();
                            format!("{} ({})", d.name, s.join(", "))
                        })
                        .collect();
                    return Err(SweepError::Plan(format!(
                        "--analyse {n}: its curve has no scalar summary for a sweep to record \
                         (analyses with one: {}); compute its curve with boids headless \
                         --analyse {n}=FILE.csv",
                        with.join(", ")
                    )));
                }
                Ok(d)
            })
            .collect()
    }

    /// Refuses a setting that none of the analyses reads, naming those a sweep records that do.
    ///
    /// # Errors
    /// [`SweepError::Plan`] naming the setting, its value and the analyses asked for.
    pub fn refuse_unread(&self) -> Result<(), SweepError> {
        let descs = self.descs()?;
        let recorded: Vec<&'static AnalysisDesc> = crate::analysis::ANALYSES
            .iter()
            .copied()
            .filter(|d| !d.scalars.is_empty())
            .collect();
        self.options
            .refuse_unread_among(&descs, &recorded, "a sweep records")
            .map_err(|e| SweepError::Plan(e.to_string()))
    }

    /// The steps between two states given to the analyses.
    pub fn every(&self) -> u32 {
        self.options.analyse_every.unwrap_or(SWEEP_ANALYSE_EVERY)
    }
}

impl PlanSpec {
    /// The columns of the analyses' scalar summaries in `sweep.csv` and `points.csv`, in order
    /// (each analysis's, in its table order of scalars); none without `--analyse`.
    pub fn scalar_columns(&self) -> Vec<String> {
        let Some(a) = &self.analyses else {
            return Vec::new();
        };
        a.descs()
            .unwrap_or_default()
            .iter()
            .flat_map(|d| d.scalars.iter().map(|s| s.0.to_string()))
            .collect()
    }
}

/// One run of a plan: a point (a combination of values) and a repeat.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedRun {
    /// Index k of the run in the full plan, 0-based.
    pub index: usize,
    /// Index c of its point (combination of values) in the full plan, 0-based.
    pub point: usize,
    /// The value of each axis, in axis order.
    pub values: Vec<f64>,
    /// Repeat number, 0-based.
    pub repeat: u32,
    /// The run's seed.
    pub seed: u32,
}

impl PlanSpec {
    /// Checks the shape of the plan (not the values against the parameters: the runner does that
    /// with the scene).
    ///
    /// # Errors
    /// [`SweepError::Plan`] naming the option: no axis or more than two, a repeated name, an axis without
    /// values, 0 repeats, `--discard` leaving fewer than [`MIN_SAMPLES`] measured steps, or more
    /// than [`MAX_RUNS`] runs.
    pub fn check(&self) -> Result<(), SweepError> {
        let plan = |why: String| Err(SweepError::Plan(why));
        if self.axes.is_empty() || self.axes.len() > 2 {
            return plan(format!(
                "a sweep has one or two parameters (--param, --param2), not {}",
                self.axes.len()
            ));
        }
        if self.axes.len() == 2 && self.axes[0].name == self.axes[1].name {
            return plan(format!(
                "--param and --param2 are both {:?}: sweep two different parameters",
                self.axes[0].name
            ));
        }
        for a in &self.axes {
            if a.values.is_empty() {
                return plan(format!("--param {}: no values", a.name));
            }
        }
        if self.repeats == 0 {
            return plan("--repeats must be at least 1".into());
        }
        if self.protocol == Protocol::Hysteresis {
            let a = &self.axes[0];
            if self.axes.len() != 2 || self.axes[1] != branch_axis() {
                return plan(HYSTERESIS_ONE_PARAMETER.into());
            }
            if a.is_categorical() || SPECIAL.contains(&a.name.as_str()) {
                return plan(format!(
                    "--protocol hysteresis with --param {}: a chain carries its state from \
                     one value to the next, so the parameter must be a numeric one of the \
                     model (not boids, density or a choice of names)",
                    a.name
                ));
            }
            if ["world_width", "world_height"].contains(&a.name.as_str()) {
                return plan(format!(
                    "--protocol hysteresis with --param {}: a chain's state would not fit the \
                     next world (its boids outside it); sweep the world with independent runs",
                    a.name
                ));
            }
            if a.values.len() < 2 {
                return plan(format!(
                    "--protocol hysteresis with one value of {}: give two or more to step \
                     through",
                    a.name
                ));
            }
            if let Some(w) = a.values.windows(2).find(|w| w[1] <= w[0]) {
                return plan(format!(
                    "--protocol hysteresis: --values of {} go {} then {}; give them in \
                     increasing order (the chain goes up through them, then back down)",
                    a.name,
                    a.text(w[0]),
                    a.text(w[1])
                ));
            }
        } else if self.axes.iter().any(|a| a.name == BRANCH) {
            return plan(format!(
                "--param {BRANCH} is the branch of a hysteresis sweep, not a parameter"
            ));
        }
        if let Some(a) = &self.analyses {
            let descs = a.descs()?;
            for (i, d) in descs.iter().enumerate() {
                if descs[..i].iter().any(|e| e.name == d.name) {
                    return plan(format!("--analyse {} is given twice", d.name));
                }
            }
            if a.options.analyse_every == Some(0) {
                return plan(
                    "--analyse-every 0: give the steps between two states of the \
                             analyses, 1 or more"
                        .into(),
                );
            }
            a.refuse_unread()?;
        }
        let measured = self.steps.saturating_sub(self.discard) as usize;
        if measured < MIN_SAMPLES {
            return plan(format!(
                "--steps {} with --discard {} leaves {measured} measured steps; at least \
                 {MIN_SAMPLES} are needed for an error estimate (40 or more for the full 20 \
                 batches)",
                self.steps, self.discard
            ));
        }
        let total = self.axes.iter().try_fold(self.repeats as usize, |acc, a| {
            acc.checked_mul(a.values.len())
        });
        match total {
            Some(t) if t <= MAX_RUNS => Ok(()),
            _ => plan(format!(
                "the plan has {} runs ({} points × {} repeats), more than the limit {MAX_RUNS}",
                self.axes
                    .iter()
                    .map(|a| a.values.len() as f64)
                    .product::<f64>()
                    * f64::from(self.repeats),
                self.axes
                    .iter()
                    .map(|a| format!("{} {}", a.values.len(), a.name))
                    .collect::<Vec<_>>()
                    .join(" × "),
                self.repeats
            )),
        }
    }

    /// Number of combinations of values.
    pub fn combinations(&self) -> usize {
        self.axes.iter().map(|a| a.values.len()).product()
    }

    /// Number of runs (combinations × repeats).
    pub fn total(&self) -> usize {
        self.combinations() * self.repeats as usize
    }

    /// Measured steps per run.
    pub fn samples(&self) -> u32 {
        self.steps - self.discard
    }

    /// Run `k` (0 ≤ k < [`PlanSpec::total`]).
    pub fn run(&self, k: usize) -> PlannedRun {
        let r = self.repeats as usize;
        let combo = k / r;
        let mut values = vec![0.0; self.axes.len()];
        let mut rest = combo;
        for (i, a) in self.axes.iter().enumerate().rev() {
            values[i] = a.values[rest % a.values.len()];
            rest /= a.values.len();
        }
        PlannedRun {
            index: k,
            point: combo,
            values,
            repeat: (k % r) as u32,
            seed: crate::model::rng::hash4(self.seed, k as u32, 0, SEED_STREAM),
        }
    }

    /// The runs of `shard` (all without one) in the order they run, as indices into the full plan.
    ///
    /// Independent runs run in plan order, and shard I/N does the runs k with k mod N = I − 1.
    /// A hysteresis sweep runs its chains (one per repeat) side by side, step by step: the first
    /// value up of every repeat, then the second, …, the last up, the last down, …, the first
    /// down; shard I/N does the chains of the repeats r with r mod N = I − 1 (a chain is never
    /// split).
    pub fn order(&self, shard: Option<crate::sweep::shard::Shard>) -> Vec<usize> {
        let total = self.total();
        if self.protocol == Protocol::Independent {
            return match shard {
                Some(s) => s.runs(total),
                None => (0..total).collect(),
            };
        }
        let repeats: Vec<usize> = (0..self.repeats as usize)
            .filter(|&r| shard.is_none_or(|s| s.contains(r)))
            .collect();
        let n = self.axes[0].values.len();
        let mut order = Vec::with_capacity(2 * n * repeats.len());
        for step in 0..2 * n {
            let point = chain_point(step, n);
            for &r in &repeats {
                order.push(point * self.repeats as usize + r);
            }
        }
        order
    }

    /// The run whose final state run `k` starts from: in a hysteresis sweep the chain's run
    /// before it (the same repeat, one step back); none for a chain's first run and for
    /// independent runs.
    pub fn previous(&self, k: usize) -> Option<usize> {
        if self.protocol == Protocol::Independent {
            return None;
        }
        let reps = self.repeats as usize;
        let (point, r) = (k / reps, k % reps);
        let n = self.axes[0].values.len();
        let (i, down) = (point / 2, point % 2 == 1);
        let step = if down { 2 * n - 1 - i } else { i };
        Some(chain_point(step.checked_sub(1)?, n) * reps + r)
    }

    /// The options in which this plan and `other` differ, as `name a vs b` (the paths of the
    /// scene and the `--init` file left out: their contents are `scene_sha256`, `init_sha256`).
    pub fn differences(&self, other: &PlanSpec) -> Vec<String> {
        let va = serde_json::to_value(self).unwrap_or_default();
        let vb = serde_json::to_value(other).unwrap_or_default();
        let (Some(oa), Some(ob)) = (va.as_object(), vb.as_object()) else {
            return Vec::new();
        };
        // A key one side leaves out holds its default there (a random start, no --init).
        let shown = |k: &str, v: Option<&serde_json::Value>| match (k, v) {
            (_, Some(v)) => v.to_string(),
            ("start", None) => "\"random\"".to_string(),
            ("protocol", None) => "\"independent\"".to_string(),
            (_, None) => "none".to_string(),
        };
        let mut keys: Vec<&String> = oa.keys().chain(ob.keys()).collect();
        keys.sort();
        keys.dedup();
        keys.into_iter()
            .filter(|k| k.as_str() != "scene" && k.as_str() != "init")
            .filter(|k| oa.get(k.as_str()) != ob.get(k.as_str()))
            .map(|k| {
                format!(
                    "{k} {} vs {}",
                    shown(k, oa.get(k.as_str())),
                    shown(k, ob.get(k.as_str()))
                )
            })
            .collect()
    }

    /// The fingerprint: SHA-256 (hex) of the canonical JSON of this spec without `scene`.
    pub fn fingerprint(&self) -> String {
        let mut v = serde_json::to_value(self).unwrap_or_default();
        if let Some(o) = v.as_object_mut() {
            o.remove("scene");
            o.remove("init");
        }
        // serde_json writes object keys in sorted order (no `preserve_order` feature) and floats
        // in shortest round-trip form, so the text is canonical.
        let text = serde_json::to_string(&v).unwrap_or_default();
        hex(&Sha256::digest(text.as_bytes()))
    }
}

/// SHA-256 of `bytes`, in lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::shard::Shard;

    fn spec() -> PlanSpec {
        PlanSpec {
            tool_version: "0".into(),
            scene: None,
            scene_sha256: None,
            backend: "cpu".into(),
            axes: vec![
                Axis::numeric("rotational_diffusion", vec![0.0, 1.0, 2.0]),
                Axis::numeric("alignment_weight", vec![0.5, 1.5]),
            ],
            boids: Some(100),
            steps: 50,
            discard: 10,
            repeats: 2,
            seed: 7,
            sets: Vec::new(),
            keep_world: false,
            start: Start::Random,
            protocol: Protocol::Independent,
            init: None,
            init_sha256: None,
            analyses: None,
        }
    }

    /// A hysteresis plan's chains: every run once, each after the run it starts from, the values
    /// up then down; shards split them by repeat and together hold every run.
    #[test]
    fn hysteresis_chains_step_up_then_down() {
        let mut s = spec();
        s.protocol = Protocol::Hysteresis;
        s.axes = vec![
            Axis::numeric("vicsek_eta", vec![1.0, 2.0, 3.0]),
            branch_axis(),
        ];
        s.check().unwrap();
        let order = s.order(None);
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(sorted, (0..s.total()).collect::<Vec<_>>());
        let reps = s.repeats as usize;
        for (i, &k) in order.iter().enumerate() {
            assert_eq!(
                s.previous(k),
                i.checked_sub(reps).map(|j| order[j]),
                "run {k}"
            );
            assert_eq!(s.run(k).repeat as usize, i % reps);
        }
        let values: Vec<(f64, f64)> = order
            .iter()
            .step_by(reps)
            .map(|&k| (s.run(k).values[0], s.run(k).values[1]))
            .collect();
        assert_eq!(
            values,
            [(1., 0.), (2., 0.), (3., 0.), (3., 1.), (2., 1.), (1., 1.)]
        );
        let one = s.order(Some(Shard::parse("1/2").unwrap()));
        let two = s.order(Some(Shard::parse("2/2").unwrap()));
        assert!(one.iter().all(|&k| s.run(k).repeat == 0));
        assert!(two.iter().all(|&k| s.run(k).repeat == 1));
        assert_eq!(one.len() + two.len(), s.total());
        // Independent plans run in plan order.
        assert_eq!(spec().order(None), (0..spec().total()).collect::<Vec<_>>());
        assert_eq!(spec().previous(3), None);
    }

    #[test]
    fn runs_enumerate_every_point_and_repeat() {
        let s = spec();
        s.check().unwrap();
        assert_eq!(s.total(), 12);
        let p = s.run(7); // point 3 = (rotational_diffusion 1, weight 1.5), repeat 1
        assert_eq!(
            (p.values.clone(), p.point, p.repeat),
            (vec![1.0, 1.5], 3, 1)
        );
        // The runs of one point are its repeats, and share its values.
        let same: Vec<usize> = (0..s.total()).filter(|&k| s.run(k).point == 3).collect();
        assert_eq!(same, vec![6, 7]);
        let mut seeds: Vec<u32> = (0..s.total()).map(|k| s.run(k).seed).collect();
        seeds.sort_unstable();
        seeds.dedup();
        assert_eq!(seeds.len(), 12, "every run has its own seed");
    }

    #[test]
    fn fingerprint_changes_with_the_plan_not_the_scene_path() {
        let a = spec();
        let mut b = spec();
        b.scene = Some("elsewhere/scene.toml".into());
        assert_eq!(a.fingerprint(), b.fingerprint());
        b.steps = 51;
        assert_ne!(a.fingerprint(), b.fingerprint());
        let mut c = spec();
        c.axes[0].values[2] = 2.000_000_000_1;
        assert_ne!(a.fingerprint(), c.fingerprint());
    }

    #[test]
    fn bad_plans() {
        let mut s = spec();
        s.discard = 48;
        assert!(s.check().unwrap_err().to_string().contains("--discard 48"));
        let mut s = spec();
        s.axes[1].name = "rotational_diffusion".into();
        assert!(s.check().is_err());
        let mut s = spec();
        s.repeats = 5000;
        let e = s.check().unwrap_err();
        assert!(matches!(e, SweepError::Plan(_)), "{e:?}");
        assert!(e.to_string().contains("more than the limit 10000"), "{e}");
    }
}
