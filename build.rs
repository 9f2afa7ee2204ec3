//! Records, at build time, which git commit the binary is built from and whether its sources
//! differed from that commit, for `ToolInfo` (`src/bench/sysinfo.rs`) to report:
//!
//! - `BOIDS_GIT_COMMIT`: `git rev-parse HEAD` (40 hex digits);
//! - `BOIDS_GIT_DIRTY`: `true` when a tracked file under [`SOURCES`] (what goes into the binary)
//!   differs from that commit (`git status --porcelain --untracked-files=no -- SOURCES` not
//!   empty), else `false`. Untracked files and edits elsewhere (README, docs, tests) do not count:
//!   they change nothing in the binary, and watching them would rebuild the crate on every edit.
//!
//! Neither is set when the package is not built from a git checkout that tracks its `Cargo.toml`
//! (a crates.io tarball, or an unpacked crate inside some other repository), or when `git` is
//! not installed; `ToolInfo` then reports `None`.
//!
//! Cargo reruns this script when `.git/HEAD`, the branch ref it points to (loose, or
//! `packed-refs`), the index, or any of [`SOURCES`] changes, so a rebuild after a commit, a
//! checkout or an edit updates both values. Paths inside `.git` come from `git rev-parse
//! --git-path`, which also finds them for a linked worktree (whose `.git` is a file).
//!
//! It also writes `$OUT_DIR/scenes.rs`, the app's preset gallery: every `scenes/*.toml`, by file
//! stem and `include_str!`ed, and its thumbnail `scenes/thumbs/<stem>.png` `include_bytes!`ed, so
//! the binary carries the scenes wherever it runs.
//!
//! A hand-written script rather than `vergen-gitcl` or `built`: it is these few lines with no
//! build dependency (`built`'s git support links libgit2), and it can scope the dirty flag to the
//! compiled sources and watch the exact git files above.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Tracked paths whose content is compiled into the binary (the shaders and scenes are
/// `include_str!`ed, the plot font `include_bytes!`ed from `src/`).
const SOURCES: [&str; 6] = [
    "build.rs",
    "Cargo.toml",
    "Cargo.lock",
    "src",
    "shaders",
    "scenes",
];

/// `git -C dir ARGS` without taking optional locks (so `status` never rewrites the index while
/// Cargo watches it); its trimmed stdout when it succeeds.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("--no-optional-locks")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The file git keeps `name` in (`HEAD`, `index`, `refs/heads/main`, …), absolute.
fn git_path(dir: &Path, name: &str) -> Option<PathBuf> {
    let p = PathBuf::from(git(dir, &["rev-parse", "--git-path", name])?);
    Some(if p.is_absolute() { p } else { dir.join(p) })
}

/// Writes `$OUT_DIR/scenes.rs`: `SCENE_FILES`, each scene of `scenes/` as (stem, text), by name.
fn scene_table(dir: &Path) {
    let mut scenes: Vec<(String, PathBuf)> = std::fs::read_dir(dir.join("scenes"))
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                .filter_map(|p| Some((p.file_stem()?.to_str()?.to_string(), p)))
                .collect()
        })
        .unwrap_or_default();
    scenes.sort();
    let mut out = String::from(
        "/// Every scene of `scenes/` (written by build.rs): its file stem and its text.\n\
         pub static SCENE_FILES: &[(&str, &str)] = &[\n",
    );
    for (stem, path) in &scenes {
        out.push_str(&format!(
            "    ({stem:?}, include_str!({:?})),\n",
            path.display().to_string()
        ));
    }
    out.push_str("];\n");
    out.push_str(
        "/// The gallery's thumbnail of each scene that has one, `scenes/thumbs/<stem>.png`\n\
         /// (written by build.rs; made by scripts/thumbnails.sh): its stem and its bytes.\n\
         pub static SCENE_THUMBS: &[(&str, &[u8])] = &[\n",
    );
    for (stem, path) in &scenes {
        let thumb = path
            .parent()
            .map(|d| d.join("thumbs").join(format!("{stem}.png")));
        if let Some(t) = thumb.filter(|t| t.is_file()) {
            out.push_str(&format!(
                "    ({stem:?}, include_bytes!({:?})),\n",
                t.display().to_string()
            ));
        }
    }
    out.push_str("];\n");
    let target =
        PathBuf::from(std::env::var_os("OUT_DIR").expect("set by Cargo")).join("scenes.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}

fn main() {
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by Cargo"));
    for s in SOURCES {
        println!("cargo:rerun-if-changed={s}");
    }
    scene_table(&dir);
    let tracked = git(&dir, &["ls-files", "--", "Cargo.toml"]).is_some_and(|s| !s.is_empty());
    let commit = tracked
        .then(|| git(&dir, &["rev-parse", "HEAD"]))
        .flatten()
        .filter(|c| c.len() == 40 && c.chars().all(|ch| ch.is_ascii_hexdigit()));
    let Some(commit) = commit else {
        return;
    };
    let mut watched = vec!["HEAD".to_string(), "index".into(), "packed-refs".into()];
    if let Some(branch) = git(&dir, &["symbolic-ref", "-q", "HEAD"]) {
        watched.push(branch);
    }
    for name in &watched {
        // A missing file would make Cargo rerun the script on every build; a branch ref that is
        // only in `packed-refs` is covered by watching that file.
        if let Some(p) = git_path(&dir, name).filter(|p| p.exists()) {
            println!("cargo:rerun-if-changed={}", p.display());
        }
    }
    let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
    status.extend(SOURCES);
    // Unknown (git failed) is not reported as clean: the variable is then left unset.
    if let Some(changes) = git(&dir, &status) {
        println!("cargo:rustc-env=BOIDS_GIT_DIRTY={}", !changes.is_empty());
    }
    println!("cargo:rustc-env=BOIDS_GIT_COMMIT={commit}");
}
