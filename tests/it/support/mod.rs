//! What the tests share: the GPU context and error scopes ([`gpu`]), test states and their
//! comparison ([`states`]), the image comparator ([`images`]), the `boids` binary ([`cmd`]),
//! capture files ([`capture`]), the window harness ([`window`]) and the lock of tests that need
//! the machine alone ([`alone`]).

pub mod alone;
pub mod capture;
pub mod cmd;
pub mod gpu;
pub mod images;
pub mod states;
pub mod window;

pub use gpu::{checked, gpu, run_stages, upload_sorted};
pub use states::{compare_states, test_state, Tolerance, ONE_STEP};

/// Fails the test unless the message `e` holds every one of `parts` (a field, a value, a range, a
/// file and line), naming the parts it lacks.
pub fn assert_names(e: &str, parts: &[&str]) {
    let missing: Vec<&&str> = parts.iter().filter(|p| !e.contains(**p)).collect();
    assert!(missing.is_empty(), "message lacks {missing:?}: {e}");
}

/// The comparator itself, on a planted difference: a message that lacks a part fails.
#[test]
fn assert_names_fails_on_a_missing_part() {
    assert_names(
        "dt = 5 is out of range: allowed 0.0001 ..= 0.1",
        &["dt = 5", "0.1"],
    );
    let r = std::panic::catch_unwind(|| assert_names("dt = 5", &["dt = 5", "line 4"]));
    let e = r.expect_err("a missing part fails");
    let e = e.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(e.contains("\"line 4\"") && !e.contains("\"dt = 5\""), "{e}");
}
