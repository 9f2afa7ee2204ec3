//! The interactive app and its offscreen twin `boids snapshot`; both run and draw the simulation
//! with [`crate::render`] (its [`Sim`](crate::render::Sim) and [`Renderer`](crate::render::Renderer)).
//!
//! - [`args`]: what the app is started with (`boids run`'s options, the backends it offers).
//! - [`start`]: what the app starts from (a few flocks, a world of a sensible size).
//! - [`clock`]: how many fixed steps each frame takes (real time, or one per frame).
//! - [`state`]: the app's state and what it does with input, split by concern, each owning its
//!   fields and its [`action::Action`]s: [`run_state`] (the simulation and how it steps),
//!   [`view_state`] (camera and style), [`tool_state`], [`ui_flags`], [`scene_state`],
//!   [`captures`]; [`apply`]: the reducer that routes each action to its owner; [`scene_files`]:
//!   saving and loading scenes; [`input`]: the input events window and script both produce;
//!   [`tools`]: the pointer tools' table ([`tool_host`]: what a tool may do to the state);
//!   [`keys`]: the one key table; [`ui`]: the egui layer; [`script`]: scripted input for tests.
//! - [`presets`]: the scenes of `scenes/` built in, for the panel's gallery; [`model_switch`]:
//!   switching the model live, the boids' speeds with it; [`history`]: the samples of the panel's
//!   plot.
//! - [`window`]: the winit event loop; `gfx`: the window's graphics (surface, renderers, egui);
//!   [`frame`]: one frame as named steps (UI → tools → steps → render → present), its UI
//!   ([`frame_ui`]) and what it writes besides the window ([`frame_captures`]); [`frame_state`]:
//!   what the frame loop keeps between frames; [`frame_times`]: where a frame's time went.
//! - [`record`]: F9 records a live capture (the files of `boids bench`).
//! - [`recording`]: `--record DIR` and V record the picture as PNG frames at a fixed simulated
//!   frame rate ([`frame_schedule`]), and an MP4 ([`video_mp4`]; `h264`: OpenH264 and a
//!   pure-Rust muxer, no ffmpeg).
//! - [`report`]: what a run reports at exit; [`sound`]: the optional ambient loop ([`ambient`]:
//!   its samples).
//! - [`url_params`]: the web app's URL parameters read as the command line; `web` (wasm32): the
//!   app in a browser tab.
//! - [`snapshot`]: `boids snapshot` (its options, its scene and setup, the file it writes).
//! - [`error`]: why the app or `boids snapshot` stops ([`AppError`]), and a script that cannot
//!   be used ([`error::ScriptError`]).
//!
//! No two of these files import each other, directly or round a loop, and none imports this one:
//! what several share has a file of its own ([`args`], [`input`], [`frame_times`], [`error`]).

pub mod action;
pub mod ambient;
pub mod apply;
pub mod args;
pub mod captures;
pub mod clock;
pub mod error;
pub mod flock_read;
pub mod frame;
pub mod frame_captures;
pub mod frame_schedule;
pub mod frame_state;
pub mod frame_times;
pub mod frame_ui;
pub(crate) mod gfx;
#[cfg(feature = "h264")]
pub mod h264;
pub mod history;
pub mod input;
pub mod keys;
pub mod model_switch;
pub mod pending_flock;
pub mod presets;
pub mod record;
pub mod recording;
pub mod report;
pub mod run_state;
pub mod sample;
pub mod scene_files;
pub mod scene_state;
pub mod script;
pub mod script_cmd;
pub mod snapshot;
pub mod sound;
pub mod start;
pub mod state;
pub mod tool_host;
pub mod tool_state;
pub mod tools;
pub mod ui;
pub mod ui_flags;
pub mod ui_layer;
pub mod url_params;
pub mod video_mp4;
pub mod view_state;
#[cfg(target_arch = "wasm32")]
pub(crate) mod web;
pub mod window;

pub use args::{AppBackend, RunArgs};
pub use error::AppError;
#[cfg(target_arch = "wasm32")]
pub use web::offer_scene as web_offer_scene;
#[cfg(target_arch = "wasm32")]
pub use window::start_web;

/// `boids run` / `boids`: runs the app, then prints one human line (frames, average fps). The
/// whole report (JSON) is written only when asked: `--report FILE`, or `--report -` for a
/// `boids-report: {json}` line on stdout. A panic inside the app is turned into an error message.
///
/// # Errors
/// [`AppError`]: no display, no adapter, a bad scene or script, a GPU error, a caught panic.
#[cfg(not(target_arch = "wasm32"))]
pub fn run(args: RunArgs) -> Result<(), AppError> {
    let report_stdout = args.report_to_stdout();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| window::run(args)));
    let report = match outcome {
        Ok(r) => r?,
        Err(p) => {
            let message = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown".into());
            return Err(AppError::Panic { message });
        }
    };
    println!("{}", report.summary());
    if report_stdout {
        println!(
            "boids-report: {}",
            serde_json::to_string(&report).map_err(AppError::ReportJson)?
        );
    }
    Ok(())
}
