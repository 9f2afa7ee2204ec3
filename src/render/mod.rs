//! The render layer, below both the app and the benchmarks: the [`Renderer`] (one instanced draw of
//! anti-aliased spearheads read straight from the boid state buffer, obstacle discs, the world
//! rectangle), its trail [`layers`], the [`Offscreen`] target of snapshots
//! and render benchmarks, the [`Camera`] (pan and zoom), the spearhead [`mesh`], the [`style`]
//! (theme, sizes, trails) and the [`colour`] modes; the [`Sim`] a picture is drawn from (a backend
//! whose state is always a GPU buffer, switchable live, with the actors and pointer interaction)
//! and the [`picture`] renderer that `boids snapshot` and the Python module share.

pub mod camera;
pub mod colour;
pub mod layers;
pub mod mesh;
pub mod mirror;
pub mod offscreen;
pub mod picture;
pub mod picture_memory;
pub mod renderer;
pub mod sim;
pub mod splat;
pub mod style;
pub mod view;

pub use camera::Camera;
pub use colour::{ColourMode, COLOUR_MODES};
pub use mirror::{PredatorMirror, StateMirror};
pub use offscreen::{read_texture, Offscreen, TextureCopy};
pub use picture::{render_sim, PictureSizeError, PictureStyle};
pub use renderer::{supported_samples, Renderer, StateBuffers};
pub use sim::Sim;
pub use style::{boid_length_for, Edge, Rasteriser, RenderStyle, Theme};
pub use view::ViewUniforms;
