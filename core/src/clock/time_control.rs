//! Time controls ([`TimeControl`], FIDE 6.2) and their stable text form. Separate from the
//! clocks: parsing and printing controls needs no timestamps.

use std::fmt;
use std::num::NonZeroU32;
use std::str::FromStr;

use super::duration::{Dur, DurationError, parse_duration};
use super::{DAY, MINUTE, Millis, to_i64};

/// One over-the-board period: `moves` moves must be completed in `time` (FIDE 6.2a). Time
/// left over is carried into the next period (6.2b).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Period {
    /// Moves to complete in this period (written before the `/`).
    pub moves: NonZeroU32,
    /// Time allotted for them.
    pub time: Millis,
}

/// Extra time per move in an over-the-board control (FIDE 6.2a, 6.2b).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Bonus {
    /// No extra time.
    #[default]
    None,
    /// Fischer increment: added to the player's clock after each of their completed moves,
    /// from move 1 on (6.2a "tiempo adicional con cada jugada").
    Increment(Millis),
    /// Delay (6.2b, "tiempo diferido" / "demora"; US "simple delay"): the first `delay` of
    /// each move is not charged; unused delay is not carried forward.
    Delay(Millis),
}

/// An over-the-board control: periods of `moves/time`, then optionally a final period for
/// all remaining moves ("sudden death"), plus an optional [`Bonus`]. Built only through
/// [`Classical::new`] (or parsing), so it always has some time in it.
///
/// Without a final period, the last `moves/time` period repeats (e.g. `40/2h:16/1h` gives
/// another hour after moves 56, 72, 88, …), the traditional form of adjourned games.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Classical {
    periods: Vec<Period>,
    sudden_death: Option<Millis>,
    bonus: Bonus,
    /// How long a playing session lasts, when the competition fixes it (`session 5h`): a
    /// player who adjourns before its end is deemed to have sealed at it (Appendix A1b).
    session: Option<Millis>,
}

impl Classical {
    /// A checked over-the-board control. A zero increment or delay is stored as
    /// [`Bonus::None`], so equal controls compare equal.
    ///
    /// # Errors
    /// [`TimeControlErrorKind::NoPeriods`] without any period nor a final period;
    /// [`TimeControlErrorKind::ZeroTime`] if a period or the final period has no time.
    ///
    /// # Examples
    /// ```
    /// use std::num::NonZeroU32;
    /// use sobre_core::clock::{Bonus, Classical, Period, TimeControl, HOUR};
    /// let forty = NonZeroU32::new(40).unwrap();
    /// let tc = Classical::new(vec![Period { moves: forty, time: 2 * HOUR }], Some(HOUR), Bonus::None)?;
    /// assert_eq!(TimeControl::Classical(tc).to_string(), "40/2h:1h");
    /// # Ok::<(), sobre_core::clock::TimeControlErrorKind>(())
    /// ```
    pub fn new(
        periods: Vec<Period>,
        sudden_death: Option<Millis>,
        bonus: Bonus,
    ) -> Result<Self, TimeControlErrorKind> {
        if periods.is_empty() && sudden_death.is_none() {
            return Err(TimeControlErrorKind::NoPeriods);
        }
        if periods.iter().any(|p| p.time == 0) {
            return Err(TimeControlErrorKind::ZeroTime { what: "a period" });
        }
        if sudden_death == Some(0) {
            return Err(TimeControlErrorKind::ZeroTime {
                what: "the final period",
            });
        }
        let bonus = match bonus {
            Bonus::Increment(0) | Bonus::Delay(0) => Bonus::None,
            other => other,
        };
        Ok(Classical {
            periods,
            sudden_death,
            bonus,
            session: None,
        })
    }

    /// The same control with playing sessions of `session` (Appendix A1b); zero means none.
    pub fn with_session(mut self, session: Millis) -> Self {
        self.session = (session > 0).then_some(session);
        self
    }

    /// How long a playing session lasts, if the control says (Appendix A1b).
    pub fn session(&self) -> Option<Millis> {
        self.session
    }

    /// The `moves/time` periods, in order.
    pub fn periods(&self) -> &[Period] {
        &self.periods
    }

    /// The final period for all remaining moves, if any.
    pub fn sudden_death(&self) -> Option<Millis> {
        self.sudden_death
    }

    /// Increment or delay.
    pub fn bonus(&self) -> Bonus {
        self.bonus
    }

