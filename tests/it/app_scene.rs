//! The app's scene file (the panel's path, Save and Load) at the level of the app state, no window:
//! a world with obstacles drawn and predators placed by the tools, run a few steps, saved and
//! loaded back has the same parameters, count, seed, obstacles and predators (where they were when
//! saved); a path that cannot be read or written changes nothing and says why. Needs a GPU context
//! (the app's `Sim` holds one, lavapipe is fine): skips visibly without an adapter, fails under
//! BOIDS_REQUIRE_GPU=1.

use crate::support;
use boids::app::action::Action;
use boids::app::clock::Pace;
use boids::app::input::{Button, InputEvent};
use boids::app::start::Spawn;
use boids::app::state::AppState;
use boids::app::tools::Tool;
use boids::backend::BackendKind;
use boids::formats::scene::Scene;
use boids::gpu::GpuContext;
use boids::model::{Boundary, PredatorKind, PredatorSpec};
use boids::render::Camera;
use boids::render::Sim;
use glam::Vec2;

fn app(ctx: &GpuContext, kind: BackendKind) -> AppState {
    let setup = boids::run::spec::scene_setup(None, Some(300), Some(4), 300, 1.5).unwrap();
    let p = &setup.params;
    let camera = Camera::fit(
        Vec2::new(p.world_width, p.world_height),
        Vec2::new(900.0, 600.0),
    );
    let sim = Sim::new(ctx, kind, &setup).unwrap();
    AppState::new(sim, camera, setup, 10_000, Spawn::Uniform, Pace::PerFrame)
}

/// Presses the left button at `a`, drags to `b` and releases (physical px).
fn drag(st: &mut AppState, a: Vec2, b: Vec2) {
    st.input(InputEvent::PointerMoved(a));
    st.input(InputEvent::Button {
        button: Button::Left,
        pressed: true,
    });
    st.input(InputEvent::PointerMoved((a + b) * 0.5));
    st.input(InputEvent::PointerMoved(b));
    st.input(InputEvent::Button {
        button: Button::Left,
        pressed: false,
    });
}

fn specs(st: &mut AppState) -> Vec<PredatorSpec> {
    st.run
        .sim
        .live_actors()
        .unwrap()
        .predators
        .iter()
        .map(PredatorSpec::of)
        .collect()
}

#[test]
fn a_scene_with_predators_and_obstacles_saved_from_the_app_loads_back_the_same() {
    let Some(ctx) = support::gpu() else { return };
    let dir = tempfile::tempdir().unwrap();
    for kind in [BackendKind::Cpu, BackendKind::Gpu] {
        let mut st = app(&ctx, kind);
        // Parameters changed from the defaults, as the panel would.
        let mut q = st.run.sim.params().clone();
        q.boundary = Boundary::Walls;
        q.predator_weight = 2222.5;
        q.catch_radius = 3.0;
        q.models.boids.max_speed = 123.0;
        st.apply(Action::SetParams(Box::new(q.clone())));
        // An obstacle stroke with the draw tool, a hunting predator clicked in place and a
        // straight one dragged (its velocity is the drag per second).
        st.apply(Action::SetTool(Tool::parse("obstacle").unwrap()));
        drag(&mut st, Vec2::new(200.0, 200.0), Vec2::new(400.0, 260.0));
        let obstacles = st.run.sim.actors().obstacles.clone();
        assert!(obstacles.len() >= 3, "a stroke of obstacle points");
        st.apply(Action::SetTool(Tool::parse("predator").unwrap()));
        st.apply(Action::SetPredatorKind(PredatorKind::Hunting));
        drag(&mut st, Vec2::new(500.0, 300.0), Vec2::new(501.0, 300.0));
        st.apply(Action::SetPredatorKind(PredatorKind::Straight));
        drag(&mut st, Vec2::new(300.0, 400.0), Vec2::new(380.0, 340.0));
        let placed = specs(&mut st);
        assert_eq!(placed.len(), 2);
        assert_eq!(placed[0].kind, PredatorKind::Hunting);
        assert_eq!(placed[0].velocity, [0.0, 0.0], "a click gives no velocity");
        assert_eq!(placed[1].kind, PredatorKind::Straight);
        // Its velocity is the drag in wu (per second); where it went down is its position.
        let (a, b) = (
            st.view.camera.screen_to_world(Vec2::new(300.0, 400.0)),
            st.view.camera.screen_to_world(Vec2::new(380.0, 340.0)),
        );
        let v = Vec2::from(placed[1].velocity);
        assert!((v - (b - a)).length() < 1e-3, "{v} vs {}", b - a);
        assert!(Vec2::from(placed[1].position).distance(a) < 1e-3);
        // They move before the save: the file keeps where they are then.
        for _ in 0..5 {
            st.run.sim.step().unwrap();
        }
        let saved_predators = specs(&mut st);
        assert_ne!(saved_predators[1].position, placed[1].position);
        let (n, seed) = (st.run.sim.len(), st.run.sim.seed());

        let path = dir.path().join(format!("saved_{kind:?}.toml"));
        st.apply(Action::SetScenePath(path.display().to_string()));
        st.apply(Action::SaveScene);
        let status = st.scenes.status.clone().unwrap();
        assert!(status.starts_with("saved"), "{status}");
        let file = Scene::load(&path).unwrap();
        assert_eq!(file.params, q);
        assert_eq!(file.predators, saved_predators);
        assert_eq!(file.obstacles, obstacles);

        // Change everything, then load the file back.
        st.apply(Action::ClearPredators);
        st.apply(Action::ClearObstacles);
        st.apply(Action::SetParams(Box::new(boids::model::SimParams {
            predator_weight: 1.0,
            ..q.clone()
        })));
        assert_eq!(st.run.sim.predator_count(), 0);
        st.apply(Action::LoadScene);
        let status = st.scenes.status.clone().unwrap();
        assert!(status.starts_with("loaded"), "{status}");
        assert_eq!(st.run.sim.params(), &q, "{kind:?}: parameters");
        assert_eq!((st.run.sim.len(), st.run.sim.seed()), (n, seed), "{kind:?}");
        assert_eq!(
            st.run.sim.actors().obstacles,
            obstacles,
            "{kind:?}: obstacles"
        );
        assert_eq!(specs(&mut st), saved_predators, "{kind:?}: predators");
        assert_eq!(st.run.sim.kind(), kind, "the running backend is kept");
        // The loaded world runs.
        st.run.sim.step().unwrap();
        assert_eq!(st.run.sim.len(), n);
    }
}

