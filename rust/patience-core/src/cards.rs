//! Cards as integers: `suit * 13 + (rank - 1)`, suits in the order clubs, diamonds, hearts,
//! spades, ranks Ace (1) to King (13). The Python side uses the same numbering
//! (`patience.cards.Card.index`).

use std::fmt;

/// Suit letters in index order.
pub const SUITS: [char; 4] = ['c', 'd', 'h', 's'];
/// Rank letters in index order (Ace first).
pub const RANKS: [char; 13] = [
    'A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K',
];
/// Cards in one deck.
pub const DECK_SIZE: usize = 52;

/// One playing card, `suit * 13 + rank - 1`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Card(u8);

impl Card {
    /// The card with this index, if it is one (0..52).
    pub fn from_index(index: u8) -> Option<Card> {
        (usize::from(index) < DECK_SIZE).then_some(Card(index))
    }

    /// The card of this rank (1 = Ace .. 13 = King) and suit (0 = clubs .. 3 = spades).
    pub fn new(rank: u8, suit: u8) -> Option<Card> {
        if (1..=13).contains(&rank) && suit < 4 {
            Some(Card(suit * 13 + rank - 1))
        } else {
            None
        }
    }

    /// The card's index, `suit * 13 + rank - 1`.
    pub fn index(self) -> u8 {
        self.0
    }

    /// Rank, 1 (Ace) to 13 (King).
    pub fn rank(self) -> u8 {
        self.0 % 13 + 1
    }

    /// Suit, 0 (clubs) to 3 (spades).
    pub fn suit(self) -> u8 {
        self.0 / 13
    }

    /// Whether the card is red (diamonds or hearts).
    pub fn is_red(self) -> bool {
        matches!(self.suit(), 1 | 2)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            RANKS[usize::from(self.rank() - 1)],
            SUITS[usize::from(self.suit())]
        )
    }
}

/// `decks` standard decks in the canonical unshuffled order: for each deck, clubs then
/// diamonds, hearts, spades, each Ace to King.
pub fn ordered_deck(decks: usize) -> Vec<Card> {
    (0..decks)
        .flat_map(|_| (0..DECK_SIZE as u8).map(Card))
        .collect()
}

/// Moves column `from`'s cards from position `start` on to the end of column `to`
/// (`from != to`), without a temporary vector: a run moved between two columns of cards
/// (each card a `u8`, as the games that move runs keep them).
pub fn shift_run(columns: &mut [Vec<u8>], from: usize, to: usize, start: usize) {
    let (a, b) = columns.split_at_mut(from.max(to));
    let (source, target) = if from < to {
        (&mut a[from], &mut b[0])
    } else {
        (&mut b[0], &mut a[to])
    };
    target.extend_from_slice(&source[start..]);
    source.truncate(start);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_rank_suit_round_trip() {
        for index in 0..52u8 {
            let card = Card::from_index(index).unwrap();
            assert_eq!(Card::new(card.rank(), card.suit()), Some(card));
        }
        assert_eq!(Card::from_index(52), None);
        assert_eq!(Card::new(0, 0), None);
        assert_eq!(Card::new(14, 0), None);
        assert_eq!(Card::new(1, 4), None);
    }

    #[test]
    fn display_is_canonical() {
        assert_eq!(Card::new(10, 2).unwrap().to_string(), "Th");
        assert_eq!(Card::new(1, 0).unwrap().to_string(), "Ac");
        assert_eq!(Card::new(13, 3).unwrap().to_string(), "Ks");
        assert!(Card::new(5, 1).unwrap().is_red());
        assert!(!Card::new(5, 3).unwrap().is_red());
    }

    #[test]
    fn ordered_decks() {
        let two = ordered_deck(2);
        assert_eq!(two.len(), 104);
        assert_eq!(two[0], two[52]);
        assert_eq!(two[51].to_string(), "Ks");
    }
}
