//! Whole-file writes (`boids::io::write_atomic`) at the extremes: symbolic links, special files,
//! a planted link at a temporary name, failures and interruptions mid-write.

use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::Path;
use std::process::Command;

use boids::io::{write_atomic, write_atomic_with};

/// Names in `dir` other than `keep`.
fn others(dir: &Path, keep: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !keep.contains(&n.as_str()))
        .collect();
    v.sort();
    v
}

#[test]
fn a_symlinked_target_is_written_through_and_stays_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.csv");
    std::fs::write(&real, "old").unwrap();
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink("real.csv", &link).unwrap(); // relative link
    write_atomic(&link, b"new").unwrap();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link was replaced by a file"
    );
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
    assert_eq!(
        others(dir.path(), &["real.csv", "link.csv"]),
        Vec::<String>::new()
    );

    // A dangling link creates the file it names.
    let dangling = dir.path().join("dangling.csv");
    std::os::unix::fs::symlink(dir.path().join("made.csv"), &dangling).unwrap();
    write_atomic(&dangling, b"made").unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("made.csv")).unwrap(),
        "made"
    );
    assert!(std::fs::symlink_metadata(&dangling)
        .unwrap()
        .file_type()
        .is_symlink());

    // A loop of links is an error, not a hang.
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    let e = write_atomic(&a, b"x").unwrap_err().to_string();
    assert!(e.contains("symbolic links"), "{e}");
}

#[test]
fn devices_fifos_and_directories_are_refused_and_left_alone() {
    // /dev/null: a character device (renaming over it would need root, but a link to it must
    // not be followed into a rename either).
    let e = write_atomic(Path::new("/dev/null"), b"x")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("/dev/null") && e.contains("character device"),
        "{e}"
    );
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());

    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("null.csv");
    std::os::unix::fs::symlink("/dev/null", &link).unwrap();
    let e = write_atomic(&link, b"x").unwrap_err().to_string();
    assert!(
        e.contains("null.csv") && e.contains("/dev/null") && e.contains("character device"),
        "{e}"
    );

    let fifo = dir.path().join("pipe");
    let ok = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(ok.success());
    let e = write_atomic(&fifo, b"x").unwrap_err().to_string();
    assert!(e.contains("pipe") && e.contains("FIFO"), "{e}");
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());

    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let e = write_atomic(&sub, b"x").unwrap_err().to_string();
    assert!(e.contains("sub") && e.contains("directory"), "{e}");
    assert!(sub.is_dir());
    assert_eq!(
        others(dir.path(), &["null.csv", "pipe", "sub"]),
        Vec::<String>::new(),
        "no temporary file left"
    );
}

#[test]
fn a_link_planted_at_the_old_temporary_name_is_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    let planted = dir.path().join("out.csv.tmp");
    std::os::unix::fs::symlink(&victim, &planted).unwrap();
    let out = dir.path().join("out.csv");
    write_atomic(&out, b"data").unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "data");
    assert!(std::fs::symlink_metadata(&planted)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        others(dir.path(), &["victim", "out.csv.tmp", "out.csv"]),
        Vec::<String>::new()
    );
}

#[test]
fn a_write_that_fails_midway_keeps_the_old_file_and_leaves_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    std::fs::write(&out, "old").unwrap();
    let e = write_atomic_with(&out, |w| {
        w.write_all(&vec![b'x'; 1 << 20])?;
        Err(std::io::Error::other("disk on fire"))
    })
    .unwrap_err()
    .to_string();
    assert!(e.contains("out.csv") && e.contains("disk on fire"), "{e}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old");
    assert_eq!(others(dir.path(), &["out.csv"]), Vec::<String>::new());

    // A missing folder is named.
    let e = write_atomic(&dir.path().join("no/such/dir/f.csv"), b"x")
        .unwrap_err()
        .to_string();
    assert!(e.contains("no/such/dir/f.csv"), "{e}");
}

#[test]
fn an_existing_file_keeps_its_permissions() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    std::fs::write(&out, "old").unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o640)).unwrap();
    write_atomic(&out, b"new").unwrap();
    let mode = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    let fresh = dir.path().join("fresh.csv");
    write_atomic(&fresh, b"new").unwrap();
    let mode = std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777;
    assert_ne!(
        mode, 0o600,
        "a new file is readable as std::fs::write makes it"
    );
}

/// `boids headless --save` interrupted by Ctrl-C (SIGINT) while writing a large checkpoint: the
/// process exits with 130 and leaves neither the target nor a temporary file.
#[test]
fn a_save_interrupted_by_ctrl_c_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    let mut caught = false;
    for boids in [2_000_000, 4_000_000, 8_000_000] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_boids"))
            .args([
                "headless",
                "--steps",
                "0",
                "--boids",
                &boids.to_string(),
                "--save",
            ])
            .arg(&out)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Wait for the temporary file, then interrupt.
        let mut seen = false;
        loop {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            if others(dir.path(), &[]).iter().any(|n| n.ends_with(".tmp")) {
                seen = true;
                let ok = Command::new("kill")
                    .args(["-INT", &child.id().to_string()])
                    .status()
                    .unwrap();
                assert!(ok.success());
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        let status = child.wait_with_output().unwrap();
        if seen {
            assert_eq!(
                status.status.code(),
                Some(130),
                "{}",
                String::from_utf8_lossy(&status.stderr)
            );
            assert_eq!(
                others(dir.path(), &[]),
                Vec::<String>::new(),
                "no temporary file and no half-written target"
            );
            caught = true;
            break;
        }
        // The save finished before we saw it: try a larger one.
        assert!(status.status.success());
        std::fs::remove_file(&out).unwrap();
    }
    assert!(caught, "never caught the save in progress");
}
