//! Every WGSL shader parses and validates with naga (no GPU needed), and the uniform block and the
//! boid struct have the same layout in Rust and WGSL.

use boids::gpu::shaders;
use boids::model::{Boid, StepUniforms};

#[test]
fn every_shader_parses_and_validates() {
    for (name, src) in shaders::ALL {
        shaders::validate(name, src).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn validation_rejects_a_broken_shader() {
    // The check above can fail: a type error is reported with the stage name.
    let broken = format!("{}\nfn oops() -> u32 {{ return 1.0; }}\n", shaders::CLEAR);
    let err = shaders::validate("clear", &broken).unwrap_err();
    assert!(err.contains("clear"), "{err}");
}

fn struct_members(module: &naga::Module, name: &str) -> (Vec<(String, u32)>, u32) {
    for (_, ty) in module.types.iter() {
        if ty.name.as_deref() == Some(name) {
            if let naga::TypeInner::Struct { members, span } = &ty.inner {
                let m = members
                    .iter()
                    .map(|m| (m.name.clone().unwrap_or_default(), m.offset))
                    .collect();
                return (m, *span);
            }
        }
    }
    panic!("struct {name} not found");
}

#[test]
fn params_layout_matches_step_uniforms() {
    let module = shaders::validate("rules", shaders::RULES).unwrap();
    let (members, span) = struct_members(&module, "Params");
    let rust: Vec<(String, u32)> = StepUniforms::field_offsets()
        .into_iter()
        .map(|(n, o)| (n.to_string(), o as u32))
        .collect();
    assert_eq!(members, rust, "WGSL Params and Rust StepUniforms differ");
    assert_eq!(span as usize, std::mem::size_of::<StepUniforms>());
}

#[test]
fn boid_layout_matches_rust() {
    let module = shaders::validate("rules", shaders::RULES).unwrap();
    let (members, span) = struct_members(&module, "Boid");
    let rust = vec![
        (
            "position".to_string(),
            std::mem::offset_of!(Boid, position) as u32,
        ),
        (
            "velocity".to_string(),
            std::mem::offset_of!(Boid, velocity) as u32,
        ),
        ("hue".to_string(), std::mem::offset_of!(Boid, hue) as u32),
        (
            "hue_velocity".to_string(),
            std::mem::offset_of!(Boid, hue_velocity) as u32,
        ),
        ("id".to_string(), std::mem::offset_of!(Boid, id) as u32),
        ("pad".to_string(), std::mem::offset_of!(Boid, _pad) as u32),
    ];
    assert_eq!(members, rust);
    assert_eq!(span as usize, std::mem::size_of::<Boid>());
}
