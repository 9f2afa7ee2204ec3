//! Pointer tools as a table (docs/model.md §6.4–§6.5, §18): each tool is one file here holding its
//! [`ToolDesc`] — its names, its reach, and what it does when the left button goes down, drags,
//! goes up or is held — and one line in [`TOOLS`]. The number keys (1, 2, …, in [`TOOLS`]'s
//! order), the tool bar, the panel's radius sliders, the pointer's overlay, the script's `tool`
//! command, the run report and the help all read the table, so a new tool is its file and its line.

pub mod add;
pub mod attract;
pub mod desc;
pub mod eraser;
pub mod obstacle;
pub mod predator;
pub mod repel;

pub use desc::{ToolDesc, ToolHost, NO_TOOL};
pub use obstacle::resample_stroke;
pub use predator::{drag_velocity, predator_radius, PREDATOR_WORLD_FRACTION};

/// Every tool, in the order of their number keys and of the tool bar.
pub const TOOLS: &[&ToolDesc] = &[
    &add::TOOL,
    &obstacle::TOOL,
    &eraser::TOOL,
    &attract::TOOL,
    &repel::TOOL,
    &predator::TOOL,
];

/// A tool of [`TOOLS`], by its place there (the first, `add`, by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Tool(usize);

impl Tool {
    /// Every tool, in [`TOOLS`]'s order.
    pub fn all() -> impl Iterator<Item = Tool> {
        (0..TOOLS.len()).map(Tool)
    }

    /// Its entry in [`TOOLS`].
    pub fn desc(self) -> &'static ToolDesc {
        TOOLS[self.0.min(TOOLS.len() - 1)]
    }

    /// Name as written in scripts and reports ([`ToolDesc::name`]).
    pub fn name(self) -> &'static str {
        self.desc().name
    }

    /// The tool bar's word ([`ToolDesc::short`]).
    pub fn short(self) -> &'static str {
        self.desc().short
    }

    /// Human label ([`ToolDesc::label`]).
    pub fn label(self) -> &'static str {
        self.desc().label
    }

    /// The default radius on screen of a tool with one ([`ToolDesc::radius_px`]).
    pub fn default_radius_px(self) -> Option<f32> {
        self.desc().radius_px
    }

    /// Its place in [`TOOLS`] (its number key is this plus one).
    pub fn index(self) -> usize {
        self.0
    }

    /// The tool at `index` of [`TOOLS`], if there is one.
    pub fn at(index: usize) -> Option<Tool> {
        (index < TOOLS.len()).then_some(Tool(index))
    }

    /// Parses a script name ([`ToolDesc::name`], or its alias).
    pub fn parse(s: &str) -> Option<Tool> {
        Tool::all().find(|t| t.name() == s || t.desc().alias == Some(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_the_tool_bar_and_old_names_still_parse() {
        for t in Tool::all() {
            assert_eq!(t.name(), t.short().to_lowercase());
            assert_eq!(Tool::parse(t.name()), Some(t));
            assert_eq!(Tool::at(t.index()), Some(t));
            assert!(!t.label().is_empty() && !t.desc().help.is_empty());
        }
        assert_eq!(Tool::parse("draw"), Tool::parse("obstacle"));
        assert_eq!(Tool::parse("erase"), Tool::parse("eraser"));
        assert!(Tool::parse("draw").is_some());
        assert_eq!(Tool::parse("hammer"), None);
        assert_eq!(Tool::at(TOOLS.len()), None);
        assert_eq!(Tool::default().name(), "add");
    }

    /// Every tool has a reach the pointer's circle can show: a radius on screen or one in the
    /// world, except the obstacle pen, which draws where the pointer is.
    #[test]
    fn a_tool_has_one_reach_at_most() {
        for t in TOOLS {
            assert!(
                t.radius_px.is_none() || t.reach_wu.is_none(),
                "{}: a radius on screen and one in the world",
                t.name
            );
        }
    }
}
