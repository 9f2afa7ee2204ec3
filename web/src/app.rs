//! The app itself in the page: the native app's event loop, panel, tools, presets and renderers
//! drawing into the page's canvas (`boids::app::start_web`), started from the page's URL
//! parameters read as the command line's options (`boids::app::url_params`).

use boids::app::url_params::read;
use wasm_bindgen::prelude::*;

/// Starts the app in `canvas` from the URL's parameters (`query`: `location.search`). A parameter
/// the command line would refuse is said in the returned message (empty when all were read), and
/// the app starts without any of them; it is an error only when the app cannot start at all.
///
/// # Errors
/// The app's own error before it opens (a preset the model refuses), as text.
#[wasm_bindgen]
pub fn start_app(canvas: web_sys::HtmlCanvasElement, query: String) -> Result<String, JsValue> {
    crate::log_panics();
    let params: Vec<(String, String)> = web_sys::UrlSearchParams::new_with_str(&query)
        .map(|u| {
            js_sys::try_iter(&u)
                .ok()
                .flatten()
                .into_iter()
                .flatten()
                .filter_map(|kv| {
                    let kv = js_sys::Array::from(&kv.ok()?);
                    Some((kv.get(0).as_string()?, kv.get(1).as_string()?))
                })
                .collect()
        })
        .unwrap_or_default();
    let (asked, message) = match read(&params) {
        Ok(a) => (a, String::new()),
        Err(m) => (read(&[]).map_err(|e| JsValue::from_str(&e))?, m),
    };
    let scene = match &asked.preset {
        Some(p) => Some(p.scene().map_err(|e| JsValue::from_str(&e.to_string()))?),
        None => None,
    };
    boids::app::start_web(asked.args, scene, canvas)
        .map_err(|e| JsValue::from_str(&e.to_string()))?;
    Ok(message)
}

/// Hands a scene file (its name and text: picked in the page's file picker or dropped on the
/// canvas) to the running app, which loads it as the panel's Load does.
#[wasm_bindgen]
pub fn load_scene_text(name: String, text: String) {
    boids::app::web_offer_scene(name, text);
}
