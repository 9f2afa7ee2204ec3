//! The page's URL parameters read as the command line's options: what a link to the web app
//! carries (count, preset, model, `set=KEY=VALUE`, seed, …; [`URL_PARAMETERS`]), refused with the
//! command line's own message where the command line would refuse it.

use crate::app::args::{AppBackend, RunArgs};
use crate::app::presets::Preset;
use clap::Parser;

/// The URL parameters the app reads, each with the command-line option it stands for.
pub const URL_PARAMETERS: &[(&str, &str)] = &[
    ("boids", "--boids N"),
    ("preset", "a built-in scene (scenes/NAME.toml), as --scene"),
    ("model", "--set model=NAME"),
    ("set", "--set KEY=VALUE (repeatable)"),
    ("seed", "--seed N"),
    (
        "backend",
        "--backend gpu (the CPU backend needs threads a tab does not have)",
    ),
    ("clock", "--clock real-time|per-frame"),
    ("rasteriser", "--rasteriser auto|instanced|compute"),
    ("theme", "--theme dark|light"),
    ("colour", "--colour MODE"),
    ("trails", "--trails (1)"),
    ("panel", "--panel (1)"),
];

/// Parameters of the page itself, not the app's (its test's time limit).
const PAGE_PARAMETERS: &[&str] = &["timeout"];

/// The app's options as the command line reads them.
#[derive(Parser)]
#[command(name = "boids", no_binary_name = false)]
struct WebCli {
    #[command(flatten)]
    run: RunArgs,
}

/// What a page's URL asked for: the app's options and the preset to start from.
pub struct Asked {
    /// The app's options.
    pub args: RunArgs,
    /// The built-in scene to start from (its path is also `args.setup.scene`).
    pub preset: Option<Preset>,
}

