//! What a boid's colour shows: the [`ColourMode`] table. Each mode has a name (the CLI's
//! `--colour`, the script's `colour`, a panel's list), a description and the code the render
//! shader switches on (`boid_colour` in `shaders/render_view.wgsl`); [`COLOUR_MODES`] is the one place
//! a new mode is added.
//!
//! | mode | colour | shader path |
//! |---|---|---|
//! | `hue` | the boid's hue vector (the model's colour rule): a pastel tip-to-tail gradient | 0 |
//! | `heading` | the direction of the velocity, on the same hue circle | 1 |
//! | `speed` | \|v\| from the model's lowest to its highest spawn speed, blue (slow) to yellow (fast) | 2 |
//! | `neighbours` | boids within the perception radius in the last step, 0 (blue) to [`crate::render::RenderStyle::neighbours_full`] (yellow) | 3 |

/// What the boids' colour shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ColourMode {
    /// The hue vector, the state the colour rule steers (the default).
    #[default]
    Hue,
    /// The heading (direction of the velocity).
    Heading,
    /// The speed |v| (wu/s).
    Speed,
    /// The neighbour count of the last step.
    Neighbours,
}

/// One row of the colour-mode table.
#[derive(Clone, Copy, Debug)]
pub struct ColourModeDesc {
    /// The mode.
    pub mode: ColourMode,
    /// Lower-case name (CLI, scripts, panel).
    pub name: &'static str,
    /// What the colour shows, for a help line or a tooltip.
    pub description: &'static str,
    /// The value of `View.colour_mode` that selects the mode's path in `boid_colour`
    /// (`shaders/render_view.wgsl`).
    pub shader_code: u32,
}

/// Every colour mode, in the order a key cycles them.
pub const COLOUR_MODES: [ColourModeDesc; 4] = [
    ColourModeDesc {
        mode: ColourMode::Hue,
        name: "hue",
        description: "hue vector: the colour the flocking rule steers",
        shader_code: 0,
    },
    ColourModeDesc {
        mode: ColourMode::Heading,
        name: "heading",
        description: "heading: the direction of flight on the hue circle",
        shader_code: 1,
    },
    ColourModeDesc {
        mode: ColourMode::Speed,
        name: "speed",
        description: "speed: slow blue to fast yellow (the model's spawn speed range)",
        shader_code: 2,
    },
    ColourModeDesc {
        mode: ColourMode::Neighbours,
        name: "neighbours",
        description: "neighbour count: none blue to many yellow",
        shader_code: 3,
    },
];

impl ColourMode {
    /// Every mode, in table order.
    pub const ALL: [ColourMode; 4] = [
        ColourMode::Hue,
        ColourMode::Heading,
        ColourMode::Speed,
        ColourMode::Neighbours,
    ];

    /// The mode's row of [`COLOUR_MODES`].
    pub fn desc(self) -> &'static ColourModeDesc {
        COLOUR_MODES
            .iter()
            .find(|d| d.mode == self)
            .expect("every mode has a row")
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        self.desc().name
    }

    /// What the colour shows.
    pub fn description(self) -> &'static str {
        self.desc().description
    }

    /// The shader's code for the mode.
    pub fn shader_code(self) -> u32 {
        self.desc().shader_code
    }

    /// The mode of a name (as [`ColourMode::name`] writes it).
    pub fn parse(name: &str) -> Option<ColourMode> {
        COLOUR_MODES.iter().find(|d| d.name == name).map(|d| d.mode)
    }

    /// The next mode in table order (the last wraps to the first): what the colour key does.
    pub fn next(self) -> ColourMode {
        let i = Self::ALL.iter().position(|m| *m == self).unwrap_or(0);
        Self::ALL[(i + 1) % Self::ALL.len()]
    }

    /// The names joined for messages: `hue, heading, speed, neighbours`.
    pub fn names() -> String {
        COLOUR_MODES
            .iter()
            .map(|d| d.name)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table, `ALL`, the names (also clap's) and the shader codes agree, and codes are
    /// distinct.
    #[test]
    fn the_table_is_whole_and_consistent() {
        assert_eq!(COLOUR_MODES.len(), ColourMode::ALL.len());
        for (d, m) in COLOUR_MODES.iter().zip(ColourMode::ALL) {
            assert_eq!(d.mode, m);
            assert_eq!(ColourMode::parse(d.name), Some(m));
            let clap_name = clap::ValueEnum::to_possible_value(&m).unwrap();
            assert_eq!(clap_name.get_name(), d.name);
            assert!(!d.description.is_empty());
        }
        let mut codes: Vec<u32> = COLOUR_MODES.iter().map(|d| d.shader_code).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), COLOUR_MODES.len());
        assert_eq!(ColourMode::parse("rainbow"), None);
    }

    #[test]
    fn next_cycles_through_every_mode() {
        let mut m = ColourMode::default();
        let mut seen = vec![m];
        for _ in 1..ColourMode::ALL.len() {
            m = m.next();
            seen.push(m);
        }
        assert_eq!(seen, ColourMode::ALL);
        assert_eq!(m.next(), ColourMode::Hue);
    }

    /// The module documentation's table names every mode with its shader code.
    #[test]
    fn the_doc_table_lists_every_mode() {
        let src = include_str!("colour.rs");
        for d in COLOUR_MODES {
            let row = src
                .lines()
                .find(|l| l.starts_with(&format!("//! | `{}` |", d.name)))
                .unwrap_or_else(|| panic!("{} has no doc row", d.name));
            assert!(
                row.trim_end().ends_with(&format!("| {} |", d.shader_code)),
                "{row}"
            );
        }
    }

    /// The shader switches on every code of the table.
    #[test]
    fn the_shader_has_a_path_for_every_code() {
        let wgsl = include_str!("../../shaders/render_view.wgsl");
        for d in COLOUR_MODES {
            let case = format!("case {}u", d.shader_code);
            assert!(
                wgsl.contains(&case),
                "{}: no `{case}` in render_view.wgsl",
                d.name
            );
        }
    }
}
