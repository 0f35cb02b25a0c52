//! The end-to-end tests of the `sobre` binary, one binary of modules (as jj's
//! `cli/tests/runner.rs`): linking one test binary instead of one per file is most of a cold
//! `cargo test` on a small machine. Each test runs real `sobre` processes (`common`).

mod common;

mod board;
mod board_browser;
mod cli_home;
mod cli_offline;
mod cli_verify;
mod clock_skew_e2e;
mod clocks_e2e;
mod coin_default_e2e;
mod connect;
mod correspondence_e2e;
mod crash_loop;
mod daily_use;
mod e2e_workflow;
mod escrow_cli;
mod fair_play_time;
mod golden;
mod league_deputy_e2e;
mod league_e2e;
mod league_table_e2e;
mod lost_envelope_e2e;
mod nat_netns;
mod node_service;
mod partition_netns;
mod profiles_e2e;
mod quickplay_e2e;
mod reminders_e2e;
mod spanish_refusals;
mod storage_full;
mod timekeeper_e2e;

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
