//! What the nodes warn about while a phase runs.

use std::collections::BTreeMap;
use std::sync::Arc;

/// Counts the WARN events of every node in this process by message (ids and numbers
/// elided), so a figure comes with what went wrong while it was measured. With `RUST_LOG`
/// set, the log is also printed to stderr.
#[derive(Clone, Default)]
pub struct WarnCounter(Arc<std::sync::Mutex<BTreeMap<String, usize>>>);

impl WarnCounter {
    pub fn install() -> WarnCounter {
        use tracing_subscriber::Layer;
        use tracing_subscriber::layer::SubscriberExt;
        use tracing_subscriber::util::SubscriberInitExt;
        let counter = WarnCounter::default();
        let fmt = std::env::var_os("RUST_LOG").is_some().then(|| {
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_filter(tracing_subscriber::EnvFilter::from_default_env())
        });
        let _ = tracing_subscriber::registry()
            .with(fmt)
            .with(
                counter
                    .clone()
                    .with_filter(tracing_subscriber::filter::LevelFilter::WARN),
            )
            .try_init();
        counter
    }

    pub fn take(&self) -> BTreeMap<String, usize> {
        self.0
            .lock()
            .map(|mut m| std::mem::take(&mut *m))
            .unwrap_or_default()
    }
}

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for WarnCounter {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        struct Message(String);
        impl tracing::field::Visit for Message {
            fn record_debug(&mut self, f: &tracing::field::Field, v: &dyn std::fmt::Debug) {
                if f.name() == "message" {
                    self.0 = format!("{v:?}");
                }
            }
        }
        let mut m = Message(String::new());
        event.record(&mut m);
        let key = elide(&m.0);
        if let Ok(mut map) = self.0.lock() {
            *map.entry(key).or_default() += 1;
        }
    }
}

/// A message with ids (long alphanumeric words) as `…` and numbers as `N`, cut to 72 chars.
fn elide(msg: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if word.len() >= 16 {
            out.push('…');
        } else if !word.is_empty() && word.chars().all(|c| c.is_ascii_digit()) {
            out.push('N');
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in msg.chars() {
        if c.is_ascii_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out.chars().take(72).collect()
}