    /// Time on each clock at the start: the first period's.
    pub(super) fn initial(&self) -> Millis {
        self.periods
            .first()
            .map(|p| p.time)
            .or(self.sudden_death)
            .unwrap_or(0)
    }

    /// Time added when a player completes their `n`-th move (n ≥ 1): the increment, plus the
    /// next period's time when `n` ends a period (FIDE 6.2b: saved time carries forward).
    pub(super) fn added_after_move(&self, n: u32) -> Millis {
        let increment = match self.bonus {
            Bonus::Increment(inc) => inc,
            Bonus::None | Bonus::Delay(_) => 0,
        };
        increment.saturating_add(self.period_added_after_move(n))
    }

    fn period_added_after_move(&self, n: u32) -> Millis {
        let n = u64::from(n);
        let mut boundary: u64 = 0;
        for (i, period) in self.periods.iter().enumerate() {
            boundary = boundary.saturating_add(u64::from(period.moves.get()));
            if n < boundary {
                return 0;
            }
            if n == boundary {
                return self
                    .periods
                    .get(i + 1)
                    .map(|next| next.time)
                    .or(self.sudden_death)
                    .unwrap_or(period.time);
            }
        }
        match (self.sudden_death, self.periods.last()) {
            (None, Some(last)) if (n - boundary).is_multiple_of(u64::from(last.moves.get())) => {
                last.time
            }
            _ => 0,
        }
    }
}

/// A time control, with a stable text form ([`fmt::Display`] and [`FromStr`] round-trip).
///
/// # Text syntax
/// Durations are written as in [`parse_duration`] (`3d`, `90m`, `1d12h`, `30s`).
///
/// | text | meaning |
/// | --- | --- |
/// | `unlimited` | no clock |
/// | `3d` | correspondence, each move within 3 days; unused time is not carried forward |
/// | `3d+1d` | the same, plus a 1-day increment per move kept as a reserve (see below) |
/// | `10/50d` | ICCF: 10 moves in 50 days, then 50 more days every 10 moves, unused time carried forward |
/// | `10/50d+1d` | the same, plus 1 day after every move |
/// | `40/2h+1h` or `40/2h:1h` | over the board: 40 moves in 2 h, then 1 h for the rest (FIDE 6.2) |
/// | `40/2h:20/1h:30m` | 40 moves in 2 h, 20 moves in 1 h, then 30 min for the rest |
/// | `40/90m:30m+30s` | 40 in 90 min, then 30 min, with a 30 s increment from move 1 |
/// | `90m+30s` or `90m inc 30s` | 90 min for the game, 30 s increment per move |
/// | `90m d5s` or `90m delay 5s` | 90 min for the game, 5 s delay per move (FIDE 6.2b) |
/// | `40/2h` | 40 moves in 2 h, repeated every 40 moves |
///
/// **Correspondence or over the board?** A control may start with `corr ` or `otb ` to say
/// which it is. Without that word, it is correspondence when its first period is at least one
/// day (`3d`, `10/50d`, `72h`), over the board otherwise (`90m`, `40/2h`). Display writes the
/// word only when this rule would read the control the other way (`corr 12h`, `otb 1d`).
///
/// **`+` in over-the-board controls**: after a `moves/time` period, `+` starts the next
/// period, exactly like `:` (`40/2h+1h` = 40 moves in 2 h, then 1 h). After the final
/// period (one without a move count) `+` gives the increment (`40/2h+1h+30s`, `90m+30s`).
/// A control without a final period writes its increment as ` inc 30s` (`40/2h inc 30s`);
/// `+` with less than a minute after a `moves/time` period (`40/2h+30s`) is refused as
/// ambiguous (write `inc 30s`, or `:30s` for a final period that short).
/// Delay is always a separate word, `d5s` or `delay 5s`; a control has an increment or a
/// delay, not both. Display writes periods joined by `:`, then `+inc` or ` inc X`, then ` dX`.
///
/// **Correspondence increment**: in `10/50d+1d` the day is added after every move and
/// carried forward with the rest. In `3d+1d` unused per-move time is *not* carried forward,
/// but increments build a reserve: each move may take `3d` plus the reserve; time beyond
/// `3d` is taken from the reserve, and 1 day is added to it after every move.
///
/// # Examples
/// ```
/// use sobre_core::clock::{TimeControl, DAY};
/// let tc: TimeControl = "10/50d+1d".parse()?;
/// assert!(matches!(tc, TimeControl::CorrespondenceMoves { period, increment, .. }
///     if period == 50 * DAY && increment == DAY));
/// assert_eq!("40/2h+1h".parse::<TimeControl>()?.to_string(), "40/2h:1h");
/// assert_eq!("3d".parse::<TimeControl>()?, TimeControl::CorrespondencePerMove { per_move: 3 * DAY, increment: 0 });
/// # Ok::<(), sobre_core::clock::TimeControlError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// No clock: never a flag, no deadline.
    Unlimited,
    /// Correspondence: each move within `per_move` of the move reaching the player; time is
    /// not carried forward. `increment` (0 = none) builds a reserve, see the type docs.
    CorrespondencePerMove {
        /// Time for each move.
        per_move: Millis,
        /// Added to the player's reserve after each of their moves.
        increment: Millis,
    },
    /// Correspondence, ICCF style: `moves` moves in `period`; after each block of `moves`
    /// moves the player gets another `period` on top of what remains (time carried forward).
    CorrespondenceMoves {
        /// Moves per block.
        moves: NonZeroU32,
        /// Time per block.
        period: Millis,
        /// Added after each move (0 = none).
        increment: Millis,
    },
    /// Over the board (FIDE Art. 6), used for adjourned games (Appendix A).
    Classical(Classical),
}