#[test]
fn a_scene_path_that_cannot_be_used_changes_nothing_and_says_why() {
    let Some(ctx) = support::gpu() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut st = app(&ctx, BackendKind::Cpu);
    st.place_predator(Vec2::new(50.0, 50.0), Vec2::new(10.0, 0.0));
    let params = st.run.sim.params().clone();
    let before = specs(&mut st);

    // Missing file.
    let missing = dir.path().join("missing.toml");
    st.apply(Action::SetScenePath(missing.display().to_string()));
    st.apply(Action::LoadScene);
    let status = st.scenes.status.clone().unwrap();
    assert!(
        status.starts_with("not loaded") && status.contains("missing.toml"),
        "{status}"
    );
    // A predator of an unknown kind: file and line.
    let bad = dir.path().join("bad.toml");
    std::fs::write(
        &bad,
        "boids = 10\n\n[[predators]]\nposition = [1.0, 2.0]\nkind = \"shark\"\n",
    )
    .unwrap();
    st.apply(Action::SetScenePath(bad.display().to_string()));
    st.apply(Action::LoadScene);
    let status = st.scenes.status.clone().unwrap();
    assert!(
        status.contains("bad.toml") && status.contains("line 5"),
        "{status}"
    );
    // Too many predators: the limit is named.
    let many = dir.path().join("many.toml");
    let text: String = (0..=boids::model::MAX_PREDATORS)
        .map(|_| "[[predators]]\nposition = [1.0, 2.0]\n")
        .collect();
    std::fs::write(&many, text).unwrap();
    st.apply(Action::SetScenePath(many.display().to_string()));
    st.apply(Action::LoadScene);
    let status = st.scenes.status.clone().unwrap();
    assert!(status.contains("at most 256"), "{status}");
    // Saving into a folder that does not exist.
    let nowhere = dir.path().join("no/such/folder/scene.toml");
    st.apply(Action::SetScenePath(nowhere.display().to_string()));
    st.apply(Action::SaveScene);
    let status = st.scenes.status.clone().unwrap();
    assert!(status.starts_with("cannot save"), "{status}");
    assert!(!nowhere.exists());
    // An empty path.
    st.apply(Action::SetScenePath("  ".into()));
    st.apply(Action::SaveScene);
    assert!(st.scenes.status.clone().unwrap().contains("type a path"));

    assert_eq!(st.run.sim.params(), &params, "nothing changed");
    assert_eq!(specs(&mut st), before, "nothing changed");
    assert_eq!(st.run.sim.len(), 300);
}
