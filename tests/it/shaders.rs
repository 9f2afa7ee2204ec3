//! The WGSL side agrees with the Rust side, checked with naga (no GPU needed): every shader parses
//! and validates; every stage of the stage table has the entry points and binding slots (names,
//! order, access) that naga reflects from its WGSL; and every struct shared with WGSL — the uniform
//! blocks `Params` (StepUniforms), `View` (ViewUniforms), `ScanLevel` and each model's typed
//! uniforms (`VicsekUniforms`, …, named by the model table), and the storage structs `Boid` and
//! `Predator` — have the same member names, offsets and types on both sides. Each check is also shown
//! to fail on a planted difference.

use boids::gpu::scan::ScanLevel;
use boids::gpu::shaders;
use boids::model::models::MODEL_UNIFORMS_BYTES;
use boids::model::{Boid, Model, Predator, StepUniforms, MODELS};
use boids::render::ViewUniforms;
use boids::stages::{Access, Binding, Len, Run, BUFFERS, STAGES};
use encase::internal::WriteInto;
use encase::ShaderType;

#[test]
fn every_shader_parses_and_validates() {
    for (name, src) in shaders::all_sources() {
        shaders::validate(&name, &src).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn validation_rejects_a_broken_shader() {
    // The check above can fail: a type error is reported with the stage name.
    let broken = format!(
        "{}\nfn oops() -> u32 {{ return 1.0; }}\n",
        STAGES[0].wgsl.text()
    );
    let err = shaders::validate("clear", &broken).unwrap_err();
    assert!(err.contains("clear"), "{err}");
}

fn module_of(name: &str) -> naga::Module {
    module_for(name, Model::BOIDS)
}

/// The module of stage `name` as compiled for `model` (the model matters only to the stages that
/// hold the model's rule).
fn module_for(name: &str, model: Model) -> naga::Module {
    let stage = boids::stages::stage(name);
    shaders::validate(name, &stage.wgsl.source(model)).unwrap()
}

/// Every (stage, model) the GPU compiles: a stage holding the model's rule once per model.
fn compiled() -> Vec<(&'static boids::stages::Stage, Model)> {
    let mut out = Vec::new();
    for stage in &STAGES {
        if stage.wgsl.per_model() {
            out.extend(Model::all().map(|m| (stage, m)));
        } else {
            out.push((stage, Model::BOIDS));
        }
    }
    out
}

#[test]
fn every_stage_matches_its_wgsl() {
    for (stage, model) in compiled() {
        let module = module_for(stage.name, model);
        shaders::check_bindings(stage.name, &module, stage.bindings)
            .unwrap_or_else(|e| panic!("{e}"));
        for entry in stage.entry_points() {
            let ep = module
                .entry_points
                .iter()
                .find(|e| e.name == entry)
                .unwrap_or_else(|| panic!("{}: no entry point {entry} in the WGSL", stage.name));
            assert_eq!(
                ep.stage,
                naga::ShaderStage::Compute,
                "{}::{entry}",
                stage.name
            );
        }
        // The stage's own file is named after it.
        assert_eq!(
            stage.wgsl.files.last().map(|f| f.0),
            Some(format!("{}.wgsl", stage.name).as_str()),
            "{}: its own WGSL file comes last",
            stage.name
        );
        // Every binding names a buffer of the buffer table (the scan binds its own levels).
        if let Run::Dispatches(_) = stage.run {
            for b in stage.bindings {
                let buf = boids::stages::buffer(b.name)
                    .unwrap_or_else(|| panic!("{}: no buffer named {}", stage.name, b.name));
                assert_eq!(
                    buf.uniform,
                    b.access == Access::Uniform,
                    "{}: {} uniform on one side only",
                    stage.name,
                    b.name
                );
            }
        }
    }
    // Every buffer is bound by some stage.
    for b in &BUFFERS {
        assert!(
            STAGES
                .iter()
                .any(|s| s.bindings.iter().any(|x| x.name == b.name)),
            "buffer {} is bound by no stage",
            b.name
        );
    }
}

#[test]
fn the_binding_check_fails_on_a_planted_slot() {
    let stage = boids::stages::stage("scatter");
    let module = module_of("scatter");
    // Two slots swapped.
    let mut swapped: Vec<Binding> = stage.bindings.to_vec();
    swapped.swap(1, 2);
    let err = shaders::check_bindings("scatter", &module, &swapped).unwrap_err();
    assert!(
        (err.contains("binding 1") || err.contains("binding 2"))
            && err.contains("`pos_vel`")
            && err.contains("`id`"),
        "{err}"
    );
    // A wrong access.
    let mut access: Vec<Binding> = stage.bindings.to_vec();
    access[6].access = Access::Read;
    let err = shaders::check_bindings("scatter", &module, &access).unwrap_err();
    assert!(err.contains("sorted"), "{err}");
    // A slot the WGSL does not declare.
    let mut extra: Vec<Binding> = stage.bindings.to_vec();
    extra.push(Binding {
        name: "ghost",
        access: Access::Read,
    });
    let err = shaders::check_bindings("scatter", &module, &extra).unwrap_err();
    assert!(err.contains("ghost"), "{err}");
}

/// One member of a WGSL struct: name, offset, scalar components (f32: true, u32: false) in
/// memory order, and for an array of vectors the components per element (its JSON nesting).
type Member = (String, u32, Vec<bool>, Option<usize>);

/// The scalar components of a scalar or vector type.
fn components(inner: &naga::TypeInner) -> Option<Vec<bool>> {
    match inner {
        naga::TypeInner::Scalar(s) => Some(vec![s.kind == naga::ScalarKind::Float]),
        naga::TypeInner::Vector { size, scalar } => {
            Some(vec![scalar.kind == naga::ScalarKind::Float; *size as usize])
        }
        _ => None,
    }
}

/// Member names, offsets and scalar components (u32 or f32) of WGSL struct `name`, and its size.
/// An array member must be of vectors packed without gaps (its stride their size).
fn struct_members(module: &naga::Module, name: &str) -> (Vec<Member>, u32) {
    for (_, ty) in module.types.iter() {
        if ty.name.as_deref() == Some(name) {
            if let naga::TypeInner::Struct { members, span } = &ty.inner {
                let m = members
                    .iter()
                    .map(|m| {
                        let inner = &module.types[m.ty].inner;
                        let (comps, per) = match inner {
                            naga::TypeInner::Array {
                                base,
                                size: naga::ArraySize::Constant(n),
                                stride,
                            } => {
                                let one =
                                    components(&module.types[*base].inner).unwrap_or_else(|| {
                                        panic!("{name}.{:?}: array of what?", m.name)
                                    });
                                assert_eq!(
                                    *stride as usize,
                                    4 * one.len(),
                                    "{name}.{:?}: gaps",
                                    m.name
                                );
                                (one.repeat(n.get() as usize), Some(one.len()))
                            }
                            other => (
                                components(other).unwrap_or_else(|| {
                                    panic!("{name}.{:?}: unexpected type {other:?}", m.name)
                                }),
                                None,
                            ),
                        };
                        (m.name.clone().unwrap_or_default(), m.offset, comps, per)
                    })
                    .collect();
                return (m, *span);
            }
        }
    }
    panic!("struct {name} not found");
}

/// Checks that `T`, laid out by encase, agrees with WGSL struct `name` of `module`: `T` is
/// built (through serde, field by field by name) with a distinct value in every scalar component,
/// written with encase, and each WGSL member is read back at naga's offset.
fn check_layout<T>(module: &naga::Module, name: &str) -> Result<(), String>
where
    T: ShaderType + WriteInto + serde::de::DeserializeOwned,
{
    check_layout_with(module, name, |obj| {
        let t: T = serde_json::from_value(obj)
            .map_err(|e| format!("{name}: the Rust and WGSL member names differ: {e}"))?;
        let mut buf = encase::StorageBuffer::new(Vec::new());
        buf.write(&t).map_err(|e| e.to_string())?;
        // encase writes no trailing padding (of a last member sized past its value): the block
        // is the layout's size.
        let mut bytes = buf.into_inner();
        bytes.resize(bytes.len().max(T::min_size().get() as usize), 0);
        Ok(bytes)
    })
}

/// [`check_layout`] for a struct made by `build` from a JSON object of its members by name:
/// its bytes as the GPU gets them.
fn check_layout_with(
    module: &naga::Module,
    name: &str,
    build: impl Fn(serde_json::Value) -> Result<Vec<u8>, String>,
) -> Result<(), String> {
    let (members, span) = struct_members(module, name);
    let value = |k: usize, c: usize| 1000 + 16 * k as u32 + c as u32;
    let mut obj = serde_json::Map::new();
    for (k, (m, _, comps, per)) in members.iter().enumerate() {
        let v: Vec<serde_json::Value> = comps
            .iter()
            .enumerate()
            .map(|(c, float)| {
                if *float {
                    serde_json::json!(value(k, c) as f32)
                } else {
                    serde_json::json!(value(k, c))
                }
            })
            .collect();
        let v = match per {
            Some(per) => serde_json::Value::Array(
                v.chunks(*per)
                    .map(|c| serde_json::Value::Array(c.to_vec()))
                    .collect(),
            ),
            None if v.len() == 1 => v[0].clone(),
            None => serde_json::Value::Array(v),
        };
        obj.insert(m.clone(), v);
    }
    let bytes = build(serde_json::Value::Object(obj))?;
    if bytes.len() < span as usize {
        return Err(format!(
            "{name}: {} bytes written, the WGSL struct is {span}",
            bytes.len()
        ));
    }
    for (k, (m, offset, comps, _)) in members.iter().enumerate() {
        for (c, float) in comps.iter().enumerate() {
            let at = *offset as usize + 4 * c;
            let word = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
            let expect = if *float {
                (value(k, c) as f32).to_bits()
            } else {
                value(k, c)
            };
            if word != expect {
                return Err(format!(
                    "{name}.{m}[{c}]: at WGSL offset {at} encase wrote {word:#x}, expected {expect:#x}"
                ));
            }
        }
    }
    Ok(())
}

/// A model's typed uniforms against the WGSL struct its table entry names, in the rules pass
/// compiled for it: the same members, offsets and types, no larger than a slot of the
/// `replica_models` buffer, and the struct that binding holds in each of its slots (an array of
/// MAX_REPLICAS slots of MODEL_UNIFORMS_BYTES).
fn check_model_uniforms(module: &naga::Module, model: Model) -> Result<(), String> {
    let desc = model.desc().uniforms;
    let (_, span) = struct_members(module, desc.name);
    if span as usize > MODEL_UNIFORMS_BYTES {
        return Err(format!("{}: {span} bytes", desc.name));
    }
    let ty = module
        .global_variables
        .iter()
        .find(|(_, g)| g.name.as_deref() == Some("replica_models") && g.binding.is_some())
        .map(|(_, g)| g.ty)
        .ok_or("no replica_models binding")?;
    let naga::TypeInner::Array { base, stride, size } = module.types[ty].inner else {
        return Err("replica_models is not an array".into());
    };
    let len = match size {
        naga::ArraySize::Constant(n) => n.get(),
        _ => 0,
    };
    if stride as usize != MODEL_UNIFORMS_BYTES || len != boids::stages::MAX_REPLICAS {
        return Err(format!(
            "replica_models: {len} slots of {stride} bytes, the buffer has {} of {MODEL_UNIFORMS_BYTES}",
            boids::stages::MAX_REPLICAS
        ));
    }
    let naga::TypeInner::Struct { members, .. } = &module.types[base].inner else {
        return Err("a replica_models slot is not a struct".into());
    };
    let bound = members
        .first()
        .and_then(|m| module.types[m.ty].name.clone())
        .unwrap_or_default();
    if bound != desc.name {
        return Err(format!(
            "a replica_models slot holds a {bound}, the table says {}",
            desc.name
        ));
    }
    check_layout_with(module, desc.name, |obj| {
        let u = (desc.from_json)(&obj)
            .map_err(|e| format!("{}: the Rust and WGSL member names differ: {e}", desc.name))?;
        Ok(u.as_bytes().to_vec())
    })
}

#[test]
fn every_models_uniforms_match_their_wgsl_struct() {
    for m in Model::all() {
        check_model_uniforms(&module_for("rules", m), m).unwrap_or_else(|e| panic!("{m}: {e}"));
        check_model_uniforms(&module_for("rules_heavy", m), m)
            .unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

#[test]
fn the_model_uniforms_check_fails_on_a_planted_difference() {
    let src = boids::stages::stage("rules").wgsl.source(Model::VICSEK);
    let parse = |text: &str| naga::front::wgsl::parse_str(text).unwrap();
    check_model_uniforms(&parse(&src), Model::VICSEK).unwrap();
    // Two members swapped.
    let swapped = src.replacen(
        "    eta: f32,\n    // Speed v0 (wu per step).\n    speed: f32,",
        "    speed: f32,\n    // Speed v0 (wu per step).\n    eta: f32,",
        1,
    );
    assert_ne!(swapped, src, "the planted change must apply");
    let err = check_model_uniforms(&parse(&swapped), Model::VICSEK).unwrap_err();
    assert!(
        err.contains("VicsekUniforms.eta") || err.contains("VicsekUniforms.speed"),
        "{err}"
    );
    // A slot of another size than the buffer's.
    let resized = src.replacen(
        "@size(64) m: ModelUniforms",
        "@size(80) m: ModelUniforms",
        1,
    );
    assert_ne!(resized, src, "the planted change must apply");
    let err = check_model_uniforms(&parse(&resized), Model::VICSEK).unwrap_err();
    assert!(err.contains("slots of 80 bytes"), "{err}");
    // A member's type changed (f32 where Rust has u32).
    let retyped = src.replacen("    noise: u32,", "    noise: f32,", 1);
    assert_ne!(retyped, src, "the planted change must apply");
    assert!(check_model_uniforms(&parse(&retyped), Model::VICSEK).is_err());
    // A member renamed.
    let renamed = src
        .replacen("    update: u32,", "    update_old: u32,", 1)
        .replace("model_params.update ", "model_params.update_old ");
    assert_ne!(renamed, src, "the planted change must apply");
    let err = check_model_uniforms(&parse(&renamed), Model::VICSEK).unwrap_err();
    assert!(err.contains("names differ"), "{err}");
}

#[test]
fn uniform_blocks_match_their_wgsl_structs() {
    check_layout::<StepUniforms>(&module_of("rules"), "Params").unwrap();
    let render = shaders::validate("render", &shaders::RENDER.text()).unwrap();
    check_layout::<ViewUniforms>(&render, "View").unwrap();
    check_layout::<ScanLevel>(&module_of("scan"), "ScanLevel").unwrap();
}

#[test]
fn the_layout_check_fails_on_a_planted_difference() {
    // The View struct alone, as written in the render shader, then with a planted change.
    let src = shaders::RENDER.text();
    let start = src.find("struct View {").unwrap();
    let end = start + src[start..].find("\n}").unwrap() + 2;
    let view = &src[start..end];
    let parse = |text: &str| naga::front::wgsl::parse_str(text).unwrap();
    check_layout::<ViewUniforms>(&parse(view), "View").unwrap();
    // Two members swapped.
    let swapped = view
        .replacen("    center: vec2<f32>,\n", "    TEMP\n", 1)
        .replacen("    scale: vec2<f32>,\n", "    center: vec2<f32>,\n", 1)
        .replacen("    TEMP\n", "    scale: vec2<f32>,\n", 1);
    assert_ne!(swapped, view, "the planted change must apply");
    let err = check_layout::<ViewUniforms>(&parse(&swapped), "View").unwrap_err();
    assert!(
        err.contains("View.center") || err.contains("View.scale"),
        "{err}"
    );
    // A member renamed.
    let renamed = view.replacen("    zoom: f32,", "    zoom_px: f32,", 1);
    assert_ne!(renamed, view, "the planted change must apply");
    let err = check_layout::<ViewUniforms>(&parse(&renamed), "View").unwrap_err();
    assert!(err.contains("names differ"), "{err}");
    // A member's type changed (u32 where Rust has f32).
    let retyped = view.replacen("    alpha: f32,", "    alpha: u32,", 1);
    assert_ne!(retyped, view, "the planted change must apply");
    assert!(check_layout::<ViewUniforms>(&parse(&retyped), "View").is_err());
}

/// The element stride of every array bound at group 0 of `module`: (variable name, stride).
fn binding_strides(module: &naga::Module) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    for (_, var) in module.global_variables.iter() {
        if var.binding.is_none() {
            continue;
        }
        if let naga::TypeInner::Array { stride, .. } = module.types[var.ty].inner {
            out.push((var.name.clone().unwrap_or_default(), stride));
        }
    }
    out
}

#[test]
fn storage_arrays_have_the_element_size_of_their_buffer() {
    // The state and sorted arrays are split (no buffer holds more than 16 bytes per element), and
    // every stage and the render pass see each buffer with the element size the table allocates.
    let render = shaders::validate("render", &shaders::RENDER.text()).unwrap();
    let mut checked = 0;
    for (name, module) in STAGES
        .iter()
        .map(|s| (s.name, module_of(s.name)))
        .chain([("render", render)])
    {
        for (var, stride) in binding_strides(&module) {
            let Some(buf) = boids::stages::buffer(&var) else {
                continue; // the scan's level buffers, the render's obstacle discs
            };
            // A host of planes (`id`: ids, then image counts and hue vectors) is an array of
            // the first plane's elements (the bytes before its second plane).
            let first_plane = boids::stages::REGIONS
                .iter()
                .filter(|r| r.host == var)
                .filter_map(|r| match r.at {
                    boids::stages::At::Plane { bytes_before } => Some(bytes_before),
                    _ => None,
                })
                .min();
            let want = first_plane.unwrap_or(buf.elem_bytes);
            assert_eq!(
                stride as u64, want,
                "{name}: `{var}` has elements of {stride} bytes, the table allocates {}",
                buf.elem_bytes
            );
            if matches!(buf.len, Len::Boids | Len::Items) {
                assert!(
                    stride <= 16,
                    "{name}: `{var}` has elements of more than 16 bytes"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 20, "the check saw {checked} bindings");
    // The Rust side uploads the state as arrays of [f32; 4] (16 bytes).
    assert_eq!(std::mem::size_of::<[f32; 4]>(), 16);
    let b = Boid::from_parts([1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], 9);
    assert_eq!(
        (b.pos_vel(), b.hue_parts(), b.id),
        ([1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], 9)
    );
}

/// Checks that the bytes of a Rust [`Predator`] agree with WGSL struct `Predator` of `module`:
/// each member, found by name (`target` is `target_id` in WGSL, a reserved word there), holds at
/// naga's offset the words the Rust value holds, of the same kind (f32 or u32), and the sizes agree.
fn check_predator(module: &naga::Module) -> Result<(), String> {
    let p = Predator {
        position: [1.5, 2.5],
        velocity: [3.5, 4.5],
        kind: 7,
        target: 9,
        _pad: [11, 13],
    };
    let bytes = bytemuck::bytes_of(&p);
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let expect: &[(&str, &[u32], bool)] = &[
        ("position", &[1.5f32.to_bits(), 2.5f32.to_bits()], true),
        ("velocity", &[3.5f32.to_bits(), 4.5f32.to_bits()], true),
        ("kind", &[7], false),
        ("target_id", &[9], false),
        ("pad0", &[11], false),
        ("pad1", &[13], false),
    ];
    let (members, span) = struct_members(module, "Predator");
    if span as usize != bytes.len() {
        return Err(format!(
            "Predator: {span} bytes in WGSL, {} in Rust",
            bytes.len()
        ));
    }
    if members.len() != expect.len() {
        return Err(format!("Predator: {} WGSL members", members.len()));
    }
    for ((m, offset, comps, _), (name, words, float)) in members.iter().zip(expect) {
        if m != name || comps.len() != words.len() || comps.iter().any(|f| f != float) {
            return Err(format!(
                "Predator.{m}: expected {name} ({} words)",
                words.len()
            ));
        }
        for (c, w) in words.iter().enumerate() {
            let got = word(*offset as usize + 4 * c);
            if got != *w {
                return Err(format!(
                    "Predator.{m}[{c}]: Rust has {got:#x}, expected {w:#x}"
                ));
            }
        }
    }
    Ok(())
}

#[test]
fn the_predator_struct_matches_its_wgsl_in_the_stages_and_the_renderer() {
    check_predator(&module_of("predators")).unwrap();
    check_predator(&module_of("rules")).unwrap();
    let render = shaders::validate("render", &shaders::RENDER.text()).unwrap();
    check_predator(&render).unwrap();
    // Planted differences: two members swapped, a member's type changed.
    let src = include_str!("../../shaders/predators_common.wgsl");
    let start = src.find("struct Predator {").unwrap();
    let end = start + src[start..].find("\n}").unwrap() + 2;
    let s = &src[start..end];
    let parse = |text: &str| naga::front::wgsl::parse_str(text).unwrap();
    check_predator(&parse(s)).unwrap();
    let swapped = s
        .replacen("    kind: u32,\n", "    TEMP\n", 1)
        .replacen("    target_id: u32,\n", "    kind: u32,\n", 1)
        .replacen("    TEMP\n", "    target_id: u32,\n", 1);
    assert_ne!(swapped, s, "the planted change must apply");
    assert!(check_predator(&parse(&swapped)).is_err());
    let retyped = s.replacen("    kind: u32,", "    kind: f32,", 1);
    assert_ne!(retyped, s, "the planted change must apply");
    assert!(check_predator(&parse(&retyped)).is_err());
}

/// The value of the WGSL `const NAME: u32 = …;` of `module`, if it has one.
fn wgsl_u32_const(module: &naga::Module, name: &str) -> Option<u32> {
    let (_, c) = module
        .constants
        .iter()
        .find(|(_, c)| c.name.as_deref() == Some(name))?;
    match module.global_expressions[c.init] {
        naga::Expression::Literal(naga::Literal::U32(v)) => Some(v),
        _ => None,
    }
}

#[test]
fn the_replica_limit_is_the_same_on_both_sides() {
    // The uniform arrays of the replicas' blocks hold MAX_REPLICAS (WGSL); the backend refuses
    // more (Rust). A mismatch would read past the blocks written or refuse what fits.
    for name in ["count", "rules", "measures"] {
        let m = module_of(name);
        assert_eq!(
            wgsl_u32_const(&m, "MAX_REPLICAS"),
            Some(boids::stages::MAX_REPLICAS),
            "{name}"
        );
    }
}

#[test]
fn the_deferred_buffers_words_are_the_same_on_both_sides() {
    // The catch counters and the list of deferred items start at words the backend reads and
    // sizes (Rust) and the stages write (WGSL); a mismatch would count catches into the list.
    for name in ["clear", "scatter", "rules", "rules_heavy"] {
        let m = module_of(name);
        for (wgsl, rust) in [
            ("DEFER_ARGS", boids::stages::DEFERRED_ARGS),
            ("DEFER_CATCHES", boids::stages::DEFERRED_CATCHES),
            ("DEFER_LIST", boids::stages::DEFERRED_LIST),
        ] {
            assert_eq!(wgsl_u32_const(&m, wgsl), Some(rust), "{name}: {wgsl}");
        }
    }
}

#[test]
fn no_stage_binds_more_storage_buffers_than_the_web_offers() {
    // WebGPU guarantees 8 storage buffers a stage; the small, optional and once-a-boid buffers
    // live in regions of others (`REGIONS`) to stay within it.
    let count = |bindings: &[Binding]| {
        bindings
            .iter()
            .filter(|b| b.access != Access::Uniform)
            .count()
    };
    let mut most = 0;
    for stage in &STAGES {
        let n = count(stage.bindings);
        assert!(
            n <= boids::stages::STORAGE_BINDINGS_MAX,
            "{}: {n} storage buffers",
            stage.name
        );
        most = most.max(n);
    }
    assert_eq!(
        most,
        boids::stages::STORAGE_BINDINGS_MAX,
        "the largest stage"
    );
    // The count can fail: the largest stage with one more binding is over.
    let largest = STAGES
        .iter()
        .max_by_key(|s| count(s.bindings))
        .expect("stages");
    let mut more = largest.bindings.to_vec();
    more.push(Binding {
        name: "extra",
        access: Access::Read,
    });
    assert!(count(&more) > boids::stages::STORAGE_BINDINGS_MAX);
    // Every region's host is a buffer of the table, bound where the region is used.
    for r in &boids::stages::REGIONS {
        assert!(boids::stages::buffer(r.host).is_some(), "{}", r.name);
        assert!(
            boids::stages::buffer(r.name).is_none(),
            "{} has a binding too",
            r.name
        );
    }
}

#[test]
fn the_measures_chunk_is_the_same_on_both_sides() {
    // The dispatch covers MEASURES_CHUNK boids per invocation (Rust) and each invocation sums that
    // many (WGSL); a mismatch would leave boids out of the measures or count them twice.
    let module = module_of("measures");
    assert_eq!(
        wgsl_u32_const(&module, "MEASURES_CHUNK"),
        Some(boids::stages::MEASURES_CHUNK)
    );
    // The reader can fail: a planted different value is read as that value, not the table's.
    let stage = boids::stages::stage("measures");
    let planted = stage.wgsl.text().replace(
        "const MEASURES_CHUNK: u32 = 16u;",
        "const MEASURES_CHUNK: u32 = 8u;",
    );
    assert_ne!(planted, stage.wgsl.text(), "the planted edit must apply");
    let module = shaders::validate("measures", &planted).unwrap();
    assert_eq!(wgsl_u32_const(&module, "MEASURES_CHUNK"), Some(8));
}

/// Whether `src` holds the rule of `m` once and no other model's rule.
fn holds_only_its_rule(src: &str, m: Model) -> Result<(), String> {
    if src.matches(m.desc().wgsl.1).count() != 1 {
        return Err(format!("{m}: its rule is not there once"));
    }
    for other in MODELS.iter().filter(|o| o.name != m.name()) {
        if src.contains(other.wgsl.1) {
            return Err(format!("{m}: holds the {} rule", other.name));
        }
    }
    Ok(())
}

#[test]
fn each_model_compiles_its_own_rules_pass_and_no_other_models_code() {
    // The rules stages hold the model's rule: the source for a model has its WGSL file and none
    // of the other models' (so the boids pipeline carries no Vicsek or fish code).
    let rules: Vec<_> = STAGES.iter().filter(|s| s.wgsl.per_model()).collect();
    assert_eq!(
        rules.iter().map(|s| s.name).collect::<Vec<_>>(),
        ["rules", "rules_heavy"]
    );
    for stage in rules {
        for m in Model::all() {
            let src = stage.wgsl.source(m);
            holds_only_its_rule(&src, m).unwrap_or_else(|e| panic!("{}: {e}", stage.name));
            let module = module_for(stage.name, m);
            assert!(
                module
                    .functions
                    .iter()
                    .any(|(_, f)| f.name.as_deref() == Some("next_state")),
                "{} for {m}: no next_state",
                stage.name
            );
        }
    }
    // The check can fail: a source holding two models' rules is refused.
    let both = format!("{}\n{}", MODELS[0].wgsl.1, MODELS[1].wgsl.1);
    assert!(holds_only_its_rule(&both, Model::BOIDS).is_err());
    assert!(holds_only_its_rule("", Model::BOIDS).is_err());
}
