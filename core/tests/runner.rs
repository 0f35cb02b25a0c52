//! The rules core's integration tests, one binary of modules (as jj's `cli/tests/runner.rs`):
//! linking one test binary instead of one per file is most of a cold `cargo test`.

mod common;

mod agreed_time;
mod appendix_a11;
mod appendix_a_resumption;
mod appendix_a_sealing;
mod art_10_2;
mod clock;
mod coin_default;
mod coin_withholding;
mod dead_position;
mod differential;
mod editions;
mod escrow;
mod export;
mod league_wire_snapshots;
mod notation;
mod perft;
mod pgn_reader;
mod scoresheets;
mod seeds;
mod signatures;
mod time_evidence;
mod verify_props;
mod wire_snapshots;

/// Every test file is a module of this binary (or a binary of its own, named in the crate's
/// `Cargo.toml` for a reason given there): a file left out would silently never run.
#[test]
fn every_test_file_is_compiled() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let runner = std::fs::read_to_string(dir.join("runner.rs")).expect("runner.rs");
    let manifest = std::fs::read_to_string(dir.join("../Cargo.toml")).expect("Cargo.toml");
    for entry in std::fs::read_dir(&dir).expect("tests/") {
        let path = entry.expect("entry").path();
        let (Some(stem), Some("rs")) = (
            path.file_stem().and_then(|s| s.to_str()),
            path.extension().and_then(|e| e.to_str()),
        ) else {
            continue;
        };
        if stem == "runner" {
            continue;
        }
        let module = runner.lines().any(|l| l == format!("mod {stem};"));
        let binary = manifest.contains(&format!("path = \"tests/{stem}.rs\""));
        assert!(
            module || binary,
            "tests/{stem}.rs is neither a module of runner.rs nor a [[test]]"
        );
    }
}
