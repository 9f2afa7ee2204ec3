//! Scripted input for tests and captures (`boids run --script FILE`): winit cannot synthesise OS
//! input, so a script feeds timed events into the same handlers as real ones.
//!
//! One command per line, `FRAME: COMMAND ARGS`, where FRAME counts the app's frame ticks from 1;
//! blank lines and `#` comments are ignored. Positions are physical px from the window's top-left.
//!
//! | command | effect |
//! |---|---|
//! | `move X Y` | pointer moves to (X, Y) |
//! | `press [left\|middle\|right]`, `release [...]` | button down / up (default left) |
//! | `wheel LINES` | wheel notches at the pointer (positive zooms in) |
//! | `key NAME` | `escape`, `f11`, `tab`, `home`, `space`, `delete`, `1`–`5` |
//! | `tool NAME` | `add`, `draw`, `erase`, `attract`, `repel` |
//! | `backend gpu\|cpu` | live backend switch |
//! | `theme dark\|light`, `panel open\|closed`, `menu open\|closed` | UI state |
//! | `boids N` | boid count |
//! | `minimize`, `restore` | a zero-size resize of the surface, and back to the window's size |
//! | `resize W H` | asks the window for an inner size of W×H px |
//! | `capture FILE.png` | renders the current view offscreen (same renderer, no UI) to a PNG |
//! | `screenshot FILE.png` | saves the next presented window frame, UI included, as a PNG |
//! | `report FILE.json` | writes the run report as it stands now |
//! | `state FILE.csv` | writes the boid state (`boids headless --save` format; one readback) |
//! | `quit` | leaves the app |
//!
//! ```text
//! 10: tool add
//! 10: move 640 360
//! 11: press
//! 40: release
//! 60: wheel 3
//! ```

use std::path::PathBuf;

use glam::Vec2;

use crate::app::state::Action;
use crate::app::tools::{AppKey, Button, InputEvent, Tool};
use crate::backend::BackendKind;
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

/// A parsed script: commands sorted by frame.
#[derive(Clone, Debug, Default)]
pub struct Script {
    events: Vec<(u64, ScriptCmd)>,
    next: usize,
}

fn parse_cmd(cmd: &str, args: &[&str]) -> Result<ScriptCmd, String> {
    let num = |k: usize| -> Result<f32, String> {
        args.get(k)
            .ok_or_else(|| format!("`{cmd}` needs {} argument(s)", k + 1))?
            .parse::<f32>()
            .map_err(|e| format!("`{cmd}`: {e}"))
            .and_then(|v| {
                if v.is_finite() {
                    Ok(v)
                } else {
                    Err(format!("`{cmd}`: not a finite number"))
                }
            })
    };
    let word = |k: usize| -> Result<&str, String> {
        args.get(k)
            .copied()
            .ok_or_else(|| format!("`{cmd}` needs an argument"))
    };
    let button = || -> Result<Button, String> {
        match args.first() {
            None => Ok(Button::Left),
            Some(b) => Button::parse(b).ok_or_else(|| format!("unknown button `{b}`")),
        }
    };
    let open = |w: &str| match w {
        "open" | "on" => Ok(true),
        "closed" | "close" | "off" => Ok(false),
        _ => Err(format!("`{cmd}`: expected open or closed, got `{w}`")),
    };
    Ok(match cmd {
        "move" => ScriptCmd::Input(InputEvent::PointerMoved(Vec2::new(num(0)?, num(1)?))),
        "press" => ScriptCmd::Input(InputEvent::Button {
            button: button()?,
            pressed: true,
        }),
        "release" => ScriptCmd::Input(InputEvent::Button {
            button: button()?,
            pressed: false,
        }),
        "wheel" => ScriptCmd::Input(InputEvent::Wheel(num(0)?)),
        "key" => {
            let k = word(0)?;
            ScriptCmd::Input(InputEvent::Key(
                AppKey::parse(k).ok_or_else(|| format!("unknown key `{k}`"))?,
            ))
        }
        "tool" => {
            let t = word(0)?;
            ScriptCmd::Action(Action::SetTool(
                Tool::parse(t).ok_or_else(|| format!("unknown tool `{t}`"))?,
            ))
        }
        "backend" => {
            let b = word(0)?;
            ScriptCmd::Action(Action::SetBackend(
                BackendKind::parse(b)
                    .filter(|k| *k != BackendKind::CpuNaive)
                    .ok_or_else(|| format!("unknown backend `{b}` (the app runs gpu or cpu)"))?,
            ))
        }
        "theme" => ScriptCmd::Action(Action::SetTheme(match word(0)? {
            "dark" => Theme::Dark,
            "light" => Theme::Light,
            t => return Err(format!("unknown theme `{t}`")),
        })),
        "panel" => ScriptCmd::Action(Action::SetPanel(open(word(0)?)?)),
        "menu" => ScriptCmd::Action(Action::SetMenu(open(word(0)?)?)),
        "boids" => {
            let n = word(0)?
                .parse::<usize>()
                .map_err(|e| format!("`boids`: {e}"))?;
            ScriptCmd::Action(Action::SetBoidCount(n))
        }
        "minimize" => ScriptCmd::Minimize,
        "restore" => ScriptCmd::Restore,
        "resize" => {
            let (w, h) = (num(0)?, num(1)?);
            if !(1.0..=16384.0).contains(&w) || !(1.0..=16384.0).contains(&h) {
                return Err("`resize` needs 1..=16384 px (use `minimize` for 0×0)".into());
            }
            ScriptCmd::Resize(w as u32, h as u32)
        }
        "capture" => ScriptCmd::Capture(PathBuf::from(word(0)?)),
        "screenshot" => ScriptCmd::Screenshot(PathBuf::from(word(0)?)),
        "report" => ScriptCmd::Report(PathBuf::from(word(0)?)),
        "state" => ScriptCmd::State(PathBuf::from(word(0)?)),
        "quit" => ScriptCmd::Action(Action::Quit),
        other => return Err(format!("unknown command `{other}`")),
    })
}

