//! Scripted input for tests and captures (`boids run --script FILE`): winit cannot synthesise OS
//! input, so a script feeds timed events into the same handlers as real ones. Pointer events
//! (`move`, `press`, `release`, `wheel`) go through egui as a real pointer's do: a press on the
//! panel, the tool bar or a window works that widget (a section header opens, a button clicks, a
//! slider drags) and reaches the world only where egui does not want the pointer.
//!
//! One command per line, `FRAME: COMMAND ARGS`, where FRAME (≥ 1) counts the app's frame ticks from 1;
//! commands of the same frame run in file order. Blank lines are ignored and `#` starts a comment
//! anywhere in a line (so paths cannot hold `#` or spaces). Positions are physical px from the
//! window's top-left. The file is at most 16 MiB ([`crate::io::TEXT_FILE_LIMIT`]). These are all
//! the commands:
//!
//! | command | effect | arguments |
//! |---|---|---|
//! | `move X Y` | pointer moves to (X, Y) | px, each within ±1 000 000 (outside the window is allowed, as during a drag) |
//! | `press [BUTTON]`, `release [BUTTON]` | button down / up | `left` (default), `middle`, `right` |
//! | `wheel LINES` | wheel notches at the pointer (positive zooms in) | within ±1000; the zoom stops at the camera's limits |
//! | `key NAME` | a key press, as the key table ([`crate::app::keys`], F1 in the app) binds it | `f1` (`?`, `question`), `escape` (`esc`), `space`, `period` (`.`), `minus` (`-`), `equals` (`=`), `plus` (`+`), `1`, `2`, … (the tools), `delete`, `home`, `r`, `tab`, `h`, `i`, `m`, `c` (`colour`), `t` (`trails`), `v` (`video`), `f9` (`record`: starts / stops a live capture), `f11` |
//! | `tool NAME` | selects a tool (the tool bar's names) | `add`, `obstacle` (or `draw`), `eraser` (or `erase`), `attract`, `repel`, `predator` |
//! | `tool-radius PX` | the selected tool's radius on screen, as the panel's Tools slider (the add tool, eraser, attract and repel have one) | logical px, 1 ..= 2000 |
//! | `model NAME` | switches the model live, as the panel's selector: the boids stay, their speeds become the model's | `boids`, `vicsek`, `fish` (the model table) |
//! | `set KEY VALUE` | sets a parameter live, as the panel's widgets: checked with the others, refused (with a message) when out of range or unused by the running model | a key of the parameter table (unknown keys are refused here, with the nearest known ones), a value of its kind |
//! | `preset NAME` | loads a preset of the panel's gallery, as its button | a file stem of `scenes/` (`vicsek`, `predators`, …) |
//! | `backend NAME` | live backend switch | `gpu`, `cpu` |
//! | `theme NAME` | colour theme | `dark`, `light` |
//! | `colour MODE` | what the boids' colour shows | `hue`, `heading`, `speed`, `neighbours` |
//! | `trails STATE` | fading trails | `on`, `off` |
//! | `streaks STATE` | motion streaks on density dots (zoomed out) | `on`, `off` |
//! | `video STATE` | starts a recording of PNG frames at a fixed simulated rate into a new folder `<--capture-dir>/video-<UTC time>/`, or stops the one in progress and writes its MP4 | `start` (`on`), `stop` (`off`) |
//! | `panel STATE`, `menu STATE` | control panel / pause menu | `open` (`on`), `closed` (`close`, `off`) |
//! | `boids N` | boid count | 1 ..= [`crate::model::MAX_BOIDS`]; above the app's own limit (software adapter 500 000, GPU 4 000 000, at most what the adapter holds) it runs with that limit and a warning naming the line is printed when the app starts |
//! | `minimize`, `restore` | a zero-size resize of the surface, and back to the window's size | — |
//! | `resize W H` | asks the window for an inner size of W×H px | integers 1 ..= 16384 |
//! | `capture FILE.png` | renders the current view offscreen (same renderer, no UI) to a picture | path: `.png`, `.jpg` or `.jpeg` |
//! | `screenshot FILE.png` | saves the next presented window frame, UI included, as a picture | path: `.png`, `.jpg` or `.jpeg` |
//! | `report FILE.json` | writes the run report as it stands now | path |
//! | `predator-kind KIND` | the kind of predator the predator tool places, as the panel's choice | `hunting`, `straight` |
//! | `scene-path PATH` | the scene path, as typed in the panel | path |
//! | `save-scene`, `load-scene` | the panel's Save and Load buttons (the typed path; errors show in the panel and the message area) | — |
//! | `state FILE.csv` | writes a checkpoint: parameters, seed, step index, obstacles and boids (the `boids headless --save` format; `boids headless --init FILE` resumes it; one readback) | path |
//! | `quit` | leaves the app | — |
//!
//! Nothing is clamped silently: a value outside the range of its column above is refused with
//! the line (`line 3: boids = 0 is out of range: allowed 1 ..= 67108864`), and so are missing
//! or extra arguments; the only adjustment, a boid count above the app's limit, is reported.
//! Values are quoted in errors up to 60 characters.
//!
//! ```text
//! 10: tool add
//! 10: move 640 360
//! 11: press
//! 40: release
//! 60: wheel 3
//! ```

