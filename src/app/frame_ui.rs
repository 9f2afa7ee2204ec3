//! The frame's UI: one egui pass (the HUD, panel, tool bar, help, messages; its actions applied
//! to the app's state) when it can have changed, and its drawing into the UI layer that every
//! frame composites ([`crate::app::ui_layer`]).

use web_time::Instant;

use crate::app::gfx::Gfx;
use crate::app::ui::{self, Hud};

/// What one pass of the UI left to draw: egui's meshes, its texture changes, its scale, and when
/// it wants to be drawn again.
pub(crate) struct UiFrame {
    jobs: Vec<egui::ClippedPrimitive>,
    /// The textures to free once the frame is submitted (new ones are uploaded by the pass).
    pub(crate) free: Vec<egui::TextureId>,
    pixels_per_point: f32,
    repaint: std::time::Duration,
}

/// One pass of the UI (the HUD, panel, tool bar, help, messages): its actions applied, its areas
/// kept for reports, its meshes tessellated.
pub(crate) fn ui_pass(g: &mut Gfx) -> UiFrame {
    let raw = g.egui_state.take_egui_input(&g.window);
    let hud = Hud {
        fps: g.frame.fps_smooth,
        adapter: g.frame.adapter.clone(),
        times: g.frame.times,
        steps_last_frame: g.frame.steps_last_frame,
        gpu_passes_ms: g.frame.gpu_passes_ms,
        msaa: g.frame.samples,
        software: g.software,
        sound: g.sound.status(),
    };
    let mut ui_out = ui::UiOut::default();
    // Every pass: the theme can change from the panel, a key or a script, before or during it.
    g.egui_ctx.set_theme(ui::egui_theme(g.st.view.style.theme));
    let out = g.egui_ctx.run_pass(raw, |ctx| {
        ui_out = ui::draw(ctx, &g.st, &hud);
    });
    g.egui_state
        .handle_platform_output(&g.window, out.platform_output);
    let ppp = out.pixels_per_point;
    let px = |r: &egui::Rect| [r.min.x * ppp, r.min.y * ppp, r.max.x * ppp, r.max.y * ppp];
    g.frame.ui_areas = ui_out.areas.iter().map(|(n, r)| (*n, px(r))).collect();
    g.frame.ui_sections = ui_out
        .sections
        .iter()
        .map(|s| (s.title.clone(), px(&s.header), s.open))
        .collect();
    g.frame.ui_params = std::mem::take(&mut ui_out.params);
    g.frame.ui_widgets = ui_out
        .widgets
        .iter()
        .map(|(n, r)| (n.clone(), px(r)))
        .collect();
    let repaint = out
        .viewport_output
        .get(&egui::ViewportId::ROOT)
        .map_or(std::time::Duration::MAX, |v| v.repaint_delay);
    let jobs = g.egui_ctx.tessellate(out.shapes, ppp);
    // Texture changes at once, so that a frame given up later (no surface texture) loses none.
    for (id, deltas) in &out.textures_delta.set {
        for delta in deltas {
            g.egui_renderer
                .update_texture(&g.ctx.device, &g.ctx.queue, *id, delta);
        }
    }
    for a in ui_out.actions {
        g.st.apply(a);
    }
    UiFrame {
        jobs,
        free: out.textures_delta.free.iter().copied().collect(),
        pixels_per_point: ppp,
        repaint,
    }
}

/// Draws `ui` into the UI layer (`size` px) with `enc`, cleared first, and notes its tiles.
pub(crate) fn draw_ui(g: &mut Gfx, enc: &mut wgpu::CommandEncoder, ui: &UiFrame, size: (u32, u32)) {
    let device = g.ctx.device.clone();
    let queue = g.ctx.queue.clone();
    let screen = egui_wgpu::ScreenDescriptor {
        size_in_pixels: [size.0, size.1],
        pixels_per_point: ui.pixels_per_point,
    };
    let user = g
        .egui_renderer
        .update_buffers(&device, &queue, enc, &ui.jobs, &screen);
    queue.submit(user);
    let view = g.ui_layer.view(&device, size).clone();
    {
        let pass = enc.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("egui"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                resolve_target: None,
                depth_slice: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        g.egui_renderer
            .render(&mut pass.forget_lifetime(), &ui.jobs, &screen);
    }
    g.ui_layer.drawn(
        &device,
        &queue,
        &ui.jobs,
        ui.pixels_per_point,
        Instant::now(),
        ui.repaint,
    );
}
