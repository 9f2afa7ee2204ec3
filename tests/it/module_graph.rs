//! The import graph of `src/`: no module cycles, and the layers point one way.
//!
//! Every file of `src/` is a module (`src/a/b.rs` is `a::b`, `src/a/mod.rs` is `a`). Its edges are
//! the crate paths its code names — `use crate::…` trees (braces expanded), inline `crate::…`,
//! `super::…` and, in a `mod.rs`, its children by name — each resolved to the module file that
//! defines the item, following `pub use` re-exports (so `crate::model::Boid` is an edge to
//! `model::state`, not to the facade `model`). Comments, string literals and `#[cfg(test)]`
//! modules are left out. The graph must have no cycle (a strongly connected component of more than
//! one file), and a file of one top-level layer may use only its own layer and the layers below it
//! ([`LAYERS`]). Both checks are shown to fail on planted graphs.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first: a module may use its own top-level module and those of lower
/// layers. Modules of one layer do not use each other.
const LAYERS: &[&[&str]] = &[
    &["io", "stats"],
    &["model"],
    &["formats"],
    &["analysis"],
    &["stages"],
    &["simulation"],
    &["cpu", "gpu"],
    &["backend"],
    &["render", "plot"],
    &["run"],
    &["capture"],
    &["headless", "bench", "sweep", "app", "analyse"],
];

/// A module path (`["model", "state"]`).
type Module = Vec<String>;

struct Crate {
    /// Each module's code (comments, strings and test modules removed).
    code: BTreeMap<Module, String>,
    /// Each module's `pub use` re-exports: name → the path it stands for.
    reexports: BTreeMap<Module, BTreeMap<String, Vec<String>>>,
    /// Each module's declared child modules (`mod x;`).
    children: BTreeMap<Module, BTreeSet<String>>,
}

