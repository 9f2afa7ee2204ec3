//! The composition of a stage's WGSL source ([`Wgsl`]): the files of `shaders/` it is made of, and
//! for a stage holding the model's rule, what its pipelines are compiled for — the model's rule
//! file, the neighbour search ([`Search`]), the optional parts of the rule ([`RuleParts`]) and the
//! device's gather ([`SHARED_GATHER`]) — each compiled out where not used; and for every stage,
//! whether it serves an ensemble of replicas or a lone run (`ENSEMBLE`, `shaders/replicas.wgsl`).

use crate::model::Model;

/// A composed WGSL source: the files it is made of (in `shaders/`, in order) with their text. A
/// stage whose source holds the model's rule lists [`MODEL_RULE`] where the model's WGSL file
/// ([`crate::model::models::ModelDesc::wgsl`]) goes: its pipelines are compiled for one model at
/// a time, carrying no other model's code.
#[derive(Clone, Copy, Debug)]
pub struct Wgsl {
    /// `(file name, text)`, shared snippets first and the stage's own file last.
    pub files: &'static [(&'static str, &'static str)],
}

/// The neighbour search a source holding the model's rule is compiled with (its discriminant is
/// its place in [`Search::ALL`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Search {
    /// The metric neighbourhood: every boid within the rule radii.
    Metric,
    /// The topological neighbourhood with k ≤ 8: the k nearest held in vectors, no indexed
    /// array (`gather_topological_small` in `shaders/topological.wgsl`).
    TopologicalSmall,
    /// The topological neighbourhood with any k: the k nearest in a heap.
    Topological,
    /// The Voronoi neighbourhood: the boid's Voronoi cell cut out in a block of cells grown side
    /// by side (`gather_voronoi` in `shaders/voronoi.wgsl`).
    Voronoi,
}

impl Search {
    /// Every search, in the order of their slots.
    pub const ALL: [Search; 4] = [
        Search::Metric,
        Search::TopologicalSmall,
        Search::Topological,
        Search::Voronoi,
    ];

    /// The search of a run with `params`.
    pub fn of(params: &crate::model::SimParams) -> Search {
        use crate::model::Neighborhood;
        match params.neighborhood {
            Neighborhood::Metric => Search::Metric,
            Neighborhood::Topological if params.topological_k <= 8 => Search::TopologicalSmall,
            Neighborhood::Topological => Search::Topological,
            Neighborhood::Voronoi => Search::Voronoi,
        }
    }

    /// Its name in pipeline labels.
    pub fn name(self) -> &'static str {
        match self {
            Search::Metric => "metric",
            Search::TopologicalSmall => "topological k <= 8",
            Search::Topological => "topological",
            Search::Voronoi => "voronoi",
        }
    }
}

/// The optional parts of the rule that a source holding it is compiled with: each one is
/// compiled out of a run that does not use it. Its code, even never run, cost the `rules` pass on
/// lavapipe (docs/performance.md §4: the neighbour cap's selection and the obstacle block, each
/// a private array every invocation sets up, 33 → 23 ms a step at 100 000 boids).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleParts {
    /// The field of view's test (`view_angle` < 360°; without it the candidates take no test of
    /// direction).
    pub view: bool,
    /// The neighbour cap's selection of the nearest (`max_neighbors` > 0).
    pub capped: bool,
    /// The obstacle sums (the run has obstacle points).
    pub obstacles: bool,
    /// The shared gather (`shaders/gather_shared.wgsl`: each candidate loaded once per subgroup
    /// and shuffled to the invocations that need it), else the per-invocation one: not the run's
    /// choice but the device's ([`crate::gpu::Gather`]), which the pipeline cache sets.
    pub shared: bool,
}

impl RuleParts {
    /// Every combination, in the order of [`RuleParts::code`].
    pub const ALL: [RuleParts; 16] = {
        let mut all = [RuleParts {
            view: false,
            capped: false,
            obstacles: false,
            shared: false,
        }; 16];
        let mut k = 0;
        while k < 16 {
            all[k] = RuleParts {
                view: k & 1 != 0,
                capped: k & 2 != 0,
                obstacles: k & 4 != 0,
                shared: k & 8 != 0,
            };
            k += 1;
        }
        all
    };

