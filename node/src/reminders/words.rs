//! A reminder's words in the player's language, from sobre's one catalogue
//! ([`sobre_words`], the `reminder-*` messages): used by the node for what it delivers
//! (desktop notification, e-mail, the hook's `line` and `title`) and by the CLI for
//! `sobre reminders` and `watch`.
//!
//! The language and notation are the player's settings, read from `HOME/config.json` as the
//! CLI reads them (`"language"`, `"notation"`), at each delivery so that changing them
//! needs no restart; without a `"language"`, the environment's by the POSIX rule
//! ([`Language::from_locale_vars`]). [`Reminder::text`] stays English: it is the API's
//! line, what scripts match on.

use super::{Reminder, ReminderKind, human_left, move_number};
use crate::player_config::PlayerConfig;
use sobre_core::notation::Notation;
use sobre_core::record::ClaimReason;
use sobre_words::Language;
use sobre_words::{FluentArgs, Words, args};
use std::path::Path;

/// How a reminder is worded: a language and the notation its move is written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wording {
    pub lang: Language,
    /// `None`: the move as the node keeps it (English SAN).
    pub notation: Option<Notation>,
}

impl Wording {
    /// English, moves in English SAN: the node's own [`Reminder::text`].
    pub const ENGLISH: Wording = Wording {
        lang: Language::English,
        notation: None,
    };

    /// The player's wording for a home: `"language"` and `"notation"` of
    /// `HOME/config.json`, the language falling back to the environment's. A missing or
    /// damaged file means no settings (the CLI reports a damaged file; a reminder is no
    /// place to).
    pub fn for_home(home: &Path) -> Wording {
        let settings = PlayerConfig::read(home).ok().flatten();
        Wording {
            lang: settings
                .as_ref()
                .and_then(PlayerConfig::language)
                .unwrap_or_else(|| Language::from_locale_vars(|k| std::env::var(k).ok())),
            notation: settings.as_ref().and_then(PlayerConfig::notation),
        }
    }

    /// The move `san` (English SAN, as recorded) in the player's notation.
    fn san(self, san: &str) -> String {
        self.notation
            .map_or_else(|| san.to_owned(), |n| n.san_of(san))
    }

