//! The texts of the FIDE Laws this project implements: the Laws in force from 1 July 2005
//! (seed 002) and from 1 July 2009 (seed 003). Where they differ, play follows 2009 (the
//! newest text wins, seeds README); a rules function whose verdict depends on the text takes
//! an [`Edition`], and its tests cover both.

/// A text of the FIDE Laws of Chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Edition {
    /// In force from 1 July 2005 (seed 002).
    Fide2005,
    /// In force from 1 July 2009 (seed 003): what `verify` applies.
    Fide2009,
}

impl Edition {
    /// The text games are played under (the newest wins where the texts differ).
    pub const PLAY: Edition = Edition::Fide2009;

    /// The article of a flag fall (a player who has not completed the prescribed moves in
    /// the allotted time loses, unless the opponent cannot mate): 6.10 in 2005, 6.9 in 2009.
    pub const fn flag_fall_article(self) -> &'static str {
        match self {
            Edition::Fide2005 => "6.10",
            Edition::Fide2009 => "6.9",
        }
    }

    /// The year of the text, for messages.
    pub const fn year(self) -> u16 {
        match self {
            Edition::Fide2005 => 2005,
            Edition::Fide2009 => 2009,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_fall_article_was_renumbered_from_6_10_to_6_9() {
        assert_eq!(Edition::Fide2005.flag_fall_article(), "6.10");
        assert_eq!(Edition::Fide2009.flag_fall_article(), "6.9");
        assert_eq!(Edition::PLAY, Edition::Fide2009);
    }
}
