//! The command-line parts every command that runs a simulation shares: `--scene`, `--seed` and the
//! repeatable `--set KEY=VALUE` ([`SetupArgs`]), and the parsers of boid counts and settings.

use std::path::PathBuf;

pub use crate::run::spec::Set;

/// `--scene`, `--seed` and `--set`, flattened into `run`, `headless`, `snapshot`, `bench` and
/// `sweep` (each command keeps its own `--boids`: their defaults differ).
#[derive(clap::Args, Debug, Clone, Default, PartialEq)]
pub struct SetupArgs {
    /// Scene file (TOML, at most 16 MiB): parameters, boid count, seed, obstacles, predators.
    #[arg(long)]
    pub scene: Option<PathBuf>,
    /// Random seed (default: a checkpoint's, the scene's, else 1).
    #[arg(long)]
    pub seed: Option<u32>,
    /// Sets a parameter, KEY=VALUE, as a scene's `[params]` would (any key of docs/model.md
    /// §3.1: `--set vicsek_eta=1.5 --set boundary=walls`); repeatable; applied last, over the
    /// scene and a checkpoint, and checked like a scene key (field, value, allowed range; an
    /// unknown key names the nearest known ones), and more: a key the model or the neighbourhood
    /// does not use is refused (a scene may keep such keys, for another model it switches to).
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = parse_set)]
    pub set: Vec<Set>,
    /// With a scene that fixes its world and gives a count: keep the world as written when
    /// --boids differs (the density changes). Without it the world, obstacles and predators are
    /// scaled by √(N/N_scene), keeping the scene's density.
    #[arg(long, requires = "scene")]
    pub keep_world: bool,
}

impl SetupArgs {
    /// What these options set over the files, with the command's own `--boids`.
    pub fn overrides(&self, boids: Option<usize>) -> crate::run::spec::Overrides<'_> {
        crate::run::spec::Overrides {
            boids,
            seed: self.seed,
            sets: &self.set,
            keep_world: self.keep_world,
        }
    }
}

/// Parses `KEY=VALUE` (spaces around either are trimmed).
///
/// # Errors
/// A message for a missing `=`, key or value.
pub fn parse_set(s: &str) -> Result<Set, String> {
    let (key, value) = s.split_once('=').ok_or_else(|| {
        format!(
            "{:?} is not KEY=VALUE (e.g. vicsek_eta=1.5)",
            crate::io::clip(s)
        )
    })?;
    let (key, value) = (key.trim(), value.trim());
    if key.is_empty() || value.is_empty() {
        return Err(format!(
            "{:?}: give both a key and a value (e.g. vicsek_eta=1.5)",
            crate::io::clip(s)
        ));
    }
    Ok(Set {
        key: key.to_string(),
        value: value.to_string(),
    })
}

/// Parses a boid count: digits with an optional `k` (×1000) or `M` (×1 000 000) suffix.
///
/// # Errors
/// A message for anything else.
pub fn parse_count(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let (num, mult) = if let Some(x) = t.strip_suffix(['k', 'K']) {
        (x, 1_000)
    } else if let Some(x) = t.strip_suffix('M') {
        (x, 1_000_000)
    } else {
        (t, 1)
    };
    let digits = !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit());
    match num.parse::<usize>().ok().and_then(|v| v.checked_mul(mult)) {
        Some(n) => Ok(n),
        // Too many to count: the limit, as a count past it (but countable) is told.
        None if digits => Err(format!(
            "{:?} is more boids than any backend holds: allowed 1 ..= {}",
            crate::io::clip(s),
            crate::model::MAX_BOIDS
        )),
        None => Err(format!(
            "{:?} is not a boid count: a whole number, with k (×1000) or M (×1 000 000) if you \
             like (e.g. 5000, 10k, 1M; 1500 for 1.5k)",
            crate::io::clip(s)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_and_counts() {
        assert_eq!(
            parse_set(" vicsek_eta = 1.5 "),
            Ok(Set {
                key: "vicsek_eta".into(),
                value: "1.5".into()
            })
        );
        assert!(parse_set("vicsek_eta").unwrap_err().contains("KEY=VALUE"));
        assert!(parse_set("=1").unwrap_err().contains("both"));
        assert_eq!(parse_count("10k"), Ok(10_000));
        assert_eq!(parse_count("1M"), Ok(1_000_000));
        assert_eq!(parse_count(" 500 "), Ok(500));
        assert!(parse_count("1.5k").unwrap_err().contains("1500 for 1.5k"));
        // Too many to count is told the limit, as a countable count past it is.
        let e = parse_count("99999999999999999999").unwrap_err();
        assert!(e.contains("allowed 1 ..= 67108864"), "{e}");
        assert!(parse_count("99999999999999999M")
            .unwrap_err()
            .contains("allowed"));
    }
}
