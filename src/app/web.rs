//! The app in a browser tab (wasm32, WebGPU): the same event loop, state, panel and renderers as
//! the native app, with what a tab changes. winit draws into the page's canvas; the adapter and
//! device are asked for without waiting (a tab cannot block), and the app opens on the first
//! event after they arrive. What the page and its test read of the running app is published on
//! the page's `<body>` as `data-*` attributes ([`Page::publish`]): `frames`, `fps`, `boids`,
//! `model`, `preset`, `order` (the order parameter's last sample), `seed`, `params` (the run's
//! parameters as JSON), `sections`, `areas` and `widgets` (where the panel's sections, the UI's
//! areas and the panel's named widgets are, in CSS pixels, as JSON), `pointer` (where the app
//! and egui last saw the pointer, CSS pixels, and egui's pixels per point), and `error` (why the
//! app stopped).
//!
//! A tab cannot wait for the GPU: the live model switch asks for the state and finishes when it
//! is back; the other reads that wait (fewer boids, the other backend, the report) are refused
//! with a message rather than hanging. Scene files are picked or dropped on the page
//! ([`offer_scene`]) and saved as downloads ([`download`]); captures and recordings are the
//! native app's; no sound.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use wasm_bindgen::JsCast;
use web_time::{Duration, Instant};
use winit::event_loop::ActiveEventLoop;
use winit::platform::web::WindowAttributesExtWebSys;
use winit::window::Window;

use crate::app::args::RunArgs;
use crate::app::error::AppError;
use crate::app::gfx::Gfx;
use crate::gpu::GpuContext;

/// A window whose device has arrived.
pub(crate) struct Opened {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    ctx: GpuContext,
}

/// How often the page's `data-*` attributes are written.
const PUBLISH_PERIOD: Duration = Duration::from_millis(250);

/// The page the app runs in: its canvas, the device on its way, and what the page is told.
pub(crate) struct Page {
    /// The page's canvas, until the window takes it.
    canvas: Option<web_sys::HtmlCanvasElement>,
    /// Where the asynchronous device request leaves its result.
    opened: Rc<RefCell<Option<Result<Opened, AppError>>>>,
    /// The window, once asked for (its device may still be on its way).
    window: Option<Arc<Window>>,
    last_publish: Option<Instant>,
}

impl Page {
    /// The page of `canvas`.
    pub(crate) fn new(canvas: web_sys::HtmlCanvasElement) -> Page {
        Page {
            canvas: Some(canvas),
            opened: Rc::default(),
            window: None,
            last_publish: None,
        }
    }