/// Reads the URL's parameters (`key=value` pairs, already decoded) as the command line.
///
/// # Errors
/// The message of the first parameter refused: unknown, malformed, or refused by the command
/// line's parser (its own words).
pub fn read(params: &[(String, String)]) -> Result<Asked, String> {
    let mut argv = vec!["boids".to_string()];
    let mut preset = None;
    for (k, v) in params {
        let flag = |on: &str| match v.as_str() {
            "1" | "true" | "" => Ok(vec![on.to_string()]),
            "0" | "false" => Ok(vec![]),
            _ => Err(format!("URL parameter {k}={v}: 1 or 0")),
        };
        let more = match k.as_str() {
            // rayon's pool cannot start threads in a tab: the CPU backend never steps there.
            "backend" if v == "cpu" => Err("URL parameter backend=cpu: the CPU backend needs \
                 threads, which a browser tab does not have (the native app has it); the web app \
                 steps on the GPU"
                .to_string()),
            "boids" | "seed" | "backend" | "theme" | "colour" | "clock" | "rasteriser" => {
                Ok(vec![format!("--{k}"), v.clone()])
            }
            "model" => Ok(vec!["--set".into(), format!("model={v}")]),
            "set" => Ok(vec!["--set".into(), v.clone()]),
            "trails" => flag("--trails"),
            "panel" => flag("--panel"),
            "preset" => match Preset::find(v) {
                Some(p) => {
                    preset = Some(p);
                    Ok(vec![])
                }
                None => Err(format!(
                    "URL parameter preset={v}: no such preset (presets: {})",
                    Preset::names()
                )),
            },
            _ if PAGE_PARAMETERS.contains(&k.as_str()) => Ok(vec![]),
            _ => Err(format!(
                "unknown URL parameter {k} (the app reads: {})",
                URL_PARAMETERS
                    .iter()
                    .map(|(k, _)| *k)
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }?;
        argv.extend(more);
    }
    let cli = WebCli::try_parse_from(&argv).map_err(|e| {
        // clap's message, as the command line prints it, without its usage lines.
        let text = e.render().to_string();
        // Nor its pointer to `--help`, which a page has not.
        let first: Vec<&str> = text
            .lines()
            .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
            .filter(|l| !l.trim().is_empty())
            .collect();
        format!("URL parameters: {}", first.join(" "))
    })?;
    let mut args = cli.run;
    // What the app would refuse once started is refused here, so the page can say it and start.
    if let Some(n) = args.boids {
        crate::model::validate_boid_count(n).map_err(|e| format!("URL parameter {e}"))?;
    }
    // The app's own setup, as it will make it (the settings, then the whole validated: a value
    // in range alone may be out of range for the model it sets, `vicsek_eta=99`), at the count
    // a software adapter's app starts with when the URL gives none, and a 16 : 9 page.
    let scene = match &preset {
        Some(p) => Some(p.scene().map_err(|e| e.to_string())?),
        None => None,
    };
    crate::app::start::app_setup(
        scene.as_ref(),
        &args.setup.overrides(args.boids),
        crate::app::args::DEFAULT_BOIDS_SOFTWARE,
        16.0 / 9.0,
        args.spawn,
    )
    .map_err(|e| format!("URL parameters: {e}"))?;
    if let Some(p) = &preset {
        args.setup.scene = Some(p.path());
    }
    // A tab's app steps on the GPU unless asked: the CPU backend has no threads there.
    if args.backend.is_none() {
        args.backend = Some(AppBackend::Gpu);
    }
    Ok(Asked { args, preset })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kv(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn parameters_read_as_the_command_line() {
        let a = read(&kv(&[
            ("boids", "3000"),
            ("preset", "vicsek"),
            ("set", "vicsek_eta=0.5"),
            ("seed", "7"),
            ("panel", "1"),
            ("timeout", "60"),
        ]))
        .unwrap();
        assert_eq!(a.args.boids, Some(3000));
        assert_eq!(a.preset.map(|p| p.name), Some("vicsek"));
        assert_eq!(a.args.setup.seed, Some(7));
        assert_eq!(a.args.setup.set.len(), 1);
        assert!(a.args.panel);
        assert!(matches!(a.args.backend, Some(AppBackend::Gpu)));
    }

    #[test]
    fn a_bad_parameter_gets_the_command_lines_message() {
        let e = read(&kv(&[("boids", "many")])).err().unwrap();
        assert!(
            e.contains("--boids") && e.contains("not a boid count") && !e.contains("--help"),
            "{e}"
        );
        let e = read(&kv(&[("boids", "0")])).err().unwrap();
        assert!(e.contains("boids") && e.contains('0'), "{e}");
        let e = read(&kv(&[("set", "vicsek_eta=-3")])).err().unwrap();
        assert!(e.contains("vicsek_eta"), "{e}");
        // In range for the parameter's type, out of range for the model it sets: refused here,
        // where the page can say it and start without it, not when the app opens.
        let e = read(&kv(&[("model", "vicsek"), ("set", "vicsek_eta=99")]))
            .err()
            .unwrap();
        assert!(
            e.contains("vicsek_eta") && e.contains("out of range") && e.contains("6.28"),
            "{e}"
        );
        assert!(read(&kv(&[("model", "vicsek"), ("set", "vicsek_eta=1.5")])).is_ok());
        let e = read(&kv(&[("model", "nope")])).err().unwrap();
        assert!(e.contains("model"), "{e}");
        let e = read(&kv(&[("preset", "nope")])).err().unwrap();
        assert!(e.contains("no such preset") && e.contains("vicsek"), "{e}");
        let e = read(&kv(&[("speed", "3")])).err().unwrap();
        assert!(e.contains("unknown URL parameter speed"), "{e}");
        let e = read(&kv(&[("set", "nonsense")])).err().unwrap();
        assert!(e.contains("KEY=VALUE") || e.contains("="), "{e}");
        let e = read(&kv(&[("backend", "cpu")])).err().unwrap();
        assert!(e.contains("needs threads"), "{e}");
        let e = read(&kv(&[("clock", "often")])).err().unwrap();
        assert!(e.contains("--clock"), "{e}");
        let e = read(&kv(&[("trails", "yes")])).err().unwrap();
        assert!(e.contains("1 or 0"), "{e}");
    }
}
