//! Module and item docs that name the step's stages name them as `boids::stages::STAGES` has them: a doc
//! paragraph that lists the passes of a step (it names `clear`, `count` and `scan`) names every
//! step stage and no other, and no doc counts the stages with another number. The check
//! is shown to fail on planted paragraphs. And docs/architecture.md lists every file of `src/`
//! `python/src/` and `crates/gsd/src/` longer than 800 lines, with its count (within a tenth).

use std::path::{Path, PathBuf};

use boids::stages::step_stage_names;

/// The doc paragraphs (runs of `//!` or `///` lines) of a source text, each with its first line.
fn paragraphs(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut cur: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        let doc = t.strip_prefix("//!").or_else(|| t.strip_prefix("///"));
        match doc.map(str::trim) {
            Some(d) if !d.is_empty() => {
                let p = cur.get_or_insert((i + 1, String::new()));
                p.1.push(' ');
                p.1.push_str(d);
            }
            _ => out.extend(cur.take()),
        }
    }
    out.extend(cur);
    out
}

/// What is wrong with one paragraph, if anything.
fn fault(paragraph: &str, stages: &[&str]) -> Option<String> {
    let named: Vec<&str> = paragraph
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| stages.contains(w))
        .collect();
    let lists = ["clear", "count", "scan"].iter().all(|s| named.contains(s));
    if lists {
        let missing: Vec<&str> = stages
            .iter()
            .copied()
            .filter(|s| !named.contains(s))
            .collect();
        if !missing.is_empty() {
            return Some(format!(
                "names some stages of the step but not {missing:?} (the step runs {stages:?})"
            ));
        }
    }
    let words = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve",
    ];
    let lower = paragraph.to_lowercase();
    let tokens: Vec<&str> = lower.split_whitespace().collect();
    for pair in tokens.windows(3) {
        let n = words
            .iter()
            .position(|w| *w == pair[0])
            .map(|k| k + 1)
            .or_else(|| pair[0].parse::<usize>().ok());
        let counts_stages = pair[1].starts_with("stages")
            || (pair[1] == "compute" && pair[2].starts_with("passes"));
        if let Some(n) = n.filter(|_| counts_stages) {
            if n != stages.len() {
                return Some(format!(
                    "counts {n} stages or passes; the step runs {}",
                    stages.len()
                ));
            }
        }
    }
    None
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn docs_that_name_the_steps_stages_name_those_of_the_table() {
    let stages = step_stage_names();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for d in ["src", "python/src", "benches"] {
        rust_files(&root.join(d), &mut files);
    }
    assert!(files.len() > 100, "{} files", files.len());
    let mut faults = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (line, p) in paragraphs(&text) {
            if let Some(why) = fault(&p, &stages) {
                let shown = f.strip_prefix(&root).unwrap().display();
                faults.push(format!("{shown}:{line}: {why}"));
            }
        }
    }
    assert!(
        faults.is_empty(),
        "stale stage lists:\n  {}",
        faults.join("\n  ")
    );
}

#[test]
fn the_check_finds_planted_stale_lists() {
    let stages = step_stage_names();
    let all: Vec<String> = stages.iter().map(|s| format!("`{s}`")).collect();
    let whole = format!("One pass per stage ({}).", all.join(", "));
    assert_eq!(fault(&whole, &stages), None, "{whole}");
    let short = "One pass per stage (`clear`, `count`, `scan`, `scatter`, `rules`).";
    let why = fault(short, &stages).unwrap();
    assert!(why.contains("but not [\"slots\""), "{why}");
    let mut backwards = all.clone();
    backwards.reverse();
    assert_eq!(
        fault(&backwards.join(" "), &stages),
        None,
        "the order is free"
    );
    let counted = "the five compute passes of the step";
    assert!(fault(counted, &stages).unwrap().contains("counts 5"));
    assert!(fault("its 5 stages run", &stages).is_some());
    assert_eq!(fault("`count` and `scan` of the grid", &stages), None);
    let text = "//! a\n//! `clear` `count`\n\n/// `scan`\nfn x() {}\n";
    assert_eq!(
        paragraphs(text),
        vec![
            (1, " a `clear` `count`".to_string()),
            (4, " `scan`".to_string())
        ]
    );
}