use crate::app::action::Action;
pub use crate::app::error::ScriptError;
use crate::app::script_cmd::{parse_cmd, ScriptCmd};
use crate::io::clip;

/// A parsed script: commands sorted by frame (file order within a frame), with their lines.
#[derive(Clone, Debug, Default)]
pub struct Script {
    events: Vec<(u64, usize, ScriptCmd)>,
    next: usize,
}

impl Script {
    /// Parses script text.
    ///
    /// # Errors
    /// [`ScriptError::Line`] without a file (`line N: what is wrong`), quoting at most 60
    /// characters of a value.
    pub fn parse(text: &str) -> Result<Script, ScriptError> {
        let mut events = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |message: String| ScriptError::Line {
                file: None,
                line: i + 1,
                message,
            };
            let (frame, rest) = line.split_once(':').ok_or_else(|| {
                err(format!(
                    "expected `FRAME: COMMAND`, found \"{}\"",
                    clip(line)
                ))
            })?;
            let frame: u64 = frame
                .trim()
                .parse()
                .map_err(|e| err(format!("frame number \"{}\": {e}", clip(frame.trim()))))?;
            if frame == 0 {
                return Err(err("frame numbers start at 1".into()));
            }
            let mut words = rest.split_whitespace();
            let cmd = words.next().ok_or_else(|| err("missing command".into()))?;
            let args: Vec<&str> = words.collect();
            events.push((frame, i + 1, parse_cmd(cmd, &args).map_err(err)?));
        }
        events.sort_by_key(|(f, _, _)| *f);
        Ok(Script { events, next: 0 })
    }

    /// Reads and parses a script file of at most [`crate::io::TEXT_FILE_LIMIT`] bytes (16 MiB).
    ///
    /// # Errors
    /// [`ScriptError::Read`], or [`ScriptError::Line`] naming the file.
    pub fn load(path: &std::path::Path) -> Result<Script, ScriptError> {
        let text = crate::io::read_text_limited(path, crate::io::TEXT_FILE_LIMIT, "script")
            .map_err(|source| ScriptError::Read {
                path: path.to_path_buf(),
                source,
            })?;
        Script::parse(&text).map_err(|e| match e {
            ScriptError::Line { line, message, .. } => ScriptError::Line {
                file: Some(crate::io::show_path(path)),
                line,
                message,
            },
            read => read,
        })
    }

    /// Lowers every `boids N` above `max_boids` (the app's limit) to `max_boids`, and returns one
    /// warning per change naming the script line, the value and what it became. For the app to
    /// print when it knows its limit.
    pub fn clamp_boid_counts(&mut self, max_boids: usize) -> Vec<String> {
        let mut warnings = Vec::new();
        for (_, line, cmd) in &mut self.events {
            if let ScriptCmd::Action(Action::SetBoidCount(n)) = cmd {
                if *n > max_boids {
                    warnings.push(format!(
                        "script line {line}: `boids {n}` is above this app's limit of {max_boids} \
                         boids: runs with {max_boids}"
                    ));
                    *n = max_boids;
                }
            }
        }
        warnings
    }

    /// The commands due at or before `frame` not yet taken, in order.
    pub fn take_due(&mut self, frame: u64) -> Vec<ScriptCmd> {
        let mut out = Vec::new();
        while let Some((f, _, cmd)) = self.events.get(self.next) {
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
    use crate::app::input::{Button, InputEvent};
    use crate::app::script_cmd::KNOWN;
    use crate::app::tools::Tool;
    use glam::Vec2;

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

    /// The new commands parse into the panel's actions; the tool bar's tool names and the old
    /// ones both work; unknown names are refused with the known ones.
    #[test]
    fn model_set_preset_and_tool_names() {
        let mut s = Script::parse(
            "1: model vicsek\n1: set vicsek_eta 1.5\n1: set boundary walls\n1: preset trees\n\
             2: tool obstacle\n2: tool draw\n2: tool eraser\n2: tool erase\n",
        )
        .unwrap();
        assert_eq!(
            s.take_due(1),
            vec![
                ScriptCmd::Action(Action::SetModel(crate::model::Model::VICSEK)),
                ScriptCmd::Action(Action::SetParam {
                    key: "vicsek_eta".into(),
                    value: "1.5".into()
                }),
                ScriptCmd::Action(Action::SetParam {
                    key: "boundary".into(),
                    value: "walls".into()
                }),
                ScriptCmd::Action(Action::LoadPreset("trees".into())),
            ]
        );
        let tools: Vec<ScriptCmd> = s.take_due(2);
        assert_eq!(
            tools,
            ["obstacle", "obstacle", "eraser", "eraser"]
                .map(|t| ScriptCmd::Action(Action::SetTool(Tool::parse(t).unwrap())))
        );
        for (text, needle) in [
            ("1: model reynolds\n", "boids, vicsek"),
            ("1: set seperation_weight 2\n", "separation_weight"),
            ("1: set boundary 3\n", "boundary"),
            ("1: set dt\n", "needs 2"),
            ("1: preset nope\n", "vicsek"),
        ] {
            let e = Script::parse(text).unwrap_err().to_string();
            assert!(e.contains("line 1") && e.contains(needle), "{text:?}: {e}");
        }
    }

    #[test]
    fn errors_name_the_line() {
        let e = Script::parse("1: move 1\n").unwrap_err().to_string();
        assert!(e.starts_with("line 1:"), "{e}");
        let e = Script::parse("1: tool hammer\n2: quit\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("hammer"), "{e}");
        assert!(Script::parse("x: quit").is_err());
        assert!(Script::parse("3: resize 0 0").is_err());
    }

    /// A loaded script's error names the file and keeps the line apart, so a caller can point at
    /// it; a file that cannot be read is another kind.
    #[test]
    fn a_loaded_script_names_the_file_and_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.txt");
        std::fs::write(&path, "1: quit\n\n3: jump\n").unwrap();
        let e = Script::load(&path).unwrap_err();
        assert_eq!(e.line(), Some(3), "{e:?}");
        let text = e.to_string();
        assert!(
            text.starts_with("script ") && text.contains("s.txt: line 3: unknown command `jump`"),
            "{text}"
        );
        let e = Script::load(&dir.path().join("missing.txt")).unwrap_err();
        assert!(
            matches!(&e, ScriptError::Read { source, .. }
            if source.kind() == std::io::ErrorKind::NotFound),
            "{e:?}"
        );
        assert_eq!(e.line(), None);
    }

    /// Nothing is clamped silently: out-of-range values, fractions and extra arguments are
    /// refused with the line, the value and the range.
    #[test]
    fn out_of_range_values_are_refused_not_clamped() {
        for (text, needles) in [
            (
                "1: quit\n2: boids 0\n",
                &["line 2", "boids = 0", "allowed 1 ..= 67108864"][..],
            ),
            ("1: boids 67108865\n", &["line 1", "67108865"][..]),
            ("1: boids -3\n", &["line 1", "boids", "-3"][..]),
            (
                "1: resize 800.5 600\n",
                &["line 1", "W = \"800.5\"", "1 ..= 16384"][..],
            ),
            ("1: resize 800 99999\n", &["line 1", "H = \"99999\""][..]),
            ("1: move 1e7 0\n", &["line 1", "X = \"1e7\"", "1000000"][..]),
            ("1: move 0 nan\n", &["line 1", "Y = \"nan\""][..]),
            ("1: wheel 1001\n", &["line 1", "LINES", "1000"][..]),
            ("1: wheel inf\n", &["line 1", "LINES"][..]),
            (
                "1: capture my shot.png\n",
                &["line 1", "at most 1", "shot.png", "spaces"][..],
            ),
            ("1: press left right\n", &["line 1", "at most 1"][..]),
            ("1: quit now\n", &["line 1", "at most 0"][..]),
            ("1: key\n", &["line 1", "needs 1"][..]),
            ("0: quit\n", &["line 1", "start at 1"][..]),
            ("1: tool-radius 0\n", &["line 1", "PX", "1 ..= 2000"][..]),
            ("1: tool-radius 2001\n", &["line 1", "PX"][..]),
        ] {
            let e = Script::parse(text).unwrap_err().to_string();
            for n in needles {
                assert!(e.contains(n), "{text:?}: {e:?} lacks {n:?}");
            }
        }
    }

    /// A count above the app's limit (known only once the app runs) is lowered with a warning
    /// naming the script line, the value and what it became.
    #[test]
    fn counts_above_the_app_limit_are_reported() {
        let mut s = Script::parse("1: boids 10\n5: boids 900000\n").unwrap();
        let w = s.clamp_boid_counts(500_000);
        assert_eq!(w.len(), 1);
        assert!(
            w[0].contains("line 2") && w[0].contains("900000") && w[0].contains("runs with 500000"),
            "{w:?}"
        );
        assert_eq!(
            s.take_due(5),
            vec![
                ScriptCmd::Action(Action::SetBoidCount(10)),
                ScriptCmd::Action(Action::SetBoidCount(500_000)),
            ]
        );
    }

    /// The `key` row of the module documentation names every key of the key table.
    #[test]
    fn the_doc_table_names_every_key() {
        let src = include_str!("script.rs");
        let row = src
            .lines()
            .find(|l| l.starts_with("//! | `key NAME`"))
            .expect("a key row");
        for b in crate::app::keys::bindings() {
            let digit = b.names[0].len() == 1 && b.names[0].chars().all(|c| c.is_ascii_digit());
            for n in b.names {
                let shown = row.contains(&format!("`{n}`"))
                    || (digit && row.contains("`1`, `2`, … (the tools)"));
                assert!(shown, "key name {n} missing from the script doc");
            }
        }
    }

    /// The module documentation's table lists exactly the commands the parser accepts.
    #[test]
    fn the_doc_table_lists_every_command() {
        let src = include_str!("script.rs");
        let mut documented = Vec::new();
        for line in src.lines().filter_map(|l| l.strip_prefix("//! | `")) {
            let first_col = line.split(" | ").next().unwrap_or("");
            for part in first_col.split(", ") {
                let name = part
                    .trim_start_matches('`')
                    .split([' ', '`'])
                    .next()
                    .unwrap();
                documented.push(name.to_string());
            }
        }
        documented.sort();
        let mut accepted: Vec<String> = KNOWN.iter().map(|s| s.to_string()).collect();
        accepted.sort();
        assert_eq!(documented, accepted);
        // And each is accepted by the parser with some argument.
        for cmd in KNOWN {
            let e = parse_cmd(cmd, &["zz", "zz", "zz"])
                .err()
                .unwrap_or_default();
            assert!(!e.contains("unknown command"), "{cmd}: {e}");
        }
    }
}