impl Script {
    /// Parses script text.
    ///
    /// # Errors
    /// `line N: what is wrong`.
    pub fn parse(text: &str) -> Result<Script, String> {
        let mut events = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |m: String| format!("line {}: {m}", i + 1);
            let (frame, rest) = line
                .split_once(':')
                .ok_or_else(|| err("expected `FRAME: COMMAND`".into()))?;
            let frame: u64 = frame
                .trim()
                .parse()
                .map_err(|e| err(format!("frame number: {e}")))?;
            let mut words = rest.split_whitespace();
            let cmd = words.next().ok_or_else(|| err("missing command".into()))?;
            let args: Vec<&str> = words.collect();
            events.push((frame, parse_cmd(cmd, &args).map_err(err)?));
        }
        events.sort_by_key(|(f, _)| *f);
        Ok(Script { events, next: 0 })
    }

    /// Reads and parses a script file.
    ///
    /// # Errors
    /// The I/O or parse error, with the path.
    pub fn load(path: &std::path::Path) -> Result<Script, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Script::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The commands due at or before `frame` not yet taken, in order.
    pub fn take_due(&mut self, frame: u64) -> Vec<ScriptCmd> {
        let mut out = Vec::new();
        while let Some((f, cmd)) = self.events.get(self.next) {
            if *f > frame {
                break;
            }
            out.push(cmd.clone());
            self.next += 1;
        }
        out
    }

    /// Whether every command has been taken.
    pub fn done(&self) -> bool {
        self.next >= self.events.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_orders_commands() {
        let mut s = Script::parse(
            "# a test\n20: wheel 3\n10: move 1 2\n10: press\n\n15: release right\n30: resize 800 600\n",
        )
        .unwrap();
        assert!(s.take_due(9).is_empty());
        assert_eq!(
            s.take_due(10),
            vec![
                ScriptCmd::Input(InputEvent::PointerMoved(Vec2::new(1.0, 2.0))),
                ScriptCmd::Input(InputEvent::Button {
                    button: Button::Left,
                    pressed: true
                }),
            ]
        );
        assert_eq!(s.take_due(25).len(), 2);
        assert_eq!(s.take_due(30), vec![ScriptCmd::Resize(800, 600)]);
        assert!(s.done());
    }

    #[test]
    fn errors_name_the_line() {
        let e = Script::parse("1: move 1\n").unwrap_err();
        assert!(e.starts_with("line 1:"), "{e}");
        let e = Script::parse("1: tool hammer\n2: quit\n").unwrap_err();
        assert!(e.contains("hammer"), "{e}");
        assert!(Script::parse("x: quit").is_err());
        assert!(Script::parse("3: resize 0 0").is_err());
    }
}