/// The longest a file of `src/`, `python/src/` or `crates/gsd/src/` is without a reason in
/// docs/architecture.md.
const LONG_FILE: usize = 800;

/// The rows of docs/architecture.md's "Long files" table: path and line count.
fn long_file_rows(doc: &str) -> Vec<(String, usize)> {
    let section = doc
        .split("\n## ")
        .find(|s| s.starts_with("Long files"))
        .expect("docs/architecture.md has a \"Long files\" section");
    section
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let path = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
            Some((path.to_string(), cells.get(2)?.parse().ok()?))
        })
        .collect()
}

#[test]
fn every_file_over_800_lines_is_listed_with_its_reason() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for d in ["src", "python/src", "crates/gsd/src"] {
        rust_files(&root.join(d), &mut files);
    }
    let mut long = longer_than(&root, &files, LONG_FILE);
    long.sort();
    let doc = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    let mut listed = long_file_rows(&doc);
    listed.sort();
    let paths = |v: &[(String, usize)]| v.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>();
    assert_eq!(
        paths(&listed),
        paths(&long),
        "docs/architecture.md's long files (left) against the files over {LONG_FILE} lines \
         (right): list a new one with its reason, or drop a file now shorter"
    );
    // The counts stay near the files' (within a tenth), so the table says how long they are.
    for ((path, said), (_, n)) in listed.iter().zip(&long) {
        assert!(
            said.abs_diff(*n) * 10 <= *n,
            "docs/architecture.md says {path} has {said} lines; it has {n}"
        );
    }
}

#[test]
fn the_long_file_table_is_read_as_written() {
    let doc =
        "# A\n\n## Long files\n\n| file | lines | why |\n|---|---|---|\n| `src/a.rs` | 900 | \
               one algorithm |\n| `src/b.rs` | x | bad count |\n\n## Next\n| `src/c.rs` | 5 | |\n";
    assert_eq!(long_file_rows(doc), vec![("src/a.rs".to_string(), 900)]);
}

/// The longest a file of the app (`src/app/`) is: the app is many small entries (a tool, a
/// concern of its state, a step of the frame), so a long file there is one that grew a second
/// job.
const APP_FILE: usize = 500;

/// The files of `files` (paths under `root`) longer than `limit` lines, with their counts.
fn longer_than(root: &Path, files: &[PathBuf], limit: usize) -> Vec<(String, usize)> {
    files
        .iter()
        .map(|f| {
            let n = std::fs::read_to_string(f).unwrap().lines().count();
            (f.strip_prefix(root).unwrap().display().to_string(), n)
        })
        .filter(|(_, n)| *n > limit)
        .collect()
}

#[test]
fn no_file_of_the_app_is_over_500_lines() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src/app"), &mut files);
    assert!(
        files.len() > 20,
        "the app's files were found: {}",
        files.len()
    );
    let long = longer_than(&root, &files, APP_FILE);
    assert!(
        long.is_empty(),
        "files of src/app over {APP_FILE} lines (split out a concern, a step or an entry): {long:?}"
    );
}

#[test]
fn the_length_check_finds_a_planted_long_file() {
    let dir = tempfile::tempdir().unwrap();
    let long = dir.path().join("long.rs");
    let short = dir.path().join("short.rs");
    std::fs::write(&long, "//\n".repeat(APP_FILE + 1)).unwrap();
    std::fs::write(&short, "//\n".repeat(APP_FILE)).unwrap();
    let found = longer_than(dir.path(), &[long, short], APP_FILE);
    assert_eq!(found, vec![("long.rs".to_string(), APP_FILE + 1)]);
}
