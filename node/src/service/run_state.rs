//! This run of the node: when it started, how many games the start verified in full, and
//! whether a request (or another instance of the key) asked it to stop. `status` reports
//! the first two; the service's loop ends on the third.

pub(super) struct RunState {
    started_ms: u64,
    /// How many games the start verified in full (the others were read from their stored
    /// summaries).
    verified_at_start: usize,
    stop: bool,
}

impl RunState {
    pub(super) fn new(started_ms: u64) -> RunState {
        RunState {
            started_ms,
            verified_at_start: 0,
            stop: false,
        }
    }

    pub(super) fn loaded(&mut self, verified_in_full: usize) {
        self.verified_at_start = verified_in_full;
    }

    pub(super) fn verified_at_start(&self) -> usize {
        self.verified_at_start
    }

    /// How long the node has run at `now` (0 if the clock went back).
    pub(super) fn uptime_ms(&self, now: u64) -> u64 {
        now.saturating_sub(self.started_ms)
    }

    /// The loop ends after the event being handled.
    pub(super) fn stop(&mut self) {
        self.stop = true;
    }

    pub(super) fn stopping(&self) -> bool {
        self.stop
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uptime_counts_from_the_start_and_never_goes_negative() {
        let mut r = RunState::new(1_000);
        r.loaded(3);
        assert_eq!(r.uptime_ms(4_000), 3_000);
        assert_eq!(r.uptime_ms(500), 0, "a clock set back");
        assert_eq!(r.verified_at_start(), 3);
        assert!(!r.stopping());
        r.stop();
        assert!(r.stopping());
    }
}
