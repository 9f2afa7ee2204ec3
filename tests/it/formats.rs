//! The table of state formats: a file is read by the format that owns it (by its name or its
//! first bytes), written by its extension, and a state saved in any format starts a run that goes
//! on as the straight run, bit for bit.

use std::path::Path;

use boids::formats::checkpoint::load_state;
use boids::formats::{format_for, read_state, ReadError, STATE_FORMATS};

use crate::support::cmd;
use crate::support::states::bits_by_id;

#[test]
fn a_file_is_written_by_its_extension_and_read_by_its_owner() {
    // Written by extension: `.gsd` in any case is the trajectory, anything else the state CSV.
    assert_eq!(format_for(Path::new("a/b.GSD")).name, "GSD trajectory");
    for other in ["s.csv", "state", "s.txt", "dir.gsd/s.csv"] {
        assert_eq!(
            format_for(Path::new(other)).name,
            STATE_FORMATS.last().unwrap().name,
            "{other}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let gsd = dir.path().join("end.gsd");
    let csv = dir.path().join("end.csv");
    for f in [&gsd, &csv] {
        cmd::ok(&[
            "headless",
            "--scene",
            "scenes/vicsek.toml",
            "--boids",
            "60",
            "--steps",
            "3",
            "--save",
            f.to_str().unwrap(),
        ]);
    }
    assert_eq!(
        &std::fs::read(&gsd).unwrap()[..8],
        &0x65DF_65DF_65DF_65DFu64.to_le_bytes()
    );
    // Read by the owner: a GSD file under another name is still read as GSD (its magic number),
    // and both files hold the same boids, step and box.
    let renamed = dir.path().join("end.bin");
    std::fs::copy(&gsd, &renamed).unwrap();
    let a = read_state(&renamed).unwrap();
    let b = read_state(&csv).unwrap();
    assert_eq!(bits_by_id(&a.boids), bits_by_id(&b.boids));
    let frame = a.frame.as_ref().expect("read as a frame");
    let meta = b.meta.as_ref().expect("read as a checkpoint");
    assert_eq!(frame.step, meta.step);
    assert_eq!(
        frame.world,
        [meta.params.world_width, meta.params.world_height]
    );
    // A text file named .gsd is the GSD format's, and refused by it, naming the file.
    let fake = dir.path().join("fake.gsd");
    std::fs::write(&fake, "id,x,y\n").unwrap();
    match read_state(&fake) {
        Err(ReadError::Gsd(e)) => assert!(e.to_string().contains("fake.gsd"), "{e}"),
        other => panic!("a text file named .gsd read as {other:?}"),
    }
    // The state CSV reads what no other format owns.
    assert_eq!(load_state(&csv).unwrap().len(), 60);
}

#[test]
fn a_state_saved_as_a_gsd_frame_goes_on_as_the_straight_run() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let common = [
        "--scene",
        "scenes/vicsek.toml",
        "--seed",
        "5",
        "--backend",
        "cpu",
    ];
    let run = |extra: &[&str]| {
        let mut args = vec!["headless"];
        args.extend(common);
        args.extend(extra);
        cmd::ok(&args);
    };
    run(&[
        "--boids",
        "200",
        "--steps",
        "40",
        "--save",
        &p("straight.csv"),
    ]);
    run(&["--boids", "200", "--steps", "25", "--save", &p("half.gsd")]);
    run(&[
        "--init",
        &p("half.gsd"),
        "--steps",
        "15",
        "--save",
        &p("resumed.csv"),
    ]);
    let straight = load_state(Path::new(&p("straight.csv"))).unwrap();
    let resumed = load_state(Path::new(&p("resumed.csv"))).unwrap();
    assert_eq!(bits_by_id(&straight), bits_by_id(&resumed));
    // The frame carries the run in `log/boids/run`: the seed and every parameter.
    let mut r = gsd::GsdReader::open(Path::new(&p("half.gsd"))).unwrap();
    let run = r
        .read_chunk(0, "log/boids/run")
        .unwrap()
        .expect("the run's description");
    let text: String = run.data.iter().map(|&b| b as char).collect();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["seed"], 5);
    assert_eq!(v["step"], 25);
    assert_eq!(v["params"]["model"], "vicsek");
}
