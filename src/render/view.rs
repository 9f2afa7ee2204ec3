//! The render shaders' uniform block ([`ViewUniforms`]): the camera, the style and the spearhead's
//! outline, as `struct View` of `shaders/render_view.wgsl` reads them.

use encase::ShaderType;
use glam::{Vec2, Vec4};

use crate::render::camera::Camera;
use crate::render::mesh;
use crate::render::style::RenderStyle;

/// The uniform block of the render shaders; mirrors `struct View` in `shaders/render_view.wgsl` (layout
/// computed by encase, checked against naga in `tests/it/shaders.rs`).
#[derive(Clone, Copy, Debug, PartialEq, ShaderType, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ViewUniforms {
    /// World background, in the target's encoding.
    pub world_color: Vec4,
    /// Obstacle colour, in the target's encoding.
    pub obstacle_color: Vec4,
    /// Edge line colour, in the target's encoding, premultiplied by its opacity.
    pub edge_color: Vec4,
    /// World point at the viewport centre (wu).
    pub center: Vec2,
    /// Clip units per wu.
    pub scale: Vec2,
    /// Clip units per px.
    pub px_to_clip: Vec2,
    /// World size (wu).
    pub world: Vec2,
    /// Boid length (wu).
    pub boid_length: f32,
    /// Smallest boid length (px).
    pub min_length_px: f32,
    /// Largest boid length (px).
    pub max_length_px: f32,
    /// Smallest side of a density dot (px).
    pub dot_min_px: f32,
    /// Spearhead area (boid lengths²).
    pub boid_area: f32,
    /// px per wu.
    pub zoom: f32,
    /// Boid opacity.
    pub alpha: f32,
    /// OKLab lightness of the tip colour.
    pub tip_lightness: f32,
    /// OKLab lightness of the tail colour.
    pub tail_lightness: f32,
    /// OKLCh chroma.
    pub chroma: f32,
    /// Tail hue offset (rad).
    pub tail_hue_shift: f32,
    /// Obstacle radius (wu).
    pub obstacle_radius: f32,
    /// Smallest obstacle radius (px).
    pub obstacle_min_px: f32,
    /// Edge line width (px).
    pub edge_px: f32,
    /// 1 for a dashed edge (the wrap seam), 0 for a solid one.
    pub edge_dash: u32,
    /// What the colour shows: [`crate::render::ColourMode::shader_code`].
    pub colour_mode: u32,
    /// 1 for an sRGB target.
    pub srgb_target: u32,
    /// Predator disc radius (wu).
    pub predator_radius: f32,
    /// Smallest predator radius (px).
    pub predator_min_px: f32,
    /// Speed at the slow end of the speed colour map (wu/s).
    pub speed_lo: f32,
    /// Speed at the fast end of the speed colour map (wu/s).
    pub speed_hi: f32,
    /// Neighbour count at the top of the neighbour colour map.
    pub neighbours_full: f32,
    /// Density-dot opacity gain: a dot's opacity over a pixel is 1 − exp(−gain × its coverage
    /// there).
    pub dot_gain: f32,
    /// Length of a density dot's motion streak (px; 0 = square dots).
    pub streak_px: f32,
    /// Boids drawn (the compute rasteriser's invocations; set by [`crate::render::Renderer::record`]).
    pub boid_count: u32,
    /// The spearhead outline's edge lines `(n.x, n.y, c, 0)` ([`mesh::edge_lines`]; boid lengths).
    pub spear_edges: [Vec4; 4],
    /// The bevels of its convex corners, likewise ([`mesh::bevel_lines`]).
    pub spear_bevels: [Vec4; 3],
    /// The drawn triangle's corners (boid lengths) and outsets (px per px of growth):
    /// [`mesh::vertices`].
    pub spear_drawn: [Vec4; 3],
}

/// Opacity of a solid edge and of a seam.
const EDGE_ALPHA: [f32; 2] = [0.85, 0.4];

/// sRGB-encoded component to linear.
pub fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// `rgb` (sRGB-encoded) in the target's encoding: linear for an sRGB target, as it is otherwise.
pub(crate) fn encode(rgb: [f32; 3], srgb_target: bool) -> Vec4 {
    let f = |c: f32| if srgb_target { srgb_to_linear(c) } else { c };
    Vec4::new(f(rgb[0]), f(rgb[1]), f(rgb[2]), 1.0)
}

impl ViewUniforms {
    /// The block for `camera` and `style` on a target of format `format`.
    pub fn new(camera: &Camera, style: &RenderStyle, format: wgpu::TextureFormat) -> Self {
        let srgb = format.is_srgb();
        let (tip, tail, chroma) = style.theme.palette();
        let vp = camera.viewport.max(Vec2::ONE);
        let dash = style.edge == crate::render::Edge::Seam;
        let edge_alpha = EDGE_ALPHA[dash as usize];
        let edge = encode(style.theme.edge_color(), srgb);
        ViewUniforms {
            world_color: encode(style.theme.world_color(), srgb),
            obstacle_color: encode(style.theme.obstacle_color(), srgb),
            edge_color: (edge * edge_alpha).truncate().extend(edge_alpha),
            center: camera.center,
            scale: Vec2::new(2.0 * camera.zoom / vp.x, -2.0 * camera.zoom / vp.y),
            px_to_clip: Vec2::new(2.0 / vp.x, -2.0 / vp.y),
            world: camera.world,
            boid_length: style.boid_length,
            min_length_px: style.min_length_px,
            max_length_px: style.max_length_px.max(style.min_length_px),
            dot_min_px: style.dot_min_px,
            boid_area: mesh::area(),
            zoom: camera.zoom,
            alpha: style.alpha.clamp(0.0, 1.0),
            tip_lightness: tip,
            tail_lightness: tail,
            chroma,
            tail_hue_shift: style.tail_hue_shift_deg.to_radians(),
            obstacle_radius: style.obstacle_radius,
            obstacle_min_px: style.obstacle_min_px,
            edge_px: style.edge_px,
            edge_dash: dash as u32,
            colour_mode: style.colour.shader_code(),
            srgb_target: srgb as u32,
            predator_radius: style.predator_scale * style.boid_length,
            predator_min_px: style.predator_min_px,
            speed_lo: style.speed_range.0,
            speed_hi: style.speed_range.1,
            neighbours_full: style.neighbours_full,
            dot_gain: style.dot_gain,
            streak_px: if style.streaks {
                style.streak_px.max(0.0)
            } else {
                0.0
            },
            boid_count: 0,
            spear_edges: mesh::edge_lines().map(|[x, y, c]| Vec4::new(x, y, c, 0.0)),
            spear_bevels: mesh::bevel_lines().map(|[x, y, c]| Vec4::new(x, y, c, 0.0)),
            spear_drawn: mesh::vertices().map(Vec4::from_array),
        }
    }

    /// The block's bytes, laid out by encase.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut buf = encase::UniformBuffer::new(Vec::new());
        buf.write(self).expect("a growable buffer");
        buf.into_inner()
    }
}
