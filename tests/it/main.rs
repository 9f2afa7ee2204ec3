//! The integration tests, one binary: each module is one subject (named as the file it came
//! from), `support` holds what they share. One binary links the crate once, where one binary per
//! file linked it 45 times; `cargo test NAME` still finds a test by (a part of) its name, now
//! `module::test`. docs/testing.md says where a new test goes.

mod analyses;
mod app_count;
mod app_panel;
mod app_recording;
mod app_scene;
mod app_snapshot;
mod app_ux;
mod app_window;
mod bench_capture;
mod bench_interrupt;
mod bench_stats;
mod checkpoint;
mod cli;
mod couzin;
mod cpu_backend;
mod cpu_gather_simd;
mod cpu_grid;
mod cpu_integrate_simd;
mod cpu_numerics;
mod cpu_step;
mod diffusion;
mod ensemble;
mod file_reads;
#[cfg(unix)]
mod file_writes;
mod fish;
mod formats;
mod golden;
mod gpu_bounded_loops;
mod gpu_determinism;
mod gpu_gather;
mod gpu_models;
mod gpu_stages;
mod gpu_step;
mod gsd;
mod images;
mod milling;
mod model_table;
mod module_docs;
mod module_graph;
mod neighbor_cap;
mod predators;
mod render_looks;
mod run_layer;
mod scenes;
mod shaders;
mod slurm;
mod state_extremes;
mod statistics;
mod support;
mod sweep;
mod sweep_hysteresis;
mod sweep_resume;
mod sweep_reuse;
mod topological;
mod trajectory;
mod validation;
mod vicsek;
mod view_angle;
mod voronoi;
mod walls;
mod web;
mod webgpu_limits;