    /// Its place in [`RuleParts::ALL`].
    pub fn code(self) -> usize {
        self.view as usize
            | (self.capped as usize) << 1
            | (self.obstacles as usize) << 2
            | (self.shared as usize) << 3
    }

    /// The parts a run with `params` uses, with or without obstacle points.
    pub fn of(params: &crate::model::SimParams, obstacles: bool) -> RuleParts {
        RuleParts {
            view: params.view_angle < 360.0,
            capped: params.max_neighbors > 0,
            obstacles,
            shared: false,
        }
    }

    /// The parts in words (empty for none), for pipeline labels and messages: e.g. ", field of
    /// view, obstacles".
    pub fn describe(self) -> String {
        let mut out = String::new();
        for (on, what) in [
            (self.view, "field of view"),
            (self.capped, "neighbour cap"),
            (self.obstacles, "obstacles"),
            (self.shared, "shared gather"),
        ] {
            if on {
                out.push_str(", ");
                out.push_str(what);
            }
        }
        out
    }
}

/// The place of the gather's shared side in a [`Wgsl`]'s files: `shaders/gather_shared.wgsl`
/// in a source compiled with [`RuleParts::shared`], else `shaders/gather_per_invocation.wgsl`.
pub const SHARED_GATHER: &str = "<shared gather>";

/// The two files that can stand at [`SHARED_GATHER`]: (per invocation, shared).
const SHARED_GATHER_FILES: [(&str, &str); 2] = [
    (
        "gather_per_invocation.wgsl",
        include_str!("../../shaders/gather_per_invocation.wgsl"),
    ),
    (
        "gather_shared.wgsl",
        include_str!("../../shaders/gather_shared.wgsl"),
    ),
];

/// The place of the model's rule file in a [`Wgsl`]'s files.
pub const MODEL_RULE: &str = "<model rule>";

/// A maker of generated WGSL ([`GENERATED`]).
pub type MakeWgsl = fn() -> String;

/// WGSL made from the Rust tables rather than written, composed like a file of `shaders/`:
/// `(file name, maker)`. A [`Wgsl`] lists such a file by its name (`generated "…"` in [`wgsl!`](crate::wgsl)).
pub static GENERATED: &[(&str, MakeWgsl)] =
    &[("measure_columns.wgsl", crate::model::measures::wgsl_columns)];

/// The text of the generated file `name` ([`GENERATED`]), if it is one.
pub fn generated(name: &str) -> Option<String> {
    GENERATED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, make)| make())
}

impl Wgsl {
    /// Whether the source holds the model's rule ([`MODEL_RULE`]).
    pub fn per_model(&self) -> bool {
        self.files.iter().any(|(name, _)| *name == MODEL_RULE)
    }

