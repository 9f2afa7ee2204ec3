//! Helpers of the capture tests: a fresh temporary folder, `frames.csv` reading, statistics
//! recomputed independently of `boids::bench::stats`, a small XML well-formedness check, and the
//! lines, texts and tick labels of a plotters SVG.

use std::collections::BTreeMap;
use std::path::Path;

use tempfile::TempDir;

/// A new empty folder under the system temp dir (`boids-bench-<name>-XXXXXX`), removed when the
/// returned guard drops.
pub fn fresh_dir(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("boids-bench-{name}-"))
        .tempdir()
        .unwrap()
}

/// `frames.csv`: header and rows (as strings).
pub fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r
        .records()
        .map(|x| x.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

/// `wall_ms` values by (backend, boids), in file order.
pub fn wall_by_run(rows: &[Vec<String>]) -> BTreeMap<(String, usize), Vec<f64>> {
    let mut m: BTreeMap<(String, usize), Vec<f64>> = BTreeMap::new();
    for r in rows {
        m.entry((r[0].clone(), r[1].parse().unwrap()))
            .or_default()
            .push(r[3].parse().unwrap());
    }
    m
}

/// Reference statistics (numpy's linear percentile; 1 % low from the slowest ⌈n/100⌉ samples):
/// (mean, median, p95, p99, max, fps, 1 % low fps).
pub fn reference_stats(v: &[f64]) -> [f64; 7] {
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = s.len();
    let pct = |q: f64| {
        let h = (n - 1) as f64 * q / 100.0;
        let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
        s[lo] + (h - lo as f64) * (s[hi] - s[lo])
    };
    let mean = s.iter().sum::<f64>() / n as f64;
    let k = n.div_ceil(100);
    let worst = s[n - k..].iter().sum::<f64>() / k as f64;
    [
        mean,
        pct(50.0),
        pct(95.0),
        pct(99.0),
        s[n - 1],
        1000.0 / mean,
        1000.0 / worst,
    ]
}

/// Checks a summary run (JSON) against the reference statistics of its CSV rows.
pub fn assert_run_matches(run: &serde_json::Value, wall: &[f64]) {
    let r = reference_stats(wall);
    let names = [
        "mean_ms",
        "median_ms",
        "p95_ms",
        "p99_ms",
        "max_ms",
        "fps",
        "low_1pct_fps",
    ];
    assert_eq!(run["samples"].as_u64(), Some(wall.len() as u64), "{run}");
    for (name, want) in names.iter().zip(r) {
        let got = run[name]
            .as_f64()
            .unwrap_or_else(|| panic!("{name} missing in {run}"));
        assert!(
            (got - want).abs() <= 1e-9 * want.abs().max(1.0),
            "{name}: summary {got}, recomputed from CSV {want}"
        );
    }
    let boids = run["boids"].as_f64().unwrap();
    let bsps = run["boid_steps_per_s"].as_f64().unwrap();
    assert!((bsps - boids * 1000.0 / r[0]).abs() <= 1e-6 * bsps);
}

/// Panics unless `text` is well-formed XML as far as tags go: every element closed in order,
/// attribute quotes balanced, one root.
pub fn assert_xml_well_formed(text: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut roots = 0;
    let mut rest = text;
    while let Some(i) = rest.find('<') {
        let after = &rest[i + 1..];
        if after.starts_with("?") || after.starts_with("!") {
            let end = after.find('>').expect("unclosed declaration");
            rest = &after[end + 1..];
            continue;
        }
        // Find the closing '>' outside quotes.
        let mut quote = None;
        let mut end = None;
        for (k, c) in after.char_indices() {
            match (quote, c) {
                (None, '"' | '\'') => quote = Some(c),
                (Some(q), c) if c == q => quote = None,
                (None, '>') => {
                    end = Some(k);
                    break;
                }
                (None, '<') => panic!("'<' inside a tag near {:?}", &after[..k.min(80)]),
                _ => {}
            }
        }
        let end = end.expect("unclosed tag");
        let tag = &after[..end];
        if let Some(name) = tag.strip_prefix('/') {
            let open = stack.pop().unwrap_or_else(|| panic!("stray </{name}>"));
            assert_eq!(open, name.trim(), "mismatched closing tag");
        } else {
            let name: String = tag
                .chars()
                .take_while(|c| !c.is_whitespace() && *c != '/')
                .collect();
            assert!(!name.is_empty(), "empty tag name");
            if stack.is_empty() {
                roots += 1;
            }
            if !tag.ends_with('/') {
                stack.push(name);
            }
        }
        rest = &after[end + 1..];
    }
    assert!(stack.is_empty(), "unclosed elements: {stack:?}");
    assert_eq!(roots, 1, "expected one root element");
}

/// The `<polyline>` elements of an SVG: (stroke colour upper-cased, number of points).
pub fn polylines(svg: &str) -> Vec<(String, usize)> {
    svg.split("<polyline")
        .skip(1)
        .map(|p| {
            let tag = &p[..p.find('>').unwrap()];
            let attr = |name: &str| -> String {
                let k = format!("{name}=\"");
                let s =
                    &tag[tag.find(&k).unwrap_or_else(|| panic!("no {name}: {tag}")) + k.len()..];
                s[..s.find('"').unwrap()].to_string()
            };
            (
                attr("stroke").to_uppercase(),
                attr("points").split_whitespace().count(),
            )
        })
        .collect()
}

/// A `<text>` element of an SVG: its attributes and its content (trimmed, entities decoded).
#[derive(Clone, Debug)]
pub struct SvgText {
    /// `text-anchor`.
    pub anchor: String,
    /// `fill`, upper-cased.
    pub fill: String,
    /// `transform`, empty when none (rotated axis titles have one).
    pub transform: String,
    /// The text.
    pub content: String,
}

fn attr(tag: &str, name: &str) -> Option<String> {
    let k = format!(" {name}=\"");
    let s = &tag[tag.find(&k)? + k.len()..];
    Some(s[..s.find('"')?].to_string())
}

/// Every `<text>` element of `svg`, in document order.
pub fn svg_texts(svg: &str) -> Vec<SvgText> {
    svg.split("<text")
        .skip(1)
        .map(|p| {
            let end = p.find('>').unwrap();
            let tag = &p[..end];
            let body = &p[end + 1..p.find("</text>").expect("unclosed <text>")];
            SvgText {
                anchor: attr(tag, "text-anchor").unwrap_or_default(),
                fill: attr(tag, "fill").unwrap_or_default().to_uppercase(),
                transform: attr(tag, "transform").unwrap_or_default(),
                content: body
                    .trim()
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&quot;", "\"")
                    .replace("&amp;", "&"),
            }
        })
        .collect()
}

