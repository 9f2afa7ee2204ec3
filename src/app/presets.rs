//! The preset gallery: every scene of `scenes/`, built into the binary (build.rs writes the table),
//! by file stem — the panel's gallery and the script's `preset NAME` load one as the panel's Load
//! button loads a scene file (`AppState`'s scene start, through the run layer). A scene's first
//! comment line is its description in the gallery, in plain words; its thumbnail is
//! `scenes/thumbs/<name>.png` (160 × 90 px, remade by `scripts/thumbnails.sh`). The gallery shows
//! them in [`GALLERY_ORDER`]: boids first, then fish, the Vicsek models, Couzin's states.

use std::path::PathBuf;

use crate::formats::scene::Scene;
use crate::formats::scene::SceneError;

include!(concat!(env!("OUT_DIR"), "/scenes.rs"));

/// The order of the panel's gallery: the boids scenes from the default up, then the fish, the
/// Vicsek models and Couzin's collective states (every scene once; a test holds it to `scenes/`).
pub const GALLERY_ORDER: &[&str] = &[
    "flocks",
    "million",
    "predators",
    "interactive",
    "steering_capped",
    "trees",
    "fish_school",
    "fish_program",
    "fish_box",
    "vicsek",
    "vicsek_topological",
    "vicsek_vectorial",
    "vicsek_voronoi",
    "vicsek_voronoi_vectorial",
    "couzin_torus",
    "couzin_swarm",
    "couzin_parallel",
    "couzin_highly_parallel",
];

/// Side lengths of a gallery thumbnail (px).
pub const THUMB_SIZE: [u32; 2] = [160, 90];

/// One scene of the gallery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// Its file stem (`vicsek`): the name the script's `preset` takes.
    pub name: &'static str,
    /// The scene file's text.
    pub text: &'static str,
}

/// The preset the app and `boids snapshot` start without `--scene`: `scenes/flocks.toml`, the
/// boids model with weights of its own, tuned for the first view (docs/model.md §3.1).
pub const DEFAULT_SCENE: &str = "flocks";

/// [`DEFAULT_SCENE`], parsed (a build without the file would start from the built-in defaults).
///
/// # Errors
/// [`SceneError`] if the file does not parse (the tests parse every preset first).
pub fn default_scene() -> Result<Scene, SceneError> {
    Preset::find(DEFAULT_SCENE)
        .map(|p| p.scene())
        .unwrap_or_else(|| Scene::parse("", std::path::Path::new("scenes/flocks.toml")))
}

impl Preset {
    /// The presets in the gallery's order ([`GALLERY_ORDER`]; any scene it does not list last).
    pub fn gallery() -> Vec<Preset> {
        let mut all: Vec<Preset> = Preset::all().collect();
        all.sort_by_key(|p| {
            GALLERY_ORDER
                .iter()
                .position(|n| *n == p.name)
                .unwrap_or(usize::MAX)
        });
        all
    }

    /// The thumbnail's PNG bytes ([`THUMB_SIZE`]), when the scene has one.
    pub fn thumbnail(&self) -> Option<&'static [u8]> {
        SCENE_THUMBS
            .iter()
            .find(|(n, _)| *n == self.name)
            .map(|(_, b)| *b)
    }

    /// Every preset, by name.
    pub fn all() -> impl Iterator<Item = Preset> {
        SCENE_FILES
            .iter()
            .map(|&(name, text)| Preset { name, text })
    }

    /// The preset named `name` (a file stem of `scenes/`).
    pub fn find(name: &str) -> Option<Preset> {
        Preset::all().find(|p| p.name == name)
    }

    /// Every preset's name, for messages.
    pub fn names() -> String {
        Preset::all().map(|p| p.name).collect::<Vec<_>>().join(", ")
    }

    /// The scene's first comment line, without its `#`.
    pub fn description(&self) -> &'static str {
        self.text
            .lines()
            .map(str::trim)
            .find(|l| l.starts_with('#'))
            .map_or("", |l| l.trim_start_matches('#').trim())
    }

    /// Where the scene lives in the repository (`scenes/vicsek.toml`): how its errors name it.
    pub fn path(&self) -> PathBuf {
        PathBuf::from(format!("scenes/{}.toml", self.name))
    }

    /// The scene, parsed.
    ///
    /// # Errors
    /// [`SceneError`] naming `scenes/NAME.toml`, the line and the key (a scene of the repository
    /// that does not parse fails its tests first).
    pub fn scene(&self) -> Result<Scene, SceneError> {
        Scene::parse(self.text, &self.path())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gallery holds every scene file of the repository, each parses and has a description.
    #[test]
    fn the_gallery_lists_every_preset_once_each_with_its_thumbnail() {
        let mut listed = GALLERY_ORDER.to_vec();
        listed.sort();
        let names: Vec<&str> = Preset::all().map(|p| p.name).collect();
        assert_eq!(listed, names, "GALLERY_ORDER against scenes/");
        let shown: Vec<&str> = Preset::gallery().iter().map(|p| p.name).collect();
        assert_eq!(shown, GALLERY_ORDER);
        for p in Preset::all() {
            let bytes = p
                .thumbnail()
                .unwrap_or_else(|| panic!("{}: no scenes/thumbs/{0}.png", p.name));
            let img = image::load_from_memory(bytes).unwrap();
            assert_eq!([img.width(), img.height()], THUMB_SIZE, "{}", p.name);
        }
    }

    #[test]
    fn every_scene_file_is_a_preset_with_a_description() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
            .collect();
        on_disk.sort();
        let names: Vec<&str> = Preset::all().map(|p| p.name).collect();
        assert_eq!(names, on_disk);
        for p in Preset::all() {
            p.scene().unwrap_or_else(|e| panic!("{}: {e}", p.name));
            let d = p.description();
            assert!(
                (20..=100).contains(&d.chars().count()),
                "{}: a one-line description, not {d:?}",
                p.name
            );
        }
        for want in [
            "flocks",
            "vicsek",
            "fish_school",
            "trees",
            "predators",
            "million",
        ] {
            assert!(Preset::find(want).is_some(), "{want}");
        }
        assert!(Preset::find("nope").is_none());
    }

    /// The scenes about flocks start formed in the app; the Vicsek box starts as the paper's
    /// uniform random state, Couzin's states as one group.
    #[test]
    fn scenes_about_flocks_start_formed() {
        use crate::model::spawn::Spawn;
        for name in ["flocks", "predators", "trees", "million", "fish_school"] {
            let s = Preset::find(name).unwrap().scene().unwrap();
            assert_eq!(s.spawn, Some(Spawn::Flocks), "{name}");
        }
        let s = Preset::find("vicsek").unwrap().scene().unwrap();
        assert_eq!(s.spawn, None);
        // Couzin's states start as one group, as the paper's do.
        for name in GALLERY_ORDER.iter().filter(|n| n.starts_with("couzin")) {
            let s = Preset::find(name).unwrap().scene().unwrap();
            assert_eq!(s.spawn, Some(Spawn::Group), "{name}");
        }
    }
}
