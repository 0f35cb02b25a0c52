//! clap's own errors (an unknown option, a missing argument, a bad value) in the run's
//! language. clap writes them in English; in Spanish the common kinds are rewritten here
//! from the error's typed context (its kind and the values it names, never its text), and
//! the rare ones are left to clap.

use super::Language;
use crate::t;
use clap::error::{ContextKind, ContextValue, ErrorKind};

/// What to print for `e` in `lang` (standard error), or `None` to let clap print its own.
pub fn message(e: &clap::Error, lang: Language) -> Option<String> {
    if lang == Language::English {
        return None;
    }
    let text = |k: ContextKind| match e.get(k) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(v)) => Some(v.join(", ")),
        Some(ContextValue::StyledStr(s)) => Some(s.to_string()),
        Some(ContextValue::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    let list = |k: ContextKind| match e.get(k) {
        Some(ContextValue::Strings(v)) => v.clone(),
        Some(ContextValue::String(s)) => vec![s.clone()],
        _ => Vec::new(),
    };
    let arg = text(ContextKind::InvalidArg).unwrap_or_default();
    let mut out = match e.kind() {
        ErrorKind::MissingRequiredArgument => {
            let mut m = t!("parse-missing");
            for a in list(ContextKind::InvalidArg) {
                m.push_str("\n  ");
                m.push_str(&a);
            }
            m
        }
        ErrorKind::UnknownArgument => {
            let mut m = t!("parse-unknown-arg", arg = arg);
            if let Some(s) = text(ContextKind::SuggestedArg) {
                m.push_str("\n\n  ");
                m.push_str(&t!("parse-did-you-mean", suggestion = s));
            }
            m
        }
        ErrorKind::InvalidSubcommand => {
            let sub = text(ContextKind::InvalidSubcommand).unwrap_or_default();
            let mut m = t!("parse-unknown-command", command = sub);
            if let Some(s) = text(ContextKind::SuggestedSubcommand) {
                m.push_str("\n\n  ");
                m.push_str(&t!("parse-did-you-mean", suggestion = s));
            }
            m
        }
        ErrorKind::InvalidValue => {
            let value = text(ContextKind::InvalidValue).unwrap_or_default();
            let mut m = t!("parse-invalid-value", value = value, arg = arg);
            let valid = list(ContextKind::ValidValue);
            if !valid.is_empty() {
                m.push_str("\n  ");
                m.push_str(&t!("parse-possible-values", values = valid.join(", ")));
            }
            m
        }
        ErrorKind::ValueValidation => {
            let value = text(ContextKind::InvalidValue).unwrap_or_default();
            let why = std::error::Error::source(e).map(ToString::to_string);
            let m = t!("parse-invalid-value", value = value, arg = arg);
            match why {
                Some(w) => format!("{m}: {w}"),
                None => m,
            }
        }
        ErrorKind::ArgumentConflict => {
            let prior = text(ContextKind::PriorArg).unwrap_or_default();
            t!("parse-conflict", arg = arg, other = prior)
        }
        _ => return None,
    };
    out = t!("error-line", message = out);
    if let Some(usage) = text(ContextKind::Usage) {
        let usage = usage.trim();
        let usage = usage.strip_prefix("Usage:").unwrap_or(usage).trim();
        out.push_str("\n\n");
        out.push_str(&t!("parse-usage", usage = usage));
    }
    out.push_str("\n\n");
    out.push_str(&t!("parse-more"));
    out.push('\n');
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn spanish_error(args: &[&str]) -> String {
        let cmd = super::super::help::localise(crate::Cli::command(), Language::Spanish);
        let e = cmd
            .try_get_matches_from(args)
            .expect_err("the arguments are wrong");
        super::super::with_lang(Language::Spanish, || message(&e, Language::Spanish))
            .expect("a Spanish message")
    }

    #[test]
    fn parse_errors_are_spanish() {
        let missing = spanish_error(&["sobre", "move"]);
        assert!(
            missing.starts_with("error: faltan argumentos obligatorios:"),
            "{missing}"
        );
        assert!(
            missing.contains("<PARTIDA>") && missing.contains("Uso: sobre move"),
            "{missing}"
        );
        let unknown = spanish_error(&["sobre", "games", "--jsno"]);
        assert!(
            unknown.contains("argumento inesperado '--jsno'"),
            "{unknown}"
        );
        assert!(unknown.contains("'--json'"), "{unknown}");
        let command = spanish_error(&["sobre", "gmaes"]);
        assert!(command.contains("comando desconocido 'gmaes'"), "{command}");
        let value = spanish_error(&["sobre", "draw", "ofer", "abc"]);
        assert!(value.contains("valor no válido 'ofer'"), "{value}");
        assert!(value.contains("offer"), "{value}");
        assert!(
            !value.contains("Usage") && !value.contains("For more"),
            "{value}"
        );
    }

    #[test]
    fn english_keeps_clap_s_own_errors() {
        let e = crate::Cli::command()
            .try_get_matches_from(["sobre", "move"])
            .expect_err("wrong");
        assert_eq!(message(&e, Language::English), None);
    }
}
