//! Statistics of timed samples and what the machine is.

use std::time::Duration;

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Nearest-rank percentile of sorted samples.
pub fn pct(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

pub fn sorted(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_by(f64::total_cmp);
    v
}

pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".into())
}

pub fn cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// CPU seconds of a process's live threads, to the nanosecond (`/proc/<pid>/task/*/schedstat`):
/// for windows of a few seconds, where `process_cpu_seconds`'s 10 ms ticks are too coarse.
/// Threads that ended within the window are missed, so windows stay short.
pub fn threads_cpu_seconds(pid: &str) -> Option<f64> {
    let by = threads_by_name(pid);
    (!by.is_empty()).then(|| by.values().map(|(cpu, _)| cpu).sum())
}

/// Per thread name (`comm`: tokio's workers, sled's threads, the service's), the CPU
/// seconds of a process's live threads and their context switches, voluntary and not:
/// where a cost sits, and how often the threads handed work to one another.
pub fn threads_by_name(pid: &str) -> std::collections::BTreeMap<String, (f64, u64)> {
    let mut by = std::collections::BTreeMap::new();
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return by;
    };
    for task in tasks.flatten() {
        let read = |f: &str| std::fs::read_to_string(task.path().join(f)).ok();
        let (Some(comm), Some(sched), Some(status)) =
            (read("comm"), read("schedstat"), read("status"))
        else {
            continue;
        };
        let run = schedstat(&sched).map_or(0.0, |(run, _)| run);
        let switches: u64 = status
            .lines()
            .filter(|l| l.contains("ctxt_switches:"))
            .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
            .sum();
        let e = by.entry(comm.trim().to_string()).or_insert((0.0, 0));
        e.0 += run;
        e.1 += switches;
    }
    by
}

/// User and system CPU seconds used so far by process `pid` ("self" for this one).
pub fn process_cpu_seconds(pid: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which is in parentheses): utime and stime are the
    // 14th and 15th fields, in clock ticks (100 a second on Linux).
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// The machine's CPU time so far, all CPUs, from `/proc/stat`, in clock ticks: in all, idle
/// (with I/O wait) and stolen by the hypervisor (a virtual CPU that had work but was not
/// run). Over a window: how much of the machine a figure had.
#[derive(Clone, Copy, Debug)]
pub struct MachineCpu {
    pub total: u64,
    pub idle: u64,
    pub steal: u64,
}

pub fn machine_cpu() -> Option<MachineCpu> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let f: Vec<u64> = stat
        .lines()
        .next()?
        .strip_prefix("cpu ")?
        .split_whitespace()
        .filter_map(|n| n.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal (guest time is inside user).
    Some(MachineCpu {
        total: f.iter().take(8).sum(),
        idle: f.get(3)? + f.get(4)?,
        steal: *f.get(7)?,
    })
}

impl MachineCpu {
    /// Idle and stolen shares of the machine between `self` (earlier) and `later`, in %.
    pub fn shares_until(self, later: MachineCpu) -> (f64, f64) {
        let total = later.total.saturating_sub(self.total).max(1) as f64;
        (
            later.idle.saturating_sub(self.idle) as f64 * 100.0 / total,
            later.steal.saturating_sub(self.steal) as f64 * 100.0 / total,
        )
    }
}

/// Seconds one thread has run and has waited, runnable, for a CPU
/// (`/proc/<pid>/task/<tid>/schedstat`'s first two fields): whether a stage that works
/// alone is short of work or short of a CPU.
pub fn thread_run_and_wait(pid: u32, tid: u32) -> Option<(f64, f64)> {
    schedstat(&std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/schedstat")).ok()?)
}

/// A `schedstat` line's time on a CPU and time runnable, waiting for one, in seconds.
fn schedstat(text: &str) -> Option<(f64, f64)> {
    let mut f = text.split_whitespace().map(|n| n.parse::<u64>().ok());
    let run = f.next()??;
    let wait = f.next()??;
    Some((run as f64 / 1e9, wait as f64 / 1e9))
}
