//! Which text of the Laws a verdict follows where the texts differ.
//!
//! The seeds hold two FIDE texts: the Laws in force from 1 July 2005 (seed 002) and from
//! 1 July 2009 (seed 003). Where they differ the 2009 text wins in play (the seeds' README);
//! a verdict whose article changed between them takes the edition, so both readings are
//! written down and tested, and a competition that plays under the 2005 text has its rule.

/// A FIDE Laws edition in the seeds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Edition {
    /// The Laws in force from 1 July 2005 (seed 002).
    Fide2005,
    /// The Laws in force from 1 July 2009 (seed 003): the one games are judged under.
    #[default]
    Fide2009,
}

impl Edition {
    /// The edition every game is judged under today (the seeds' README: the newest wins).
    pub const PLAYED: Edition = Edition::Fide2009;

    /// The year the text came into force.
    pub const fn year(self) -> u16 {
        match self {
            Edition::Fide2005 => 2005,
            Edition::Fide2009 => 2009,
        }
    }
}
