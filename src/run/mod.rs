//! The run layer: one way to set up and run a simulation, for every command (`headless`,
//! `sweep`, `bench`, `snapshot` and the app's start-up).
//!
//! - [`spec`]: what a run starts from, resolved once — built-in defaults < scene < checkpoint <
//!   command line ([`spec::PRECEDENCE`]) — into a [`spec::RunSpec`].
//! - [`args`]: the command-line parts every command shares (`--scene`, `--seed`, `--set
//!   KEY=VALUE`) and their parsers.
//! - [`steps`]: the one step loop (warm-up, measured steps, the measures' cadence, a progress bar,
//!   Ctrl-C and SIGTERM), each command's records an [`steps::Observer`].
//! - [`driver`]: the one sweep driver of `boids bench` and `boids sweep` (runs in plan order on
//!   one device, side by side when small, Ctrl-C between runs, one event type).
//! - [`checkpoint`]: a run's final state saved as a checkpoint (`--save`, a hysteresis chain).
//! - [`error`]: why a run fails, [`RunError`].

pub mod analyses;
pub mod args;
pub mod checkpoint;
pub mod driver;
pub mod ensemble;
pub mod error;
pub mod provenance;
pub mod spec;
pub mod steps;

pub use args::{parse_count, SetupArgs};
pub use error::RunError;
pub use spec::{resolve, Defaults, Inputs, Overrides, RunSpec, Spawn};
