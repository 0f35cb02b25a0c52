//! The final table: one row per figure, with its target and verdict where it has one.

/// One line of the final table.
pub struct Row {
    pub phase: &'static str,
    pub what: String,
    pub value: String,
    pub target: String,
    pub verdict: Option<bool>,
}

impl Row {
    pub fn info(phase: &'static str, what: impl Into<String>, value: impl Into<String>) -> Row {
        Row {
            phase,
            what: what.into(),
            value: value.into(),
            target: String::new(),
            verdict: None,
        }
    }

    pub fn check(
        phase: &'static str,
        what: impl Into<String>,
        value: impl Into<String>,
        target: impl Into<String>,
        pass: bool,
    ) -> Row {
        Row {
            phase,
            what: what.into(),
            value: value.into(),
            target: target.into(),
            verdict: Some(pass),
        }
    }
}

pub fn print_table(rows: &[Row]) {
    let w = |f: &dyn Fn(&Row) -> usize, min: usize| rows.iter().map(f).max().unwrap_or(0).max(min);
    let (w0, w1, w2, w3) = (
        w(&|r| r.phase.len(), 5),
        w(&|r| r.what.chars().count(), 6),
        w(&|r| r.value.chars().count(), 5),
        w(&|r| r.target.chars().count(), 6),
    );
    println!(
        "{:<w0$}  {:<w1$}  {:>w2$}  {:<w3$}  result",
        "phase", "figure", "value", "target"
    );
    println!("{}", "-".repeat(w0 + w1 + w2 + w3 + 16));
    for r in rows {
        let verdict = match r.verdict {
            Some(true) => "PASS",
            Some(false) => "MISS",
            None => "",
        };
        // Padded by characters, not bytes: figures carry `µ`, `×` and `≥`.
        let pad = |s: &str, n: usize| {
            let len = s.chars().count();
            (s.to_owned(), " ".repeat(n.saturating_sub(len)))
        };
        let (what, p1) = pad(&r.what, w1);
        let (value, p2) = pad(&r.value, w2);
        let (target, p3) = pad(&r.target, w3);
        println!(
            "{:<w0$}  {what}{p1}  {p2}{value}  {target}{p3}  {verdict}",
            r.phase
        );
    }
}
