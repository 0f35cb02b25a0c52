//! The node's integration tests, one binary of modules (as jj's `cli/tests/runner.rs`):
//! linking one test binary instead of one per file is most of a cold `cargo test` on a small
//! machine. Real nodes (the service, libp2p over loopback TCP, sled on disk) run as tasks of
//! each test's runtime (`common`).

mod common;

mod abuse;
mod addresses;
mod adjourned;
mod churn;
mod connection_policy;
mod corruption;
mod delivery_stream;
mod deltas;
mod discovery;
mod equivocation;
mod escrow;
mod gossip_one_address;
mod gossip_topics;
mod instances;
mod kad_closest;
mod league_access;
mod league_deputy;
mod mailbox_relay;
mod network;
mod offline;
mod partial_repair;
mod profiles;
mod start_summaries;
mod stranger_budget;
mod two_nodes;

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