impl TimeControl {
    /// How long a playing session lasts, for an over-the-board control that says
    /// (`session 5h`): Appendix A1b charges a player who adjourns early to the session's end.
    pub fn session(&self) -> Option<Millis> {
        match self {
            TimeControl::Classical(c) => c.session(),
            _ => None,
        }
    }

    /// The transit allowance of protocol version 3 when the game has no timekeeper
    /// (docs/time.md): how late after its signed time a move counts as having reached the
    /// opponent at the latest, and so the most an absent receiver costs the mover, or a
    /// receipt dated late gains the receiver. A twentieth of the time for one move (the
    /// per-move time, or a block's time over its moves) capped at two hours, and at least
    /// ten seconds; ten seconds over the board, where both players are online; none
    /// without a clock.
    ///
    /// # Examples
    /// ```
    /// use sobre_core::clock::{TimeControl, HOUR, MINUTE, SECOND};
    /// let per_day: TimeControl = "1d".parse()?;
    /// assert_eq!(per_day.transit_allowance_ms(), 72 * MINUTE);
    /// let three_days: TimeControl = "3d".parse()?;
    /// assert_eq!(three_days.transit_allowance_ms(), 2 * HOUR);
    /// let otb: TimeControl = "otb 5m".parse()?;
    /// assert_eq!(otb.transit_allowance_ms(), 10 * SECOND);
    /// # Ok::<(), sobre_core::clock::TimeControlError>(())
    /// ```
    pub fn transit_allowance_ms(&self) -> Millis {
        const FLOOR: Millis = 10 * super::SECOND;
        const CAP: Millis = 2 * super::HOUR;
        let per_move = match self {
            TimeControl::Unlimited => return 0,
            TimeControl::Classical(_) => return FLOOR,
            TimeControl::CorrespondencePerMove { per_move, .. } => *per_move,
            TimeControl::CorrespondenceMoves { moves, period, .. } => {
                *period / Millis::from(moves.get())
            }
        };
        (per_move / 20).clamp(FLOOR, CAP)
    }

    /// Whether this is a correspondence control (per move or ICCF blocks).
    pub fn is_correspondence(&self) -> bool {
        matches!(
            self,
            TimeControl::CorrespondencePerMove { .. } | TimeControl::CorrespondenceMoves { .. }
        )
    }

    /// The delay of FIDE 6.2b, if this control has one (0 otherwise).
    pub fn delay(&self) -> Millis {
        match self {
            TimeControl::Classical(Classical {
                bonus: Bonus::Delay(delay),
                ..
            }) => *delay,
            _ => 0,
        }
    }

    /// Time on each clock when the game starts (`i64::MAX` for [`TimeControl::Unlimited`]).
    pub(super) fn initial(&self) -> i64 {
        match self {
            TimeControl::Unlimited => i64::MAX,
            TimeControl::CorrespondencePerMove { per_move, .. } => to_i64(*per_move),
            TimeControl::CorrespondenceMoves { period, .. } => to_i64(*period),
            TimeControl::Classical(c) => to_i64(c.initial()),
        }
    }