fn module_of(src: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// `text` without comments, string and char literals (replaced by spaces), and cut at the first
/// `#[cfg(test)]` (test modules come last).
fn strip(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else if b[i] == b'r'
            && (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#'))
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            // A raw string r"…" or r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push(b[i] as char);
                i += 1;
                continue;
            }
            j += 1;
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            while j < b.len() && !b[j..].starts_with(&close) {
                j += 1;
            }
            i = j + close.len();
            out.push(' ');
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push(' ');
        } else if b[i] == b'\'' && b.get(i + 2) == Some(&b'\'') {
            i += 3;
            out.push(' ');
        } else if b[i] == b'\'' && b.get(i + 1) == Some(&b'\\') {
            i += 2;
            while i < b.len() && b[i] != b'\'' {
                i += 1;
            }
            i += 1;
            out.push(' ');
        } else {
            // Multi-byte characters are copied whole.
            let ch = text[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// The paths of a `use` tree (`a::{b, c::{d, e as f}}` → `a::b`, `a::c::d`, `a::c::e`), each with
/// the name it brings in.
fn expand(tree: &str) -> Vec<(Vec<String>, String)> {
    let mut out = Vec::new();
    fn go(prefix: &[String], t: &str, out: &mut Vec<(Vec<String>, String)>) {
        // Split at top-level commas.
        let mut depth = 0;
        let mut start = 0;
        let mut parts = Vec::new();
        for (i, c) in t.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&t[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        parts.push(&t[start..]);
        for p in parts.into_iter().map(str::trim).filter(|p| !p.is_empty()) {
            let segs = |s: &str| -> Vec<String> {
                s.split("::")
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect()
            };
            if let Some(open) = p.find('{') {
                let mut pre = prefix.to_vec();
                pre.extend(segs(&p[..open]));
                let close = p.rfind('}').unwrap_or(p.len());
                go(&pre, &p[open + 1..close], out);
            } else {
                let words: Vec<&str> = p.split_whitespace().collect();
                let (path, alias) = match words.as_slice() {
                    [path, "as", alias] => (*path, Some(*alias)),
                    _ => (p, None),
                };
                let mut full = prefix.to_vec();
                full.extend(segs(path));
                let name = alias
                    .map(String::from)
                    .or_else(|| full.last().cloned())
                    .unwrap_or_default();
                out.push((full, name));
            }
        }
    }
    go(&[], tree, &mut out);
    out
}

/// `code` without its `use` statements (their paths are read whole by [`use_statements`]).
fn without_uses(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(i) = find_word(rest, "use") {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        let end = after.find(';').map_or(after.len(), |e| e + 1);
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The `use` statements of `code`: (is it `pub`, the tree text).
fn use_statements(code: &str) -> Vec<(bool, String)> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = find_word(rest, "use") {
        let before = rest[..i].trim_end();
        let public = before.ends_with("pub") || before.ends_with("pub(crate)");
        let after = &rest[i + 3..];
        let end = after.find(';').unwrap_or(after.len());
        out.push((public, after[..end].trim().to_string()));
        rest = &after[end..];
    }
    out
}

/// The byte offset of `word` in `s` as a whole word.
fn find_word(s: &str, word: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut from = 0;
    while let Some(i) = s[from..].find(word) {
        let at = from + i;
        let before = at == 0 || !(b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_');
        let end = at + word.len();
        let after = end >= b.len() || !(b[end].is_ascii_alphanumeric() || b[end] == b'_');
        if before && after {
            return Some(at);
        }
        from = end;
    }
    None
}

/// A path as written in `module` made absolute (from the crate root), or `None` for an external
/// crate or `std`.
fn absolute(
    module: &Module,
    is_dir: bool,
    path: &[String],
    children: &BTreeSet<String>,
) -> Option<Vec<String>> {
    let first = path.first()?;
    let mut base: Vec<String> = match first.as_str() {
        "crate" => Vec::new(),
        "self" => module.clone(),
        "super" => {
            // `super` of a file `a/b.rs` is `a`; of `a/b/mod.rs` (module a::b) also `a`.
            let mut m = module.clone();
            m.pop();
            m
        }
        name if is_dir && children.contains(name) => {
            let mut m = module.clone();
            m.push(name.to_string());
            return Some(m.into_iter().chain(path[1..].iter().cloned()).collect());
        }
        _ => return None,
    };
    let mut rest = &path[1..];
    while rest.first().is_some_and(|s| s == "super") {
        base.pop();
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

impl Crate {
    fn load(src: &Path) -> Crate {
        let mut files = Vec::new();
        let mut stack = vec![src.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "rs")
                    && p.file_name().unwrap() != "main.rs"
                {
                    files.push(p);
                }
            }
        }
        let mut c = Crate {
            code: BTreeMap::new(),
            reexports: BTreeMap::new(),
            children: BTreeMap::new(),
        };
        for f in &files {
            let m = module_of(src, f);
            let code = strip(&std::fs::read_to_string(f).unwrap());
            c.add(m, code, is_dir_module(f));
        }
        c
    }

    /// Adds a module with its (stripped) code.
    fn add(&mut self, m: Module, code: String, is_dir: bool) {
        let mut children = BTreeSet::new();
        let mut rest = code.as_str();
        while let Some(i) = find_word(rest, "mod") {
            let after = rest[i + 3..].trim_start();
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if after[name.len()..].trim_start().starts_with(';') && !name.is_empty() {
                children.insert(name);
            }
            rest = &rest[i + 3..];
        }
        let mut reexports = BTreeMap::new();
        for (public, tree) in use_statements(&code) {
            if public {
                for (path, name) in expand(&tree) {
                    if let Some(abs) = absolute(&m, is_dir, &path, &children) {
                        if name != "*" && name != "self" {
                            reexports.insert(name, abs);
                        }
                    }
                }
            }
        }
        self.reexports.insert(m.clone(), reexports);
        self.children.insert(m.clone(), children);
        self.code.insert(m, code);
    }

    /// The module file defining the item at absolute `path`.
    fn resolve(&self, path: &[String], depth: usize) -> Option<Module> {
        let mut k = path.len();
        while k > 0 && !self.code.contains_key(&path[..k]) {
            k -= 1;
        }
        let m: Module = path[..k].to_vec();
        if !self.code.contains_key(&m) {
            return None;
        }
        if let (Some(name), true) = (path.get(k), depth < 8) {
            if let Some(target) = self.reexports.get(&m).and_then(|r| r.get(name)) {
                let mut p = target.clone();
                p.extend(path[k + 1..].iter().cloned());
                return self.resolve(&p, depth + 1).or(Some(m));
            }
        }
        Some(m)
    }

    /// The modules `m` uses.
    fn edges(&self, m: &Module, is_dir: bool) -> BTreeSet<Module> {
        let code = &self.code[m];
        let children = &self.children[m];
        let mut paths: Vec<Vec<String>> = Vec::new();
        for (_, tree) in use_statements(code) {
            paths.extend(expand(&tree).into_iter().map(|(p, _)| p));
        }
        // Inline paths: crate::…, super::…, self::… and (in a mod.rs) child::….
        let code = &without_uses(code);
        let b = code.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let start_ok = i == 0
                || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b':');
            if start_ok && (b[i].is_ascii_alphabetic() || b[i] == b'_') {
                let mut j = i;
                while j < b.len()
                    && (b[j].is_ascii_alphanumeric()
                        || b[j] == b'_'
                        || (b[j] == b':' && b.get(j + 1) == Some(&b':')))
                {
                    j += if b[j] == b':' { 2 } else { 1 };
                }
                let word = &code[i..j];
                if word.contains("::") {
                    let segs: Vec<String> = word
                        .split("::")
                        .filter(|s| !s.is_empty())
                        .map(String::from)
                        .collect();
                    paths.push(segs);
                }
                i = j.max(i + 1);
            } else {
                i += 1;
            }
        }
        let mut out = BTreeSet::new();
        for p in paths {
            if let Some(abs) = absolute(m, is_dir, &p, children) {
                if let Some(target) = self.resolve(&abs, 0) {
                    if &target != m && !target.is_empty() {
                        out.insert(target);
                    }
                }
            }
        }
        out
    }

    fn graph(&self, dirs: &BTreeSet<Module>) -> BTreeMap<Module, BTreeSet<Module>> {
        self.code
            .keys()
            .filter(|m| !m.is_empty())
            .map(|m| (m.clone(), self.edges(m, dirs.contains(m))))
            .collect()
    }
}

fn is_dir_module(f: &Path) -> bool {
    matches!(
        f.file_name().and_then(|n| n.to_str()),
        Some("mod.rs") | Some("lib.rs")
    )
}

/// The strongly connected components of more than one module (Tarjan).
fn cycles(g: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct T<'a> {
        g: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on: BTreeSet<&'a Module>,
        next: usize,
        out: Vec<Vec<Module>>,
    }
    impl<'a> T<'a> {
        fn visit(&mut self, v: &'a Module) {
            self.index.insert(v, self.next);
            self.low.insert(v, self.next);
            self.next += 1;
            self.stack.push(v);
            self.on.insert(v);
            if let Some(ws) = self.g.get(v) {
                for w in ws {
                    let Some((w, _)) = self.g.get_key_value(w) else {
                        continue;
                    };
                    if !self.index.contains_key(w) {
                        self.visit(w);
                        let l = self.low[w].min(self.low[v]);
                        self.low.insert(v, l);
                    } else if self.on.contains(w) {
                        let l = self.index[w].min(self.low[v]);
                        self.low.insert(v, l);
                    }
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(w);
                    comp.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    self.out.push(comp);
                }
            }
        }
    }
    let mut t = T {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in g.keys() {
        if !t.index.contains_key(v) {
            t.visit(v);
        }
    }
    t.out
}

/// The layer of a top-level module (`None`: not in [`LAYERS`]).
fn layer(top: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&top))
}

/// Edges that go up a layer or across modules of one layer.
fn layer_violations(g: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<String> {
    let mut out = Vec::new();
    for (from, tos) in g {
        for to in tos {
            let (a, b) = (&from[0], &to[0]);
            if a == b {
                continue;
            }
            match (layer(a), layer(b)) {
                (Some(la), Some(lb)) if lb < la => {}
                (la, lb) => out.push(format!(
                    "{} (layer {la:?}) uses {} (layer {lb:?})",
                    from.join("::"),
                    to.join("::")
                )),
            }
        }
    }
    out
}

fn name(c: &[Module]) -> String {
    c.iter()
        .map(|m| m.join("::"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn this_crate() -> (Crate, BTreeMap<Module, BTreeSet<Module>>) {
    crate_at(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src"))
}

/// The crate whose root is `src/lib.rs` under `src`, and its graph.
fn crate_at(src: &Path) -> (Crate, BTreeMap<Module, BTreeSet<Module>>) {
    let src = src.to_path_buf();
    let c = Crate::load(&src);
    let mut dirs = BTreeSet::new();
    let mut stack = vec![src.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if is_dir_module(&p) {
                dirs.insert(module_of(&src, &p));
            }
        }
    }
    let g = c.graph(&dirs);
    (c, g)
}

/// The cycles of `g` as a message: each cycle with the edges inside it, to see where to cut it.
fn cycle_report(g: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<String> {
    cycles(g)
        .iter()
        .map(|c| {
            let inside: Vec<String> = c
                .iter()
                .flat_map(|a| {
                    g[a].iter()
                        .filter(|b| c.contains(b))
                        .map(move |b| format!("{} → {}", a.join("::"), b.join("::")))
                })
                .collect();
            format!("  {}\n    {}", name(c), inside.join("\n    "))
        })
        .collect()
}

#[test]
fn src_has_no_module_cycles() {
    let (_, g) = this_crate();
    assert!(g.len() > 50, "only {} modules found", g.len());
    let text = cycle_report(&g);
    assert!(
        text.is_empty(),
        "module cycles in src/:\n{}",
        text.join("\n")
    );
}

/// The Python module's crate (python/src) has none either.
#[test]
fn the_python_module_has_no_module_cycles() {
    let (_, g) = crate_at(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("python/src"));
    assert!(g.len() >= 6, "only {} modules found", g.len());
    let shared: Module = vec!["shared".to_string()];
    assert!(
        g[&vec!["params".to_string()]].contains(&shared),
        "the graph sees params → shared"
    );
    let text = cycle_report(&g);
    assert!(
        text.is_empty(),
        "module cycles in python/src/:\n{}",
        text.join("\n")
    );
}

/// Nor has the GSD crate (crates/gsd/src), which imports nothing of boids.
#[test]
fn the_gsd_crate_has_no_module_cycles_and_nothing_of_boids() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/gsd/src");
    let (_, g) = crate_at(&root);
    assert!(g.len() >= 3, "only {} modules found", g.len());
    let error: Module = vec!["error".to_string()];
    assert!(
        g[&vec!["container".to_string()]].contains(&error),
        "the graph sees container → error"
    );
    let text = cycle_report(&g);
    assert!(
        text.is_empty(),
        "module cycles in crates/gsd/src/:\n{}",
        text.join("\n")
    );
    for f in std::fs::read_dir(&root).unwrap() {
        let path = f.unwrap().path();
        let code = std::fs::read_to_string(&path).unwrap();
        assert!(
            !code.contains("boids::") && !code.contains("crate::model"),
            "{} uses boids",
            path.display()
        );
    }
}

#[test]
fn layers_point_one_way() {
    let (_, g) = this_crate();
    let v = layer_violations(&g);
    assert!(v.is_empty(), "layer violations:\n  {}", v.join("\n  "));
}

/// A crate of the given files (path below src/, code).
fn planted(files: &[(&str, &str)]) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut c = Crate {
        code: BTreeMap::new(),
        reexports: BTreeMap::new(),
        children: BTreeMap::new(),
    };
    let mut dirs = BTreeSet::new();
    for (path, code) in files {
        let m = module_of(Path::new("src"), &Path::new("src").join(path));
        let is_dir = path.ends_with("mod.rs") || *path == "lib.rs";
        if is_dir {
            dirs.insert(m.clone());
        }
        c.add(m, strip(code), is_dir);
    }
    c.graph(&dirs)
}

#[test]
fn the_checks_find_planted_cycles_and_layer_violations() {
    // A cycle through a facade re-export and a nested use tree; comments and strings do not count.
    let g = planted(&[
        ("lib.rs", "pub mod model;"),
        ("model/mod.rs", "pub mod a;\npub mod b;\npub use a::Thing;"),
        ("model/a.rs", "use crate::model::{b::{Other, More as M}};\npub struct Thing;"),
        ("model/b.rs", "// use crate::model::Nothing;\nfn f() { let _ = \"crate::model::a\"; crate::model::Thing; }\npub struct Other;"),
    ]);
    assert_eq!(
        cycles(&g),
        vec![vec![
            vec!["model".to_string(), "a".into()],
            vec!["model".into(), "b".into()]
        ]],
        "{g:?}"
    );
    // Without b's use of Thing: no cycle, and the facade edge resolves to a, not model.
    let g = planted(&[
        ("lib.rs", "pub mod model;"),
        ("model/mod.rs", "pub mod a;\npub mod b;\npub use a::Thing;"),
        ("model/a.rs", "use super::b::Other;\npub struct Thing;"),
        ("model/b.rs", "// crate::model::Thing\npub struct Other;"),
    ]);
    assert!(cycles(&g).is_empty(), "{g:?}");
    // A lower layer using a higher one.
    let g = planted(&[
        ("lib.rs", "pub mod model;\npub mod app;"),
        ("model/mod.rs", "fn f() { crate::app::run(); }"),
        ("app/mod.rs", "use crate::model::X;"),
    ]);
    assert_eq!(layer_violations(&g).len(), 1, "{g:?}");
}
