//! How a player is shown: the player's contact alias (yours, private) first, else the name
//! from the player's signed profile (theirs), else the short id.

use super::common;
use super::contacts::Contacts;
use sobre_node::api::request;
use sobre_node::api::watch::{NodeEvent, WatchDetail, WatchEvent, WatchLine};
use std::collections::BTreeMap;
use std::path::Path;

/// The labels of players: contact aliases over received profile names.
pub struct Names<'a> {
    contacts: &'a Contacts,
    /// Player id → display name from the player's signed profile.
    received: BTreeMap<String, String>,
}

impl<'a> Names<'a> {
    pub fn new(contacts: &'a Contacts, received: BTreeMap<String, String>) -> Names<'a> {
        Names { contacts, received }
    }

    /// With the names the running node holds (none if it cannot be asked).
    pub fn from_node(home: &Path, contacts: &'a Contacts) -> Names<'a> {
        let received = common::read_as(home, request::Profiles {})
            .map(|r| {
                r.me.into_iter()
                    .chain(r.players)
                    .map(|p| (p.player, p.name))
                    .collect()
            })
            .unwrap_or_default();
        Names::new(contacts, received)
    }

    /// Takes a name from a `profile` event of `sobre watch` (a player's new profile arrived).
    pub fn learn(&mut self, line: &WatchLine) {
        if let WatchLine::Event(WatchEvent {
            detail: WatchDetail::Node(NodeEvent::Profile { player, name }),
            ..
        }) = line
        {
            self.received.insert(player.clone(), name.clone());
        }
    }

    /// The label of a player id: alias, else signed name, else the short id.
    pub fn label(&self, id: &str) -> String {
        if self.contacts.aliases.values().all(|v| v != id)
            && let Some(n) = self.received.get(id)
        {
            return n.clone();
        }
        self.contacts.label(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_alias_overrides_a_received_name_which_overrides_the_id() {
        let ana = "12D3KooWKYgsy9unLzD8DdwWxbRjrRmX5ZrV4YcXpKq1n6GJH7hs";
        let bob = "12D3KooWEyoppNCUx8Yx66oV9fJnriXwCcXwDDUA2kj6vnc6iDEp";
        let mut contacts = Contacts::default();
        contacts.aliases.insert("mum".into(), ana.into());
        let received: BTreeMap<String, String> = [
            (ana.to_owned(), "Ana Pérez".to_owned()),
            (bob.to_owned(), "Bob".to_owned()),
        ]
        .into();
        let names = Names::new(&contacts, received);
        assert_eq!(names.label(ana), "mum");
        assert_eq!(names.label(bob), "Bob");
        let nobody = Names::new(&contacts, BTreeMap::new());
        assert_eq!(nobody.label(bob), contacts.label(bob));
    }
}