    /// Length of the first period, which decides correspondence vs over the board when the
    /// text has no `corr`/`otb` word.
    fn first_period(&self) -> Millis {
        match self {
            TimeControl::Unlimited => 0,
            TimeControl::CorrespondencePerMove { per_move, .. } => *per_move,
            TimeControl::CorrespondenceMoves { period, .. } => *period,
            TimeControl::Classical(c) => c.initial(),
        }
    }
}

impl fmt::Display for TimeControl {
    /// The canonical text form; see the [type docs](TimeControl#text-syntax).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let looks_like_correspondence = self.first_period() >= DAY;
        match self {
            TimeControl::Unlimited => f.write_str("unlimited"),
            TimeControl::CorrespondencePerMove {
                per_move,
                increment,
            } => {
                if !looks_like_correspondence {
                    f.write_str("corr ")?;
                }
                write!(f, "{}", Dur(*per_move))?;
                if *increment > 0 {
                    write!(f, "+{}", Dur(*increment))?;
                }
                Ok(())
            }
            TimeControl::CorrespondenceMoves {
                moves,
                period,
                increment,
            } => {
                if !looks_like_correspondence {
                    f.write_str("corr ")?;
                }
                write!(f, "{moves}/{}", Dur(*period))?;
                if *increment > 0 {
                    write!(f, "+{}", Dur(*increment))?;
                }
                Ok(())
            }
            TimeControl::Classical(c) => {
                if looks_like_correspondence {
                    f.write_str("otb ")?;
                }
                let mut separator = "";
                for period in &c.periods {
                    write!(f, "{separator}{}/{}", period.moves, Dur(period.time))?;
                    separator = ":";
                }
                if let Some(rest) = c.sudden_death {
                    write!(f, "{separator}{}", Dur(rest))?;
                }
                match (c.bonus, c.sudden_death) {
                    (Bonus::None, _) => Ok(()),
                    (Bonus::Increment(inc), Some(_)) => write!(f, "+{}", Dur(inc)),
                    (Bonus::Increment(inc), None) => write!(f, " inc {}", Dur(inc)),
                    (Bonus::Delay(delay), _) => write!(f, " d{}", Dur(delay)),
                }?;
                match c.session {
                    Some(session) => write!(f, " session {}", Dur(session)),
                    None => Ok(()),
                }
            }
        }
    }
}

/// Why a time control did not parse (or [`Classical::new`] refused it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlErrorKind {
    /// Nothing but whitespace.
    #[error("empty (write e.g. 3d, 10/50d, 40/2h+1h or unlimited)")]
    Empty,
    /// A duration inside the control did not parse.
    #[error("{0}")]
    Duration(DurationError),
    /// The text before a `/` is not a whole number of moves ≥ 1.
    #[error("bad move count {text:?} (a whole number of moves, at least 1)")]
    MoveCount {
        /// The text before the `/`.
        text: String,
    },
    /// A period, the time per move or the final period has no time.
    #[error("{what} must be longer than zero")]
    ZeroTime {
        /// Which part: "a period", "the time per move", …
        what: &'static str,
    },
    /// Neither a `moves/time` period nor a final period.
    #[error("no period with time in it")]
    NoPeriods,
    /// A correspondence control with more than one period or a delay.
    #[error(
        "a correspondence control is one period with an optional increment, e.g. 3d+1d or 10/50d+1d (start with `otb ` for over-the-board periods)"
    )]
    CorrespondenceShape,
    /// A `moves/time` period after the final (move-less) period, or two final periods.
    #[error("{text:?} comes after the final period (the period without a move count must be last)")]
    AfterFinalPeriod {
        /// The out-of-place period.
        text: String,
    },
    /// `+` with less than a minute after a `moves/time` period (`40/2h+30s`): an increment
    /// must be written `inc 30s` there, a short final period `:30s`.
    #[error(
        "+{text} after a period with a move count would be a final period of {text}; write `inc {text}` for an increment, or `:{text}` for such a final period"
    )]
    AmbiguousPlus {
        /// The duration after the `+`.
        text: String,
    },
    /// Two increments, two delays, or an increment and a delay.
    #[error("more than one increment or delay")]
    DuplicateBonus,
    /// Empty text between separators (`40/2h::1h`, a trailing `+`).
    #[error("empty period between separators")]
    EmptyPeriod,
    /// A word this syntax does not know, or a keyword without its duration.
    #[error("unexpected {text:?} (after the periods: `inc 30s`, `d5s` or `delay 5s`)")]
    Unexpected {
        /// The offending word.
        text: String,
    },
}

