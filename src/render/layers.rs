//! The renderer's trail layer: a texture of the target's size drawn before the main pass and
//! composited in it, which keeps the boids of earlier frames (premultiplied, in the target's
//! encoding), faded each frame by the simulated time since the last ([`TrailClock`]).
//!
//! It is [`LAYER_FORMAT`] (16-bit floats): a fading trail goes on fading down to nothing, where an
//! 8-bit one would stop where 0.5/255 rounds back up and leave ghosts.

use crate::render::camera::Camera;
use crate::render::style::Theme;

/// Format of the layer (blendable and renderable on every wgpu adapter).
pub const LAYER_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

/// A layer texture and the bind group (group 1) that reads it.
pub struct Layer {
    /// The view to draw into.
    pub view: wgpu::TextureView,
    /// Binds the texture as `layer` (group 1, binding 0) of `shaders/render.wgsl`.
    pub bind: wgpu::BindGroup,
}

impl Layer {
    /// A `width` × `height` px layer read through `layout` (see [`layer_layout`]).
    pub fn new(
        device: &wgpu::Device,
        layout: &wgpu::BindGroupLayout,
        label: &str,
        width: u32,
        height: u32,
    ) -> Layer {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width: width.max(1),
                height: height.max(1),
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: LAYER_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(label),
            layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(&view),
            }],
        });
        Layer { view, bind }
    }
}

/// The bind group layout of a layer read by a fragment shader with `textureLoad`.
pub fn layer_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("render layer"),
        entries: &[wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Float { filterable: false },
                view_dimension: wgpu::TextureViewDimension::D2,
                multisampled: false,
            },
            count: None,
        }],
    })
}

/// When the trail layer fades and when it starts afresh.
///
/// The fade follows simulated time, not frames: [`TrailClock::advance`] adds the simulated time of
/// each frame's steps, and the next frame keeps `exp(−t / trail_seconds)` of the trails, so a paused
/// flock keeps its trails and a trail is as long at 5 fps as at 60. The trails start afresh when
/// they are turned on, and when the camera or the theme changes (trails are drawn in screen space:
/// a pan or zoom would smear them).
#[derive(Clone, Debug, Default)]
pub struct TrailClock {
    /// Simulated time since the trails last faded (s).
    pending_s: f32,
    /// The camera and theme the trails were drawn with; `None` when they are off.
    drawn_with: Option<(Camera, Theme)>,
}

impl TrailClock {
    /// Adds `sim_seconds` of simulated time (the steps of a frame).
    pub fn advance(&mut self, sim_seconds: f32) {
        if sim_seconds.is_finite() && sim_seconds > 0.0 {
            self.pending_s += sim_seconds;
        }
    }

    /// The trails are off: the next frame with trails starts them afresh.
    pub fn stop(&mut self) {
        self.drawn_with = None;
        self.pending_s = 0.0;
    }

    /// This frame's fade, drawing with `camera` and `theme`: `None` when the trails start afresh
    /// (the layer is cleared), else the share of the trails kept, `exp(−t / trail_seconds)` for the
    /// simulated time `t` since the last frame. Resets the pending time.
    pub fn fade(&mut self, camera: &Camera, theme: Theme, trail_seconds: f32) -> Option<f32> {
        let t = std::mem::take(&mut self.pending_s);
        let same = self.drawn_with == Some((*camera, theme));
        self.drawn_with = Some((*camera, theme));
        same.then(|| (-t / trail_seconds.max(1e-6)).exp())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    fn cam() -> Camera {
        Camera::fit(Vec2::new(100.0, 50.0), Vec2::new(200.0, 100.0))
    }

    /// Trails start afresh when turned on and when the camera or theme changes; in between they
    /// keep exp(−t / τ) of themselves for the simulated time t since the last frame (all of them
    /// while paused).
    #[test]
    fn trails_fade_by_simulated_time_and_restart_on_a_new_view() {
        let mut c = TrailClock::default();
        let (cam, tau) = (cam(), 0.5);
        assert_eq!(c.fade(&cam, Theme::Dark, tau), None, "first frame clears");
        c.advance(0.25);
        c.advance(0.25);
        let keep = c.fade(&cam, Theme::Dark, tau).unwrap();
        assert!((keep - (-1.0f32).exp()).abs() < 1e-6, "{keep}");
        assert_eq!(
            c.fade(&cam, Theme::Dark, tau),
            Some(1.0),
            "paused: all kept"
        );
        c.advance(f32::NAN);
        c.advance(-1.0);
        assert_eq!(c.fade(&cam, Theme::Dark, tau), Some(1.0));
        let mut moved = cam;
        moved.center.x += 1.0;
        assert_eq!(c.fade(&moved, Theme::Dark, tau), None, "a pan clears");
        assert_eq!(c.fade(&moved, Theme::Light, tau), None, "a theme clears");
        c.stop();
        assert_eq!(c.fade(&moved, Theme::Light, tau), None, "turned on again");
    }
}
