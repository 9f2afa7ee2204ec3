//! The app's one key table, [`bindings`]: the window's key handling ([`lookup`]), the script's `key`
//! command ([`parse`]) and the help overlay ([`help_rows`]) all read it, so a key bound here is
//! listed in the help and a key the help lists is bound. The keys table of docs/app.md is this table
//! (a test checks the two row for row).
//!
//! | key | action |
//! |---|---|
//! | F1, `?` | help (the key table; shown at start-up) |
//! | Esc | closes help or the pause menu; leaves immersion; else opens the pause menu (pauses) |
//! | Space | pause / resume |
//! | `.` | one step (pauses first) |
//! | `-` | slower: 2×, 1×, ½× real time |
//! | `=`, `+` | faster: ½×, 1×, 2× real time |
//! | 1, 2, … | the tools, in the tool bar's order (add boids, obstacle, eraser, attract, repel, predator) |
//! | Delete | removes every obstacle |
//! | Home, R | shows the whole world again |
//! | Tab | control panel |
//! | H | HUD shown / hidden |
//! | I | HUD details (frame budget, adapter, world) |
//! | M | ambient sound on / off |
//! | C | colour: hue vector, heading, speed, neighbour count |
//! | T | trails on / off |
//! | V | starts / stops recording video frames |
//! | F9 | starts / stops a live capture into `captures/<UTC time>/` (`--capture-dir`) |
//! | F11 | immersion (fullscreen, no HUD, no panel) |

use winit::keyboard::{Key, NamedKey};

use crate::app::tools::Tool;

/// What a key does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AppKey {
    /// Shows / hides the help overlay.
    Help,
    /// Closes help or the pause menu, leaves immersion, else opens the pause menu.
    Escape,
    /// Fullscreen immersion on / off.
    Immersion,
    /// Shows / hides the control panel.
    TogglePanel,
    /// Shows the whole world again.
    ResetView,
    /// Pauses / resumes the simulation.
    Pause,
    /// Runs one step and stays paused.
    StepOnce,
    /// Halves the simulation speed (down to ½×).
    Slower,
    /// Doubles the simulation speed (up to 2×).
    Faster,
    /// Selects a tool.
    Tool(Tool),
    /// Removes every obstacle.
    ClearObstacles,
    /// Starts / stops a live capture.
    Record,
    /// Shows / hides the HUD.
    ToggleHud,
    /// Compact HUD / HUD with details.
    HudDetails,
    /// Ambient sound on / off.
    Sound,
    /// The next colour mode.
    Colour,
    /// Trails on / off.
    Trails,
    /// Starts / stops a video recording.
    Video,
}

/// A key as winit reports it (logical key: what the layout types).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyMatch {
    /// A named key (Escape, F1, Space, …).
    Named(NamedKey),
    /// A character key; letters match either case.
    Char(&'static str),
}

impl KeyMatch {
    fn matches(self, key: &Key) -> bool {
        match (self, key) {
            (KeyMatch::Named(n), Key::Named(k)) => n == *k,
            (KeyMatch::Char(c), Key::Character(s)) => s.eq_ignore_ascii_case(c),
            _ => false,
        }
    }
}

/// One row of the key table.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    /// The key.
    pub key: KeyMatch,
    /// How the help shows it.
    pub label: &'static str,
    /// Its names in scripts (`key NAME`); the first is the canonical one.
    pub names: &'static [&'static str],
    /// What it does.
    pub action: AppKey,
    /// What the help says it does.
    pub help: &'static str,
}

const fn named(
    key: NamedKey,
    label: &'static str,
    names: &'static [&'static str],
    action: AppKey,
    help: &'static str,
) -> Binding {
    Binding {
        key: KeyMatch::Named(key),
        label,
        names,
        action,
        help,
    }
}

const fn char(
    c: &'static str,
    label: &'static str,
    names: &'static [&'static str],
    action: AppKey,
    help: &'static str,
) -> Binding {
    Binding {
        key: KeyMatch::Char(c),
        label,
        names,
        action,
        help,
    }
}

/// The keys before the tools' number keys, in the order the help lists them; [`bindings`] is every
/// key the app binds: these, a number key per tool of [`crate::app::tools::TOOLS`] (1, 2, …, in
/// its order), then [`KEYS_AFTER_TOOLS`]. A new action needs a row in one of the two (the test
/// `every_action_has_a_key` says so); a new tool gets its key from the tool table.
pub const KEYS_BEFORE_TOOLS: &[Binding] = &[
    named(
        NamedKey::F1,
        "F1",
        &["f1"],
        AppKey::Help,
        "help (this list)",
    ),
    char(
        "?",
        "?",
        &["?", "question"],
        AppKey::Help,
        "help (this list)",
    ),
    named(
        NamedKey::Escape,
        "Esc",
        &["escape", "esc"],
        AppKey::Escape,
        "close help or menu · leave immersion · pause menu",
    ),
    named(
        NamedKey::Space,
        "Space",
        &["space"],
        AppKey::Pause,
        "pause / resume",
    ),
    char(
        ".",
        ".",
        &["period", "."],
        AppKey::StepOnce,
        "one step (pauses)",
    ),
    char(
        "-",
        "-",
        &["minus", "-"],
        AppKey::Slower,
        "slower (2×, 1×, ½×)",
    ),
    char(
        "=",
        "=",
        &["equals", "="],
        AppKey::Faster,
        "faster (½×, 1×, 2×)",
    ),
    char(
        "+",
        "+",
        &["plus", "+"],
        AppKey::Faster,
        "faster (½×, 1×, 2×)",
    ),
];

