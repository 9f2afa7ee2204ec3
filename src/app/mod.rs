//! The interactive app and its offscreen twin `boids snapshot`; both draw with
//! [`crate::render`].
//!
//! - [`args`]: what the app is started with (`boids run`'s options, the backends it offers).
//! - [`record`]: F9 records a live capture (the files of `boids bench`).
//! - [`sim`]: the running simulation, GPU or CPU, switchable live.
//! - [`start`]: what the app starts from (a few flocks, a world of a sensible size).
//! - [`clock`]: how many fixed steps each frame takes (real time, or one per frame).
//! - [`snapshot`]: `boids snapshot` and the image comparator of the snapshot tests.
//! - [`state`], [`input`], [`tools`], [`keys`], [`ui`], [`script`]: what the app does with input,
//!   the input events, the pointer tools, its one key table, its egui layer and scripted input for
//!   tests; [`window`] and `frame`: the winit/wgpu
//!   frame loop; [`report`]: what a run reports at exit; [`sound`]: the optional ambient loop.

pub mod args;
pub mod clock;
pub mod frame;
pub mod input;
pub mod keys;
pub mod record;
pub mod report;
pub mod script;
pub mod sim;
pub mod snapshot;
pub mod sound;
pub mod start;
pub mod state;
pub mod tools;
pub mod ui;
pub mod window;

pub use args::{AppBackend, RunArgs};

/// `boids run` / `boids`: runs the app, then prints the exit report (a human line and a
/// `boids-report: {json}` line). A panic inside the app is turned into an error message.
///
/// # Errors
/// A message for the user (no display, no adapter, bad scene or script, GPU error).
pub fn run(args: RunArgs) -> Result<(), String> {
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| window::run(args)));
    let report = match outcome {
        Ok(r) => r?,
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown".into());
            return Err(format!("internal error in the app: {msg}"));
        }
    };
    println!("{}", report.summary());
    println!(
        "boids-report: {}",
        serde_json::to_string(&report).map_err(|e| e.to_string())?
    );
    Ok(())
}