    /// The words of this wording's language.
    fn words(self) -> &'static Words {
        sobre_words::words(self.lang)
    }

    /// A claim's reason (`time`, `lateness`…) as words (the catalogue's short words of a
    /// claim); a reason no claim has, as it came.
    fn reason(self, reason: &str) -> String {
        match reason.parse::<ClaimReason>() {
            Ok(r) => self.words().get(&format!("claim-short-{}", r.name()), None),
            Err(_) => reason.to_owned(),
        }
    }

    /// The arguments naming a claim: `reason` as typed after `sobre claim`, `word` its
    /// words (English names it by the first, Spanish by the second).
    fn claim_args(self, reason: &str, short: &str) -> FluentArgs<'static> {
        args!(short = short, reason = reason, word = self.reason(reason))
    }

    /// The line of a reminder of `kind` about game `short` (its first 8 hex digits; unused
    /// for a league round). `None` for a resumption recorded without its `ms_left`: its
    /// line cannot be rebuilt, only the recorded one shown ([`Wording::line`]).
    pub fn kind_line(self, kind: &ReminderKind, short: &str) -> Option<String> {
        let (key, args) = match kind {
            ReminderKind::MoveArrived { san, ply, .. } => {
                let (number, dots) = move_number(*ply);
                let args = args!(
                    number = number.to_string(),
                    dots = dots,
                    san = self.san(san),
                    short = short
                );
                ("reminder-move-arrived", args)
            }
            ReminderKind::ClockLow { ms_left, .. } => {
                let args = args!(short = short, left = human_left(*ms_left));
                ("reminder-clock-low", args)
            }
            ReminderKind::ClaimPossible { reason, .. } => {
                ("reminder-claim-possible", self.claim_args(reason, short))
            }
            ReminderKind::AutoClaim { reason } => {
                ("reminder-auto-claim", self.claim_args(reason, short))
            }
            ReminderKind::LeagueRound { name, round, .. } => {
                let args = args!(round = round.to_string(), name = name.as_str());
                ("reminder-league-round", args)
            }
            ReminderKind::Resumption { ms_left, .. } => {
                let args = args!(short = short, left = human_left((*ms_left)?));
                ("reminder-resumption", args)
            }
        };
        Some(self.words().get(key, Some(&args)))
    }

    /// The reminder's line: rebuilt from its kind in this wording, or the recorded English
    /// line when it cannot be.
    pub fn line(self, r: &Reminder) -> String {
        let short = r.game.as_deref().map_or("", |g| g.get(..8).unwrap_or(g));
        self.kind_line(&r.kind, short)
            .unwrap_or_else(|| r.text.clone())
    }

    /// The subject of its notification or e-mail.
    pub fn title(self, r: &Reminder) -> String {
        let none = FluentArgs::new;
        let (key, args) = match &r.kind {
            ReminderKind::MoveArrived { san, .. } => {
                ("reminder-move-arrived-title", args!(san = self.san(san)))
            }
            ReminderKind::ClockLow { .. } => ("reminder-clock-low-title", none()),
            ReminderKind::ClaimPossible { reason, .. } => {
                ("reminder-claim-possible-title", self.claim_args(reason, ""))
            }
            ReminderKind::AutoClaim { reason } => {
                ("reminder-auto-claim-title", self.claim_args(reason, ""))
            }
            ReminderKind::LeagueRound { name, round, .. } => (
                "reminder-league-round-title",
                args!(round = round.to_string(), name = name.as_str()),
            ),
            ReminderKind::Resumption { .. } => ("reminder-resumption-title", none()),
        };
        self.words().get(key, Some(&args))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reminder(kind: ReminderKind) -> Reminder {
        Reminder {
            key: "k".into(),
            game: Some("3f2a9c1e0011".into()),
            time_ms: 1,
            text: kind.english("3f2a9c1e").unwrap_or_default(),
            kind,
        }
    }

    fn spanish(notation: Option<Notation>) -> Wording {
        Wording {
            lang: Language::Spanish,
            notation,
        }
    }

    /// The English wording is the node's recorded line, word for word.
    #[test]
    fn the_english_line_is_the_recorded_one() {
        let r = reminder(ReminderKind::ClaimPossible {
            reason: "lateness".into(),
            opponent: "x".into(),
        });
        assert_eq!(Wording::ENGLISH.line(&r), r.text);
        assert_eq!(
            r.text,
            "you can claim game 3f2a9c1e (lateness): sobre claim 3f2a9c1e lateness"
        );
    }

    /// In Spanish the move is in the player's letters (FIDE App. E2) and the claim's reason
    /// (6.9, A10) in words, while the command stays the one to type.
    #[test]
    fn a_spanish_players_reminder_is_in_spanish_with_spanish_letters() {
        let arrived = reminder(ReminderKind::MoveArrived {
            san: "Nxe5+".into(),
            ply: 9,
            by: "x".into(),
        });
        assert_eq!(
            spanish(Some(Notation::Spanish)).line(&arrived),
            "su adversario jugó 5. Cxe5+ en la partida 3f2a9c1e"
        );
        assert_eq!(
            spanish(Some(Notation::Spanish)).title(&arrived),
            "sobre: su adversario jugó Cxe5+"
        );
        assert_eq!(
            spanish(Some(Notation::Figurine)).title(&arrived),
            "sobre: su adversario jugó ♘xe5+"
        );
        let claim = reminder(ReminderKind::ClaimPossible {
            reason: "time".into(),
            opponent: "x".into(),
        });
        assert_eq!(
            spanish(None).line(&claim),
            "puede reclamar la partida 3f2a9c1e (tiempo): sobre claim 3f2a9c1e time"
        );
        assert_eq!(
            spanish(None).title(&claim),
            "sobre: puede reclamar la partida (tiempo)"
        );
    }

    /// Every kind has its own Spanish line and title.
    #[test]
    fn every_kind_is_worded_in_spanish() {
        let kinds = [
            ReminderKind::MoveArrived {
                san: "e4".into(),
                ply: 1,
                by: "x".into(),
            },
            ReminderKind::ClockLow {
                ms_left: 60_000,
                deadline_ms: 1,
            },
            ReminderKind::ClaimPossible {
                reason: "time".into(),
                opponent: "x".into(),
            },
            ReminderKind::AutoClaim {
                reason: "lateness".into(),
            },
            ReminderKind::LeagueRound {
                league: "ab".into(),
                name: "Club".into(),
                round: 2,
                opens_ms: 1,
            },
            ReminderKind::Resumption {
                resume_at_ms: 1,
                ms_left: Some(3_600_000),
            },
        ];
        for kind in kinds {
            let r = reminder(kind);
            let es = spanish(None);
            assert_ne!(es.line(&r), Wording::ENGLISH.line(&r), "{r:?}");
            assert_ne!(es.title(&r), Wording::ENGLISH.title(&r), "{r:?}");
        }
    }

    /// The settings' `"language"` wins over the environment; `"notation"` is read too; an
    /// unknown language or a damaged file falls back without failing.
    #[test]
    fn the_wording_comes_from_the_players_settings() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("config.json"),
            r#"{"language":"es","notation":"es"}"#,
        )
        .unwrap();
        assert_eq!(
            Wording::for_home(dir.path()),
            Wording {
                lang: Language::Spanish,
                notation: Some(Notation::Spanish)
            }
        );
        std::fs::write(dir.path().join("config.json"), r#"{"language":"en"}"#).unwrap();
        assert_eq!(Wording::for_home(dir.path()).lang, Language::English);
        std::fs::write(dir.path().join("config.json"), "{not json").unwrap();
        assert_eq!(Wording::for_home(dir.path()).notation, None);
        assert_eq!(
            Language::from_setting("es_AR.UTF-8"),
            Some(Language::Spanish)
        );
        assert_eq!(Language::from_setting("fr"), None);
    }
}