/// A time control that did not parse: the input as given and why.
///
/// ```
/// use sobre_core::clock::TimeControl;
/// let err = "0/50d".parse::<TimeControl>().unwrap_err();
/// assert_eq!(err.to_string(),
///     r#"invalid time control "0/50d": bad move count "0" (a whole number of moves, at least 1)"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid time control {input:?}: {kind}")]
pub struct TimeControlError {
    /// The text that was given.
    pub input: String,
    /// What is wrong with it.
    pub kind: TimeControlErrorKind,
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// Parses the syntax described in the [type docs](TimeControl#text-syntax).
    ///
    /// # Errors
    /// [`TimeControlError`] naming the input and the part that is wrong.
    fn from_str(input: &str) -> Result<Self, Self::Err> {
        parse_time_control(input).map_err(|kind| TimeControlError {
            input: input.to_owned(),
            kind,
        })
    }
}

#[derive(Clone, Copy)]
enum Mode {
    Correspondence,
    OverTheBoard,
}

fn parse_time_control(input: &str) -> Result<TimeControl, TimeControlErrorKind> {
    let text = input.trim();
    if text.is_empty() {
        return Err(TimeControlErrorKind::Empty);
    }
    if text.eq_ignore_ascii_case("unlimited") {
        return Ok(TimeControl::Unlimited);
    }
    let mut words = text.split_whitespace();
    let first = words.next().unwrap_or_default();
    let (mode, main) = if first.eq_ignore_ascii_case("corr") {
        (Some(Mode::Correspondence), words.next())
    } else if first.eq_ignore_ascii_case("otb") {
        (Some(Mode::OverTheBoard), words.next())
    } else {
        (None, Some(first))
    };
    let main = main.ok_or(TimeControlErrorKind::Empty)?;
    // `session X` (Appendix A1b) may close an over-the-board control.
    let mut rest: Vec<&str> = words.collect();
    let session = match rest.iter().position(|w| w.eq_ignore_ascii_case("session")) {
        Some(at) => {
            let value = rest
                .get(at + 1)
                .ok_or_else(|| TimeControlErrorKind::Unexpected {
                    text: "session".to_owned(),
                })?;
            let session = duration(value)?;
            rest.drain(at..at + 2);
            Some(session)
        }
        None => None,
    };
    let (increment_word, delay_word) = parse_modifiers(rest.into_iter())?;
    let mode = match mode {
        Some(mode) => mode,
        None => {
            let head = main.split([':', '+']).next().unwrap_or_default();
            let time = head.rsplit('/').next().unwrap_or_default();
            if duration(time)? >= DAY {
                Mode::Correspondence
            } else {
                Mode::OverTheBoard
            }
        }
    };
    match (mode, session) {
        (Mode::Correspondence, None) => parse_correspondence(main, increment_word, delay_word),
        // Sessions belong to games over the board (A1: "al final del tiempo establecido
        // para la sesión").
        (Mode::Correspondence, Some(_)) => Err(TimeControlErrorKind::Unexpected {
            text: "session".to_owned(),
        }),
        (Mode::OverTheBoard, _) => {
            let tc = parse_over_the_board(main, increment_word, delay_word)?;
            Ok(match (tc, session) {
                (TimeControl::Classical(c), Some(s)) => TimeControl::Classical(c.with_session(s)),
                (tc, _) => tc,
            })
        }
    }
}

/// Reads the words after the periods: `inc X`, `delay X`, `dX`.
fn parse_modifiers<'a>(
    mut words: impl Iterator<Item = &'a str>,
) -> Result<(Option<Millis>, Option<Millis>), TimeControlErrorKind> {
    let mut increment = None;
    let mut delay = None;
    while let Some(word) = words.next() {
        let (slot, value) = if word.eq_ignore_ascii_case("inc") {
            (&mut increment, words.next())
        } else if word.eq_ignore_ascii_case("delay") {
            (&mut delay, words.next())
        } else if let Some(rest) = word.strip_prefix(['d', 'D'])
            && rest.starts_with(|c: char| c.is_ascii_digit())
        {
            (&mut delay, Some(rest))
        } else {
            return Err(TimeControlErrorKind::Unexpected {
                text: word.to_owned(),
            });
        };
        let value = value.ok_or_else(|| TimeControlErrorKind::Unexpected {
            text: word.to_owned(),
        })?;
        if slot.replace(duration(value)?).is_some() {
            return Err(TimeControlErrorKind::DuplicateBonus);
        }
    }
    if increment.is_some() && delay.is_some() {
        return Err(TimeControlErrorKind::DuplicateBonus);
    }
    Ok((increment, delay))
}