/// The keys after the tools' number keys, in the order the help lists them.
pub const KEYS_AFTER_TOOLS: &[Binding] = &[
    named(
        NamedKey::Delete,
        "Delete",
        &["delete"],
        AppKey::ClearObstacles,
        "remove every obstacle",
    ),
    named(
        NamedKey::Home,
        "Home",
        &["home"],
        AppKey::ResetView,
        "show the whole world",
    ),
    char("r", "R", &["r"], AppKey::ResetView, "show the whole world"),
    named(
        NamedKey::Tab,
        "Tab",
        &["tab"],
        AppKey::TogglePanel,
        "control panel",
    ),
    char("h", "H", &["h"], AppKey::ToggleHud, "HUD on / off"),
    char(
        "i",
        "I",
        &["i"],
        AppKey::HudDetails,
        "HUD details (frame budget, adapter)",
    ),
    char("m", "M", &["m"], AppKey::Sound, "ambient sound on / off"),
    char(
        "c",
        "C",
        &["c", "colour"],
        AppKey::Colour,
        "colour: hue, heading, speed, neighbours",
    ),
    char(
        "t",
        "T",
        &["t", "trails"],
        AppKey::Trails,
        "trails on / off",
    ),
    char(
        "v",
        "V",
        &["v", "video"],
        AppKey::Video,
        "start / stop recording video frames",
    ),
    named(
        NamedKey::F9,
        "F9",
        &["f9", "record"],
        AppKey::Record,
        "start / stop a live capture",
    ),
    named(
        NamedKey::F11,
        "F11",
        &["f11"],
        AppKey::Immersion,
        "immersion (fullscreen)",
    ),
];

/// What the mouse does, for the help (not keys, so not in [`bindings`]).
pub const MOUSE: &[(&str, &str)] = &[
    ("Left button", "use the tool"),
    ("Right / middle drag", "pan"),
    ("Wheel", "zoom at the pointer"),
];

/// The number keys of the tools, and their script names.
const DIGITS: [&str; 9] = ["1", "2", "3", "4", "5", "6", "7", "8", "9"];
const DIGIT_NAMES: [&[&str]; 9] = [
    &["1"],
    &["2"],
    &["3"],
    &["4"],
    &["5"],
    &["6"],
    &["7"],
    &["8"],
    &["9"],
];

/// Every key the app binds, in the order the help lists them: [`KEYS_BEFORE_TOOLS`], the number
/// key of each tool (the first nine of the tool table), [`KEYS_AFTER_TOOLS`].
pub fn bindings() -> impl Iterator<Item = Binding> {
    let tools = Tool::all()
        .zip(DIGITS.iter().zip(DIGIT_NAMES))
        .map(|(t, (d, names))| char(d, d, names, AppKey::Tool(t), t.desc().help));
    KEYS_BEFORE_TOOLS
        .iter()
        .copied()
        .chain(tools)
        .chain(KEYS_AFTER_TOOLS.iter().copied())
}

/// The action of a key winit reports, if the table binds it.
pub fn lookup(key: &Key) -> Option<AppKey> {
    bindings().find(|b| b.key.matches(key)).map(|b| b.action)
}

/// The action of a script key name (any of a row's `names`).
pub fn parse(name: &str) -> Option<AppKey> {
    bindings()
        .find(|b| b.names.contains(&name))
        .map(|b| b.action)
}

