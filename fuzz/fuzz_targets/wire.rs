#![no_main]
//! The wire decoders of signed events and node messages: never panic, and whatever decodes
//! re-encodes to exactly the bytes it came from (the codec is canonical). Signature checks
//! agree one by one and batched, and an event signed here always verifies.
use libfuzzer_sys::fuzz_target;
use sobre_core::record::codec::{self, MAX_EVENT_BYTES};
use sobre_core::record::event::{EVENT_VERSION, MIN_EVENT_VERSION, signing_bytes};
use sobre_core::record::{Event, EventError, Keypair, SignedEvent, verify_all};
use sobre_node::protocol::{self, Gossip, Request, Response};

/// Decodes `bytes` as a signed event and checks everything that can be checked of it.
fn signed_event(bytes: &[u8]) -> Option<SignedEvent> {
    let s = SignedEvent::from_bytes(bytes).ok()?;
    assert_eq!(
        s.to_bytes().unwrap(),
        bytes,
        "signed event re-encodes differently"
    );
    match s.decode_unverified() {
        Ok(event) => {
            assert_eq!(
                codec::encode(&event).unwrap(),
                s.body,
                "event re-encodes differently"
            );
            if let Ok(v) = s.verify() {
                assert_eq!(v.event, event);
                assert_eq!(v.id, s.id());
                assert!(event.author.verify(&signing_bytes(&s.body), &s.signature));
            }
        }
        Err(_) => assert!(s.verify().is_err()),
    }
    Some(s)
}

/// The batch path must give the same verdicts as one-by-one verification.
fn batch(events: &[SignedEvent]) {
    let all = verify_all(events);
    assert_eq!(all.len(), events.len());
    for (s, r) in events.iter().zip(&all) {
        assert_eq!(
            r.as_ref().ok(),
            s.verify().as_ref().ok(),
            "batch and single disagree"
        );
    }
}

fn events_of(list: &[Vec<u8>]) {
    let decoded: Vec<SignedEvent> = list
        .iter()
        .take(64)
        .filter_map(|b| signed_event(b))
        .collect();
    batch(&decoded);
}

fn round_trip<T>(bytes: &[u8]) -> Option<T>
where
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    let m: T = protocol::decode(bytes).ok()?;
    assert_eq!(
        protocol::encode(&m).unwrap(),
        bytes,
        "message re-encodes differently"
    );
    Some(m)
}

fuzz_target!(|data: &[u8]| {
    signed_event(data);
    if let Ok(event) = codec::decode::<Event>(data, MAX_EVENT_BYTES) {
        assert_eq!(codec::encode(&event).unwrap(), data);
        // Any decodable event of this version, signed by its claimed author's key, verifies (here: with the
        // author replaced by a key we hold), one by one and batched.
        let key = Keypair::from_secret_bytes(&[7; 32]);
        let mine = Event {
            author: key.player_id(),
            ..event
        };
        let signed = SignedEvent::sign(&mine, &key).unwrap();
        if (MIN_EVENT_VERSION..=EVENT_VERSION).contains(&mine.version) {
            let v = signed.verify().expect("a freshly signed event verifies");
            assert_eq!(v.event, mine);
        } else {
            assert_eq!(signed.verify(), Err(EventError::Version(mine.version)));
        }
        let bytes = signed.to_bytes().unwrap();
        assert_eq!(SignedEvent::from_bytes(&bytes).as_ref(), Ok(&signed));
        batch(&[signed.clone(), signed]);
    }
    if let Some(r) = round_trip::<Request>(data) {
        if let Request::Deliver { events, .. } = &r {
            events_of(events);
        }
        // A node instance record: refused or accepted, never a panic.
        if let Request::Instance { record } = &r {
            let _ = sobre_node::instance::Instance::verify(record);
        }
    }
    if let Some(r) = round_trip::<Response>(data) {
        if let Response::Receipts { receipts: events } | Response::Events { events } = &r {
            events_of(events);
        }
        if let Response::Instances { records } = &r {
            for record in records {
                let _ = sobre_node::instance::Instance::verify(record);
            }
        }
    }
    if let Some(g) = round_trip::<Gossip>(data) {
        signed_event(&g.event);
    }
});