    /// Opens the window in the canvas and asks for an adapter and a device, without waiting:
    /// [`Page::take_opened`] has them once they arrive.
    ///
    /// # Errors
    /// The window or its surface cannot be created.
    pub(crate) fn open(&mut self, el: &ActiveEventLoop, args: &RunArgs) -> Result<(), AppError> {
        if self.window.is_some() {
            return Ok(());
        }
        let attrs = Gfx::attributes(args)
            .with_canvas(self.canvas.take())
            // Keys and the wheel reach the app, not the page's scrolling.
            .with_prevent_default(true)
            .with_focusable(true);
        let (window, instance, surface) = Gfx::window(el, attrs)?;
        window.focus_window();
        self.window = Some(window.clone());
        let slot = self.opened.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let got = async {
                let adapter = instance
                    .request_adapter(&wgpu::RequestAdapterOptions {
                        power_preference: wgpu::PowerPreference::HighPerformance,
                        compatible_surface: Some(&surface),
                        ..Default::default()
                    })
                    .await
                    .map_err(|e| AppError::NoBrowserAdapter(e.to_string()))?;
                let ctx = GpuContext::from_adapter_async(instance, adapter).await?;
                Ok(Opened {
                    window: window.clone(),
                    surface,
                    ctx,
                })
            }
            .await;
            *slot.borrow_mut() = Some(got);
            window.request_redraw();
        });
        Ok(())
    }

    /// The window's graphics once the device has arrived (`None` before; once).
    pub(crate) fn take_opened(
        &mut self,
        args: &RunArgs,
        scene: Option<&crate::formats::scene::Scene>,
    ) -> Option<Result<Gfx, AppError>> {
        let opened = self.opened.borrow_mut().take()?;
        Some(opened.and_then(|o| {
            o.ctx
                .device
                .set_device_lost_callback(move |reason, message| {
                    // Told to the page at once: the next frame's error may never come.
                    set_data(
                        "error",
                        &format!(
                            "the GPU device was lost ({reason:?}: {message}): reload the page"
                        ),
                    );
                });
            let mut g = Gfx::assemble(o.window, o.surface, o.ctx, args, scene)?;
            // A built-in preset the page started from is the gallery's choice.
            let stem = args.setup.scene.as_ref().and_then(|p| p.file_stem());
            if let Some(p) =
                stem.and_then(|s| crate::app::presets::Preset::find(&s.to_string_lossy()))
            {
                g.st.scenes.preset = Some(p.name.to_string());
            }
            Ok(g)
        }))
    }

    /// Writes what the page and its test read of the app (at most every [`PUBLISH_PERIOD`]).
    pub(crate) fn publish(&mut self, g: &Gfx) {
        let now = Instant::now();
        if self
            .last_publish
            .is_some_and(|t| now.duration_since(t) < PUBLISH_PERIOD)
        {
            return;
        }
        self.last_publish = Some(now);
        let sim = &g.st.run.sim;
        let css = 1.0 / g.window.scale_factor() as f32;
        let rect = |r: &[f32; 4]| r.map(|v| v * css);
        set_data("frames", &g.frame.presented.to_string());
        set_data("fps", &format!("{:.2}", g.frame.fps_smooth));
        set_data("boids", &sim.len().to_string());
        set_data("model", &sim.params().model.to_string());
        set_data("seed", &sim.seed().to_string());
        set_data("preset", g.st.scenes.preset.as_deref().unwrap_or(""));
        let order = g.st.run.history.samples().last().map(|s| s.order);
        set_data(
            "order",
            &order.map_or_else(String::new, |o| format!("{o:.6}")),
        );
        set_data(
            "params",
            &serde_json::to_string(sim.params()).unwrap_or_default(),
        );
        let sections: Vec<_> = g
            .frame
            .ui_sections
            .iter()
            .map(|(t, r, open)| (t, rect(r), open))
            .collect();
        set_data(
            "sections",
            &serde_json::to_string(&sections).unwrap_or_default(),
        );
        let areas: Vec<_> = g.frame.ui_areas.iter().map(|(n, r)| (n, rect(r))).collect();
        set_data("areas", &serde_json::to_string(&areas).unwrap_or_default());
        let egui_at = g.egui_ctx.pointer_latest_pos().map(|p| [p.x, p.y]);
        let app_at = g.st.pointer.map(|p| [p.x * css, p.y * css]);
        set_data(
            "pointer",
            &serde_json::to_string(&(app_at, egui_at, g.egui_ctx.pixels_per_point()))
                .unwrap_or_default(),
        );
        let widgets: Vec<_> = g
            .frame
            .ui_widgets
            .iter()
            .map(|(n, r)| (n, rect(r)))
            .collect();
        set_data(
            "widgets",
            &serde_json::to_string(&widgets).unwrap_or_default(),
        );
    }

    /// Tells the page why the app stopped.
    pub(crate) fn fail(&self, e: &AppError) {
        set_data("error", &e.to_string());
    }
}

/// Sets `data-<key>` on the page's `<body>` (nothing when there is no document).
fn set_data(key: &str, value: &str) {
    let body = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body());
    if let Some(b) = body.and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = b.dataset().set(key, value);
    }
}

thread_local! {
    /// Scene files the page handed over (picked or dropped), with their names, not yet loaded.
    static OFFERED_SCENES: RefCell<Vec<(String, String)>> = const { RefCell::new(Vec::new()) };
}

/// Hands a scene file's `text` named `name` to the app, which loads it on its next frame (the
/// page's file picker and drop target call it through the web crate).
pub fn offer_scene(name: String, text: String) {
    OFFERED_SCENES.with(|q| q.borrow_mut().push((name, text)));
}

/// The scene files offered since the last call.
pub(crate) fn take_offered_scenes() -> Vec<(String, String)> {
    OFFERED_SCENES.with(|q| std::mem::take(&mut *q.borrow_mut()))
}

/// Opens the page's scene-file picker (`<input id="scene-file" type="file">` of
/// `web/index.html`; the page hands the file to [`offer_scene`]).
///
/// # Errors
/// A page without the picker.
pub(crate) fn pick_scene_file() -> Result<(), String> {
    let input = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("scene-file"))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    match input {
        Some(i) => {
            i.click();
            Ok(())
        }
        None => Err("this page has no scene-file picker (#scene-file)".into()),
    }
}

/// Offers `bytes` to the user as a download named `name` (the page's way to save a file).
///
/// # Errors
/// The browser's refusal, as text.
pub(crate) fn download(name: &str, bytes: &[u8], mime: &str) -> Result<(), String> {
    let err = |e: wasm_bindgen::JsValue| format!("the browser refused the download: {e:?}");
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &opts).map_err(err)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(err)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a = document
        .create_element("a")
        .map_err(err)?
        .dyn_into::<web_sys::HtmlAnchorElement>()
        .map_err(|_| "not an anchor".to_string())?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    web_sys::Url::revoke_object_url(&url).map_err(err)?;
    Ok(())
}
