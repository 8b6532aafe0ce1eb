//! The shuffle's test vectors, shared with the Python tests (`tests/data/shuffle_v1.txt`):
//! the native core must deal exactly the cards the engine of record deals.

use patience_core::shuffle::seeded_deck;

const VECTORS: &str = include_str!("../../../tests/data/shuffle_v1.txt");

#[test]
fn native_shuffle_matches_the_vectors() {
    let mut checked = 0;
    for line in VECTORS.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (head, cards) = line
            .split_once(": ")
            .expect("a vector line has `key seed decks: cards`");
        let fields: Vec<&str> = head.split_whitespace().collect();
        let [key, seed, decks] = fields[..] else {
            panic!("bad vector head {head:?}");
        };
        let deal = seeded_deck(key, seed.parse().unwrap(), decks.parse().unwrap(), 1).unwrap();
        let dealt: Vec<String> = deal.iter().map(|card| card.to_string()).collect();
        assert_eq!(dealt.join(" "), cards, "vector {head}");
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} vectors found");
}