/// The help's rows: the keys of one action joined (`"Home, R"`), with what they do, in table
/// order.
pub fn help_rows() -> Vec<(String, &'static str)> {
    let mut rows: Vec<(AppKey, String, &'static str)> = Vec::new();
    for b in bindings() {
        match rows.iter_mut().find(|(a, _, _)| *a == b.action) {
            Some(row) => {
                row.1.push_str(", ");
                row.1.push_str(b.label);
            }
            None => rows.push((b.action, b.label.to_string(), b.help)),
        }
    }
    rows.into_iter().map(|(_, k, h)| (k, h)).collect()
}

/// The keys bound to `action`, joined for a tooltip (`"Space"`, `"Home, R"`); empty when none.
pub fn keys_of(action: AppKey) -> String {
    bindings()
        .filter(|b| b.action == action)
        .map(|b| b.label)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every action, listed through an exhaustive match so that a new variant fails to compile
    /// until it is added here (and then must have a key).
    fn all_actions() -> Vec<AppKey> {
        let mut v = vec![
            AppKey::Help,
            AppKey::Escape,
            AppKey::Immersion,
            AppKey::TogglePanel,
            AppKey::ResetView,
            AppKey::Pause,
            AppKey::StepOnce,
            AppKey::Slower,
            AppKey::Faster,
            AppKey::ClearObstacles,
            AppKey::Record,
            AppKey::ToggleHud,
            AppKey::HudDetails,
            AppKey::Sound,
            AppKey::Colour,
            AppKey::Trails,
            AppKey::Video,
        ];
        v.extend(Tool::all().map(AppKey::Tool));
        for a in &v {
            match a {
                AppKey::Help
                | AppKey::Escape
                | AppKey::Immersion
                | AppKey::TogglePanel
                | AppKey::ResetView
                | AppKey::Pause
                | AppKey::StepOnce
                | AppKey::Slower
                | AppKey::Faster
                | AppKey::Tool(_)
                | AppKey::ClearObstacles
                | AppKey::Record
                | AppKey::ToggleHud
                | AppKey::HudDetails
                | AppKey::Sound
                | AppKey::Colour
                | AppKey::Trails
                | AppKey::Video => {}
            }
        }
        v
    }

    #[test]
    fn every_action_has_a_key() {
        for a in all_actions() {
            assert!(!keys_of(a).is_empty(), "{a:?} has no key in bindings()");
        }
    }

    #[test]
    fn winit_keys_and_script_names_find_their_row() {
        for b in bindings() {
            let key = match b.key {
                KeyMatch::Named(n) => Key::Named(n),
                KeyMatch::Char(c) => Key::Character(c.into()),
            };
            assert_eq!(lookup(&key), Some(b.action), "{}", b.label);
            for n in b.names {
                assert_eq!(parse(n), Some(b.action), "{n}");
            }
        }
        assert_eq!(lookup(&Key::Character("R".into())), Some(AppKey::ResetView));
        assert_eq!(lookup(&Key::Character("x".into())), None);
        assert_eq!(lookup(&Key::Named(NamedKey::F2)), None);
        assert_eq!(parse("7"), None);
        assert_eq!(
            parse("6"),
            Some(AppKey::Tool(Tool::parse("predator").unwrap()))
        );
        assert_eq!(
            parse("3"),
            Some(AppKey::Tool(Tool::parse("eraser").unwrap()))
        );
    }

    #[test]
    fn no_key_is_bound_twice_and_no_name_is_shared() {
        let all: Vec<Binding> = bindings().collect();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(a.key, b.key, "{} bound twice", a.label);
                for n in a.names {
                    assert!(!b.names.contains(n), "script name {n} shared");
                }
            }
        }
    }

    /// The module documentation's table lists every action's help row.
    #[test]
    fn the_doc_table_lists_every_key() {
        let src = include_str!("keys.rs");
        let doc: Vec<&str> = src
            .lines()
            .filter_map(|l| l.strip_prefix("//! | "))
            .collect();
        for b in bindings() {
            let label = b.label.trim_matches('`');
            let shown = if label.len() == 1 && !label.chars().all(char::is_alphanumeric) {
                format!("`{label}`")
            } else {
                label.to_string()
            };
            let found = doc.iter().any(|row| {
                row.split(" | ").next().is_some_and(|keys| {
                    keys.split(", ").any(|k| k == shown)
                        || (label.len() == 1
                            && label.chars().all(|c| c.is_ascii_digit())
                            && keys == "1, 2, …")
                })
            });
            assert!(found, "key {} is missing from the doc table", b.label);
        }
    }

    /// docs/app.md's keys table is the module documentation's, row for row.
    #[test]
    fn the_app_docs_keys_table_is_this_table() {
        let rows = |lines: Vec<&str>| -> Vec<String> {
            lines
                .into_iter()
                .filter(|l| l.starts_with("| ") && !l.starts_with("| key |"))
                .map(|l| l.trim_end().to_string())
                .collect()
        };
        let src = include_str!("keys.rs");
        let ours = rows(src.lines().filter_map(|l| l.strip_prefix("//! ")).collect());
        let app = include_str!("../../docs/app.md");
        let section = app
            .split("\n## ")
            .find(|s| s.starts_with("Keys\n"))
            .expect("docs/app.md has a Keys section");
        let theirs = rows(section.lines().collect());
        assert!(!ours.is_empty());
        assert_eq!(
            ours, theirs,
            "docs/app.md's keys table differs from src/app/keys.rs"
        );
    }
}