/// The value of a time label as written by `boids::stats::format::format_ms` ("412 ns",
/// "1.23 ms"), in ms; `None` for any other text. Parsed here, not by the library, so a label
/// that says the wrong value is caught.
pub fn parse_time_label(s: &str) -> Option<f64> {
    let (num, unit) = s.split_once(' ')?;
    let scale = match unit {
        "ns" => 1e-6,
        "µs" => 1e-3,
        "ms" => 1.0,
        "s" => 1e3,
        _ => return None,
    };
    let v: f64 = num.parse().ok()?;
    Some(v * scale)
}

/// The time-axis tick labels of a plot drawn by `boids::bench::plot`: the dark texts anchored at
/// their end (right-aligned left of the axis).
pub fn time_ticks(svg: &str) -> Vec<String> {
    svg_texts(svg)
        .into_iter()
        .filter(|t| t.anchor == "end" && t.transform.is_empty() && t.fill == "#1E1E1E")
        .map(|t| t.content)
        .collect()
}

/// Panics when tick labels repeat, or one is not a positive time (e.g. "0" on a log axis).
pub fn assert_time_ticks_sound(ticks: &[String], plot: &str) {
    assert!(ticks.len() >= 2, "{plot}: too few time ticks {ticks:?}");
    let mut sorted = ticks.to_vec();
    sorted.sort();
    sorted.dedup();
    assert_eq!(
        sorted.len(),
        ticks.len(),
        "{plot}: repeated tick labels {ticks:?}"
    );
    for t in ticks {
        let v = parse_time_label(t).unwrap_or_else(|| panic!("{plot}: tick {t:?} is not a time"));
        assert!(v > 0.0, "{plot}: tick {t:?} on a log axis");
    }
}

/// Panics unless `label` is the time `ms` to 3 significant digits (within half a unit of the third
/// digit: 0.5 % relative) and not "0".
pub fn assert_time_label(label: &str, ms: f64, what: &str) {
    let v = parse_time_label(label).unwrap_or_else(|| panic!("{what}: {label:?} is not a time"));
    assert!(
        v > 0.0 && (v - ms).abs() <= 0.0051 * ms,
        "{what}: label {label:?} for {ms} ms"
    );
}

/// The cells of a row of a text table of `boids::bench::compare` (columns are separated by at
/// least two spaces; a time such as "1.05 ms" holds one).
pub fn table_cells(line: &str) -> Vec<String> {
    line.split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(String::from)
        .collect()
}
