//! One command of an app script ([`ScriptCmd`]) and its parser ([`parse_cmd`]): the commands,
//! their arguments and their ranges are the table of [`crate::app::script`]'s documentation,
//! which its tests hold to [`KNOWN`] and to this parser.

use std::path::PathBuf;

use glam::Vec2;

use crate::app::action::Action;
pub use crate::app::error::ScriptError;
use crate::app::input::{Button, InputEvent};
use crate::app::tools::Tool;
use crate::backend::BackendKind;
use crate::io::clip;
use crate::render::Theme;

/// One scripted command.
#[derive(Clone, Debug, PartialEq)]
pub enum ScriptCmd {
    /// An input event for [`crate::app::state::AppState::input`].
    Input(InputEvent),
    /// An action for [`crate::app::state::AppState::apply`].
    Action(Action),
    /// The surface handler sees a 0×0 size (what minimising does on most platforms; X servers
    /// cannot give a window a zero size).
    Minimize,
    /// The surface handler sees the window's real inner size again.
    Restore,
    /// `Window::request_inner_size(W, H)`.
    Resize(u32, u32),
    /// Renders the current view to a PNG.
    Capture(PathBuf),
    /// Saves the next presented frame (UI included) to a PNG.
    Screenshot(PathBuf),
    /// Writes the run report (JSON) as it stands.
    Report(PathBuf),
    /// Writes the boid state (CSV).
    State(PathBuf),
}

/// Largest |X|, |Y| of `move` (px).
pub const MAX_POINTER_PX: f32 = 1.0e6;
/// Largest |LINES| of `wheel`.
pub const MAX_WHEEL_LINES: f32 = 1000.0;
/// Largest side of `resize` (px).
pub const MAX_RESIZE_PX: u32 = 16384;

/// Every command (the module documentation's table lists them).
pub const KNOWN: [&str; 31] = [
    "move",
    "press",
    "release",
    "wheel",
    "key",
    "tool",
    "tool-radius",
    "model",
    "set",
    "preset",
    "backend",
    "theme",
    "colour",
    "trails",
    "streaks",
    "video",
    "panel",
    "menu",
    "boids",
    "minimize",
    "restore",
    "resize",
    "capture",
    "screenshot",
    "report",
    "state",
    "predator-kind",
    "scene-path",
    "save-scene",
    "load-scene",
    "quit",
];