    /// The file names for `model` ([`MODEL_RULE`] replaced by its file).
    pub fn file_names(&self, model: Model) -> Vec<&'static str> {
        self.files
            .iter()
            .map(|(name, _)| match *name {
                MODEL_RULE => model.desc().wgsl.0,
                SHARED_GATHER => SHARED_GATHER_FILES[0].0,
                n => n,
            })
            .collect()
    }

    /// The source for `model` in the metric neighbourhood ([`Wgsl::source_for`]).
    pub fn source(&self, model: Model) -> String {
        self.source_for(model, Search::Metric)
    }

    /// The source for `model` and a neighbour search: the files' texts in order, [`MODEL_RULE`]
    /// replaced by the model's rule file and a [`GENERATED`] file by its text, and, in a source holding the rule, first the lines
    /// `const TOPOLOGICAL: bool = …;`, `const TOPO_SMALL: bool = …;` and `const VORONOI: bool =
    /// …;` ([`Search`]), so that the
    /// driver compiles the other searches out of the pipeline (the topological search behind a
    /// uniform branch had cost the metric `rules` pass 1.6× on lavapipe). The model and the
    /// search are not used when the source has no rule.
    pub fn source_for(&self, model: Model, search: Search) -> String {
        self.source_variant(model, search, RuleParts::default(), true)
    }

    /// Whether the source includes `shaders/replicas.wgsl` (its stage finds each invocation's
    /// replica, and so compiles apart for a lone run: [`Wgsl::source_variant`]'s `ensemble`).
    pub fn uses_replicas(&self) -> bool {
        self.files.iter().any(|(name, _)| *name == "replicas.wgsl")
    }

    /// [`Wgsl::source_for`] with the optional parts `parts` compiled in: the lines `const VIEW:
    /// bool = …;`, `const CAPPED: bool = …;`, `const OBSTACLES: bool = …;` and `const SHARED: bool
    /// = …;` ([`RuleParts`]), and the gather's shared side ([`SHARED_GATHER`]) for `shared`.
    /// Every source, with or without the rule, starts with `const ENSEMBLE: bool = …;`: `false`
    /// compiles a lone run's pipelines, in which every invocation's replica is replica 0, a
    /// constant (`replica_holding` in `shaders/replicas.wgsl`; a software adapter loads a
    /// parameter block whose index it cannot prove the same in every invocation one lane at a
    /// time, field by field: docs/performance.md §4).
    pub fn source_variant(
        &self,
        model: Model,
        search: Search,
        parts: RuleParts,
        ensemble: bool,
    ) -> String {
        let mut out = format!("const ENSEMBLE: bool = {ensemble};\n");
        if self.per_model() {
            let topological = matches!(search, Search::Topological | Search::TopologicalSmall);
            let small = search == Search::TopologicalSmall;
            let voronoi = search == Search::Voronoi;
            let RuleParts {
                view,
                capped,
                obstacles,
                shared,
            } = parts;
            out.push_str(&format!(
                "const TOPOLOGICAL: bool = {topological};\nconst TOPO_SMALL: bool = {small};\n\
                 const VORONOI: bool = {voronoi};\n\
                 const VIEW: bool = {view};\nconst CAPPED: bool = {capped};\n\
                 const OBSTACLES: bool = {obstacles};\nconst SHARED: bool = {shared};\n"
            ));
            out.push_str(&model.desc().pair_terms.wgsl_constants());
        }
        for (name, text) in self.files {
            match generated(name) {
                Some(made) => out.push_str(&made),
                None if *name == MODEL_RULE => out.push_str(model.desc().wgsl.1),
                None if *name == SHARED_GATHER => {
                    out.push_str(SHARED_GATHER_FILES[parts.shared as usize].1)
                }
                None => out.push_str(text),
            }
            out.push('\n');
        }
        out
    }

    /// The source of a [`Wgsl`] that holds no model rule.
    ///
    /// # Panics
    /// When it holds one (a programming error: use [`Wgsl::source`]).
    pub fn text(&self) -> String {
        assert!(!self.per_model(), "a per-model source needs its model");
        self.source(Model::default())
    }
}

/// Composes WGSL files from `shaders/` at compile time into a [`Wgsl`]; the word `model` stands
/// for the model's rule file ([`MODEL_RULE`]), `shared_gather` for the gather's shared side
/// ([`SHARED_GATHER`]), `generated "NAME"` for a file made from the Rust tables ([`GENERATED`]).
#[macro_export]
macro_rules! wgsl {
    ($($part:tt),* $(,)?) => {
        $crate::stages::Wgsl {
            files: &[$($crate::wgsl_file!($part)),*],
        }
    };
}

/// One file of [`wgsl!`].
#[doc(hidden)]
#[macro_export]
macro_rules! wgsl_file {
    (model) => {
        ($crate::stages::MODEL_RULE, "")
    };
    (shared_gather) => {
        ($crate::stages::SHARED_GATHER, "")
    };
    ((generated $file:literal)) => {
        ($file, "")
    };
    ($file:literal) => {
        (
            $file,
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/shaders/", $file)),
        )
    };
}
