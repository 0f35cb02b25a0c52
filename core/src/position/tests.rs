//! Tests of the start positions: the standard one and Chess960 (Scharnagl numbering).

use super::*;

#[test]
fn direct_start_position_equals_scharnagl_518() {
    assert_eq!(Position::new(), Position::chess960(518).unwrap());
}

#[test]
fn start_position_has_20_moves() {
    let p = Position::new();
    assert_eq!(p.legal_moves().len(), 20);
    assert_eq!(p.perft(3), 8902);
}

#[test]
fn scharnagl_518_is_standard_and_0_is_bbqnnrkr() {
    let std = chess960_back_rank(518).unwrap();
    assert_eq!(
        std,
        [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook
        ]
    );
    let zero: String = chess960_back_rank(0)
        .unwrap()
        .iter()
        .map(|r| r.char())
        .collect();
    assert_eq!(zero, "bbqnnrkr");
    assert_eq!(chess960_number(&std), Some(518));
}