/// One command and its arguments. The error is the message of [`ScriptError::Line`] (which adds
/// the line): text is all a caller does with it, so it stays a `String`, as do those of the
/// argument helpers inside.
pub fn parse_cmd(cmd: &str, args: &[&str]) -> Result<ScriptCmd, String> {
    let arity = |min: usize, max: usize| -> Result<(), String> {
        if args.len() < min {
            return Err(format!(
                "`{cmd}` needs {min} argument(s), found {}",
                args.len()
            ));
        }
        if args.len() > max {
            return Err(format!(
                "`{cmd}` takes at most {max} argument(s), found {} (extra: \"{}\"; paths cannot \
                 hold spaces)",
                args.len(),
                clip(&args[max..].join(" "))
            ));
        }
        Ok(())
    };
    let num = |k: usize, what: &str, limit: f32| -> Result<f32, String> {
        let a = args[k];
        let v = a
            .parse::<f32>()
            .map_err(|e| format!("`{cmd}` {what} = \"{}\": {e}", clip(a)))?;
        if v.is_nan() || v.abs() > limit {
            return Err(format!(
                "`{cmd}` {what} = \"{}\" is out of range: allowed -{limit} ..= {limit}",
                clip(a)
            ));
        }
        Ok(v)
    };
    let button = || -> Result<Button, String> {
        match args.first() {
            None => Ok(Button::Left),
            Some(b) => Button::parse(b)
                .ok_or_else(|| format!("unknown button `{}` (left, middle or right)", clip(b))),
        }
    };
    let open = |w: &str| match w {
        "open" | "on" => Ok(true),
        "closed" | "close" | "off" => Ok(false),
        _ => Err(format!(
            "`{cmd}`: expected open or closed, got `{}`",
            clip(w)
        )),
    };
    let (min, max) = match cmd {
        "move" | "resize" | "set" => (2, 2),
        "press" | "release" => (0, 1),
        "minimize" | "restore" | "quit" | "save-scene" | "load-scene" => (0, 0),
        _ => (1, 1),
    };
    if !KNOWN.contains(&cmd) {
        return Err(format!("unknown command `{}`", clip(cmd)));
    }
    arity(min, max)?;
    let word = |k: usize| args[k];
    Ok(match cmd {
        "move" => ScriptCmd::Input(InputEvent::PointerMoved(Vec2::new(
            num(0, "X", MAX_POINTER_PX)?,
            num(1, "Y", MAX_POINTER_PX)?,
        ))),
        "press" => ScriptCmd::Input(InputEvent::Button {
            button: button()?,
            pressed: true,
        }),
        "release" => ScriptCmd::Input(InputEvent::Button {
            button: button()?,
            pressed: false,
        }),
        "wheel" => ScriptCmd::Input(InputEvent::Wheel(num(0, "LINES", MAX_WHEEL_LINES)?)),
        "key" => {
            let k = word(0);
            ScriptCmd::Input(InputEvent::Key(crate::app::keys::parse(k).ok_or_else(
                || {
                    format!(
                        "unknown key `{}` (see the key table, F1 in the app)",
                        clip(k)
                    )
                },
            )?))
        }
        "tool" => {
            let t = word(0);
            ScriptCmd::Action(Action::SetTool(
                Tool::parse(t).ok_or_else(|| format!("unknown tool `{}`", clip(t)))?,
            ))
        }
        "tool-radius" => {
            let px = num(0, "PX", 2000.0)?;
            if px < 1.0 {
                return Err(format!(
                    "`tool-radius` PX = \"{}\" is out of range: allowed 1 ..= 2000",
                    clip(word(0))
                ));
            }
            ScriptCmd::Action(Action::SetSelectedToolRadius(px))
        }
        "model" => {
            let m = word(0);
            ScriptCmd::Action(Action::SetModel(
                crate::model::Model::by_name(m).ok_or_else(|| {
                    format!(
                        "unknown model `{}` ({})",
                        clip(m),
                        crate::model::Model::names()
                    )
                })?,
            ))
        }
        "set" => {
            let (key, value) = (word(0), word(1));
            // The key and the kind of the value are checked now; ranges when it is applied.
            crate::model::SimParams::default()
                .set(key, value)
                .map_err(|e| format!("`set`: {e}"))?;
            ScriptCmd::Action(Action::SetParam {
                key: key.to_string(),
                value: value.to_string(),
            })
        }
        "preset" => {
            let name = word(0);
            if crate::app::presets::Preset::find(name).is_none() {
                return Err(format!(
                    "unknown preset `{}` ({})",
                    clip(name),
                    crate::app::presets::Preset::names()
                ));
            }
            ScriptCmd::Action(Action::LoadPreset(name.to_string()))
        }
        "backend" => {
            let b = word(0);
            ScriptCmd::Action(Action::SetBackend(
                BackendKind::parse(b)
                    .filter(|k| *k != BackendKind::CpuNaive)
                    .ok_or_else(|| {
                        format!("unknown backend `{}` (the app runs gpu or cpu)", clip(b))
                    })?,
            ))
        }
        "theme" => ScriptCmd::Action(Action::SetTheme(match word(0) {
            "dark" => Theme::Dark,
            "light" => Theme::Light,
            t => return Err(format!("unknown theme `{}` (dark or light)", clip(t))),
        })),
        "colour" => {
            let m = word(0);
            ScriptCmd::Action(Action::SetColour(
                crate::render::ColourMode::parse(m).ok_or_else(|| {
                    format!(
                        "unknown colour mode `{}` ({})",
                        clip(m),
                        crate::render::ColourMode::names()
                    )
                })?,
            ))
        }
        "trails" => ScriptCmd::Action(Action::SetTrails(match word(0) {
            "on" => true,
            "off" => false,
            w => return Err(format!("`trails`: expected on or off, got `{}`", clip(w))),
        })),
        "streaks" => ScriptCmd::Action(Action::SetStreaks(match word(0) {
            "on" => true,
            "off" => false,
            w => return Err(format!("`streaks`: expected on or off, got `{}`", clip(w))),
        })),
        "video" => ScriptCmd::Action(Action::SetVideo(match word(0) {
            "start" | "on" => true,
            "stop" | "off" => false,
            w => {
                return Err(format!(
                    "`video`: expected start or stop, got `{}`",
                    clip(w)
                ))
            }
        })),
        "panel" => ScriptCmd::Action(Action::SetPanel(open(word(0))?)),
        "menu" => ScriptCmd::Action(Action::SetMenu(open(word(0))?)),
        "boids" => {
            let a = word(0);
            let n = a
                .parse::<usize>()
                .map_err(|e| format!("`boids` = \"{}\": {e}", clip(a)))?;
            crate::model::validate_boid_count(n).map_err(|e| e.to_string())?;
            ScriptCmd::Action(Action::SetBoidCount(n))
        }
        "minimize" => ScriptCmd::Minimize,
        "restore" => ScriptCmd::Restore,
        "resize" => {
            let side = |k: usize, what: &str| -> Result<u32, String> {
                let a = args[k];
                a.parse::<u32>()
                    .ok()
                    .filter(|v| (1..=MAX_RESIZE_PX).contains(v))
                    .ok_or_else(|| {
                        format!(
                            "`resize` {what} = \"{}\" is out of range: allowed whole px 1 ..= \
                             {MAX_RESIZE_PX} (use `minimize` for 0×0)",
                            clip(a)
                        )
                    })
            };
            ScriptCmd::Resize(side(0, "W")?, side(1, "H")?)
        }
        "capture" | "screenshot" => {
            let path = PathBuf::from(word(0));
            crate::io::picture_format(&path).map_err(|e| e.to_string())?;
            if cmd == "capture" {
                ScriptCmd::Capture(path)
            } else {
                ScriptCmd::Screenshot(path)
            }
        }
        "report" => ScriptCmd::Report(PathBuf::from(word(0))),
        "state" => ScriptCmd::State(PathBuf::from(word(0))),
        "predator-kind" => ScriptCmd::Action(Action::SetPredatorKind(match word(0) {
            "hunting" => crate::model::PredatorKind::Hunting,
            "straight" => crate::model::PredatorKind::Straight,
            k => {
                return Err(format!(
                    "unknown predator kind `{}` (hunting or straight)",
                    clip(k)
                ))
            }
        })),
        "scene-path" => ScriptCmd::Action(Action::SetScenePath(word(0).to_string())),
        "save-scene" => ScriptCmd::Action(Action::SaveScene),
        "load-scene" => ScriptCmd::Action(Action::LoadScene),
        _ => ScriptCmd::Action(Action::Quit),
    })
}