fn duration(text: &str) -> Result<Millis, TimeControlErrorKind> {
    parse_duration(text).map_err(TimeControlErrorKind::Duration)
}

fn move_count(text: &str) -> Result<NonZeroU32, TimeControlErrorKind> {
    text.parse::<NonZeroU32>()
        .map_err(|_| TimeControlErrorKind::MoveCount {
            text: text.to_owned(),
        })
}

fn parse_correspondence(
    main: &str,
    increment_word: Option<Millis>,
    delay_word: Option<Millis>,
) -> Result<TimeControl, TimeControlErrorKind> {
    if delay_word.is_some() || main.contains(':') {
        return Err(TimeControlErrorKind::CorrespondenceShape);
    }
    let mut parts = main.split('+');
    let base = parts.next().unwrap_or_default();
    let increment_plus = parts.next().map(duration).transpose()?;
    if parts.next().is_some() {
        return Err(TimeControlErrorKind::CorrespondenceShape);
    }
    let increment = match (increment_plus, increment_word) {
        (Some(_), Some(_)) => return Err(TimeControlErrorKind::DuplicateBonus),
        (a, b) => a.or(b).unwrap_or(0),
    };
    match base.split_once('/') {
        Some((moves, period)) => {
            let moves = move_count(moves)?;
            let period = duration(period)?;
            if period == 0 {
                return Err(TimeControlErrorKind::ZeroTime { what: "a period" });
            }
            Ok(TimeControl::CorrespondenceMoves {
                moves,
                period,
                increment,
            })
        }
        None => {
            let per_move = duration(base)?;
            if per_move == 0 {
                return Err(TimeControlErrorKind::ZeroTime {
                    what: "the time per move",
                });
            }
            Ok(TimeControl::CorrespondencePerMove {
                per_move,
                increment,
            })
        }
    }
}

fn parse_over_the_board(
    main: &str,
    increment_word: Option<Millis>,
    delay_word: Option<Millis>,
) -> Result<TimeControl, TimeControlErrorKind> {
    let mut periods = Vec::new();
    let mut sudden_death = None;
    let mut increment_plus = None;
    for segment in main.split(':') {
        for (i, part) in segment.split('+').enumerate() {
            let after_plus = i > 0;
            if part.is_empty() {
                return Err(TimeControlErrorKind::EmptyPeriod);
            }
            if increment_plus.is_some() {
                return Err(TimeControlErrorKind::DuplicateBonus);
            }
            if let Some((moves, time)) = part.split_once('/') {
                if sudden_death.is_some() {
                    return Err(TimeControlErrorKind::AfterFinalPeriod {
                        text: part.to_owned(),
                    });
                }
                periods.push(Period {
                    moves: move_count(moves)?,
                    time: duration(time)?,
                });
            } else if sudden_death.is_none() {
                let time = duration(part)?;
                if after_plus && time < MINUTE {
                    // `40/2h+30s` is far likelier a forgotten `inc` than a 30 s final period.
                    return Err(TimeControlErrorKind::AmbiguousPlus {
                        text: part.to_owned(),
                    });
                }
                sudden_death = Some(time);
            } else if after_plus {
                increment_plus = Some(duration(part)?);
            } else {
                return Err(TimeControlErrorKind::AfterFinalPeriod {
                    text: part.to_owned(),
                });
            }
        }
    }
    let bonus = match (increment_plus, increment_word, delay_word) {
        (None, None, None) => Bonus::None,
        (Some(inc), None, None) | (None, Some(inc), None) => Bonus::Increment(inc),
        (None, None, Some(delay)) => Bonus::Delay(delay),
        _ => return Err(TimeControlErrorKind::DuplicateBonus),
    };
    Classical::new(periods, sudden_death, bonus).map(TimeControl::Classical)
}
