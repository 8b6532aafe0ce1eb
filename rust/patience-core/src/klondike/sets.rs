//! Thoughtful Klondike searched over positions taken up to the arrangement of their
//! face-up cards.
//!
//! # The abstraction
//!
//! Call the cards a column was dealt with (or, for a position built mid-game, the cards
//! from its bottom up to its lowest face-up card) its *structure*: its face-down cards and,
//! on them, its *surface* card. Every other face-up card of the tableau is *placed*: a
//! placed card other than a King lies on a card one rank higher of the other colour (its
//! *parent type*), and a placed King is the bottom of a column whose structure is used up.
//! Two cards of the same rank and colour are *twins*.
//!
//! A position is kept here as the foundation heights, how much of each column's structure
//! is left, and which talon cards are left with the waste's length. Which face-up cards lie
//! in the tableau follows (all the others), but not how they are arranged: positions that
//! differ only in which of two twins a card lies on are one position. That is sound
//! because what a move needs of the arrangement is only counted by type: a card of type
//! `t` lies uncovered exactly `present(t) - placed(children of t)` times, whatever the
//! arrangement, so "some card of type `t` is uncovered" is a function of the abstract
//! position. When a move needs a particular card uncovered (a card going home) and that
//! card is covered, its uncovered twin takes the run lying on it first: one legal move of
//! the real game (see `realise`).
//!
//! # Moves
//!
//! - **reveal**: a column's surface card, with the run on it, moves onto an uncovered card
//!   of its parent type (a King: into an empty column), turning up the card under it. A
//!   King at the bottom of a column never moves (it would go to another empty column).
//! - **home**: a tableau card whose type lies uncovered goes to its foundation (turning up
//!   a card when it was a surface card).
//! - **talon to foundation** and **talon to tableau**: any card the talon can offer,
//!   after however many draws and recycles, goes home or onto an uncovered card of its
//!   parent type (a King: into an empty column).
//! - **back**: a foundation's top card onto an uncovered card of its parent type.
//!
//! Moving a run whose lowest card is a placed card is not a move here: it leaves the
//! abstract position as it was (the card goes from one card to that card's twin, or a King
//! from one empty column to another). That this loses no winning line is the one claim of
//! the method that is checked rather than proved: `examples/klondike_sets_check.rs` compares
//! the verdicts with the search over real positions. (The same abstraction drives
//! lonelybot, Vuong Hy's Rust solver, whose author describes it in that project's
//! `docs/method.md`; this implementation is ours.)
//!
//! # Pruning
//!
//! - A tableau card that may go home safely (both cards of the other colour one rank lower
//!   are home, and the other suit of its colour is within two ranks) goes home without
//!   branching; in draw 1, where every talon card stays within reach, so does a safe talon
//!   card, and in draw 3 the talon's last card when it is safe and the waste is pure (a
//!   multiple of three cards, or the whole talon).
//! - No card comes back from a foundation, or out of the talon onto the tableau, when it
//!   would be safe at home: the cards that could go on it are home already.
//! - In draw 3, while the talon's last card is safe at home and the waste is not pure, no
//!   talon card is taken that only a recycle brings within reach: the last card home
//!   leaves a talon that reaches them all.
//! - After a card comes down from the talon or a foundation, the next move must use it
//!   (see `Layout::keep`).
//! - The set of positions seen holds each abstract position exactly (it packs into 64
//!   bits, mixed by a bijection) with a mark: searched in full, or only with the moves that
//!   use a card that came down (the rule above). A position searched in full is not
//!   searched again; one searched under the rule is searched again when reached under
//!   another card or none. (Searching each position once, under whatever rule held the
//!   first time, is 5 to 15 times cheaper on hard draw-1 deals, but it lost wins: draw-1
//!   seeds 4,513, 8,021 and 8,479 came out unsolvable that way.)
//!
//! The goal is the solved position of docs/rules.md: nothing face down and at most one talon card.

use crate::klondike::{fits_on, rank, suit, Klondike, Move, COLUMNS};
use crate::search::{self, luby, mix, Budget, KeySet, Meter, Outcome, Pruning, Report};
use crate::shuffle::SplitMix64;
use std::cell::OnceCell;

/// Bit of a card in the search's card sets: four bits a rank, in which the pair of a type
/// (rank and colour) is chosen by the colour flipped on odd ranks, so that a card's parent
/// type (one rank up, other colour) lies exactly four bits higher.
#[inline]
fn bit_index(card: u8) -> u32 {
    BIT_INDEX[card as usize] as u32
}

/// [`bit_index`] of each card, worked out once (the search asks for it at every step).
const BIT_INDEX: [u8; 52] = {
    let mut table = [0u8; 52];
    let mut card = 0;
    while card < 52 {
        let (suit, r) = (card / 13, card % 13 + 1);
        let colour = matches!(suit, 1 | 2) as u8;
        let twin = matches!(suit, 2 | 3) as u8;
        table[card as usize] = (r - 1) * 4 + 2 * (colour ^ (r & 1)) + twin;
        card += 1;
    }
    table
};

/// The card of each bit ([`bit_index`] the other way; `u8::MAX` for the bits no card has).
const CARD_OF_BIT: [u8; 64] = {
    let mut table = [u8::MAX; 64];
    let mut card = 0;
    while card < 52 {
        table[BIT_INDEX[card] as usize] = card as u8;
        card += 1;
    }
    table
};

/// The bit of the next card of suit `s`'s foundation at each height (none at 13).
const NEXT_HOME: [[u64; 14]; 4] = {
    let mut table = [[0u64; 14]; 4];
    let mut s = 0;
    while s < 4 {
        let mut h = 0;
        while h < 13 {
            table[s][h] = 1 << BIT_INDEX[s * 13 + h];
            h += 1;
        }
        s += 1;
    }
    table
};

/// The bit of the top card of suit `s`'s foundation at each height (none at 0).
const TOP: [[u64; 14]; 4] = {
    let mut table = [[0u64; 14]; 4];
    let mut s = 0;
    while s < 4 {
        let mut h = 1;
        while h < 14 {
            table[s][h] = 1 << BIT_INDEX[s * 13 + h - 1];
            h += 1;
        }
        s += 1;
    }
    table
};

/// [`NEXT_HOME`] and [`TOP`] side by side, 16 heights a suit (a four-bit height indexes
/// it without a bounds check; 14 and 15 never occur).
const FOUNDATION_BITS: [[[u64; 2]; 16]; 4] = {
    let mut table = [[[0u64; 2]; 16]; 4];
    let mut s = 0;
    while s < 4 {
        let mut h = 0;
        while h < 14 {
            table[s][h] = [NEXT_HOME[s][h], TOP[s][h]];
            h += 1;
        }
        s += 1;
    }
    table
};

/// [`FOUNDATION_BITS`] of two suits at once, by their two heights as a byte of
/// [`Node::homes`] (clubs and diamonds in the low byte, hearts and spades in the high
/// one): their next cards and their top cards.
const PAIR_BITS: [[[u64; 2]; 256]; 2] = {
    let mut table = [[[0u64; 2]; 256]; 2];
    let mut pair = 0;
    while pair < 2 {
        let mut byte = 0;
        while byte < 256 {
            let [n0, t0] = FOUNDATION_BITS[2 * pair][byte & 15];
            let [n1, t1] = FOUNDATION_BITS[2 * pair + 1][byte >> 4];
            table[pair][byte] = [n0 | n1, t0 | t1];
            byte += 1;
        }
        pair += 1;
    }
    table
};

const fn min(a: usize, b: usize) -> usize {
    if a < b {
        a
    } else {
        b
    }
}

/// For each [`Node::homes`], the suits whose next card is safe at home (bit `s`) and those
/// whose top card would be safe there (bit `4 + s`): see [`Layout::foundations`].
static SAFE_SUITS: [u8; 1 << 16] = {
    let mut table = [0u8; 1 << 16];
    let mut homes = 0;
    while homes < 1 << 16 {
        let h = [
            homes & 15,
            (homes >> 4) & 15,
            (homes >> 8) & 15,
            (homes >> 12) & 15,
        ];
        let black = if h[0] < h[3] { h[0] } else { h[3] };
        let red = if h[1] < h[2] { h[1] } else { h[2] };
        let limit = [
            min(red + 2, h[3] + 3),
            min(black + 2, h[2] + 3),
            min(black + 2, h[1] + 3),
            min(red + 2, h[0] + 3),
        ];
        table[homes] = (h[0] < limit[0]) as u8
            | ((h[1] < limit[1]) as u8) << 1
            | ((h[2] < limit[2]) as u8) << 2
            | ((h[3] < limit[3]) as u8) << 3
            | ((h[0] <= limit[0]) as u8) << 4
            | ((h[1] <= limit[1]) as u8) << 5
            | ((h[2] <= limit[2]) as u8) << 6
            | ((h[3] <= limit[3]) as u8) << 7;
        homes += 1;
    }
    table
};

/// The bits of the cards of each set of suits (bit `s` for suit `s`).
const SUIT_CARDS: [u64; 16] = {
    let mut table = [0u64; 16];
    let mut suits = 0;
    while suits < 16 {
        let mut card = 0;
        while card < 52 {
            if suits & (1 << (card / 13)) != 0 {
                table[suits] |= 1 << BIT_INDEX[card];
            }
            card += 1;
        }
        suits += 1;
    }
    table
};

/// How many bits of each byte are set.
const BITS_SET: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = (byte as u8).count_ones() as u8;
        byte += 1;
    }
    table
};

/// For each byte of talon places and each count (mod 3) of live cards before it, its
/// bits by the rank class (mod 3) of their live card in the whole talon: class `c` in bits
/// `8 * c ..`.
const RANK_CLASSES: [[u32; 256]; 3] = {
    let mut table = [[0u32; 256]; 3];
    let mut before = 0;
    while before < 3 {
        let mut byte = 0;
        while byte < 256 {
            let (mut rank, mut bit, mut packed) = (before, 0, 0u32);
            while bit < 8 {
                if byte & (1 << bit) != 0 {
                    packed |= 1 << (8 * (rank % 3) + bit);
                    rank += 1;
                }
                bit += 1;
            }
            table[before][byte] = packed;
            byte += 1;
        }
        before += 1;
    }
    table
};

/// How many of the talon's places (24 bits) are set, from [`BITS_SET`] (`count_ones` is
/// a dozen instructions without `popcnt`).
#[inline(always)]
fn talon_count(places: u32) -> u32 {
    (BITS_SET[(places & 255) as usize]
        + BITS_SET[((places >> 8) & 255) as usize]
        + BITS_SET[((places >> 16) & 255) as usize]) as u32
}

/// The waste [`normal_waste`] keeps once the talon card at place `k` is taken (`live`,
/// the talon left): the live cards before it. A call of its own: inlined in the search
/// loop it had cost the draw-1 search 1.2% more instructions and gained draw 3 nothing.
#[inline(never)]
fn waste_after(live: u32, k: u32, draw: u8) -> u8 {
    normal_waste(
        talon_count(live & ((1u32 << k) - 1)),
        talon_count(live),
        draw,
    )
}

/// The low bit of every type's pair.
const LOW: u64 = 0x0005_5555_5555_5555;
/// The four Kings.
const KINGS: u64 = 0xf << 48;
/// All 52 cards.
const ALL: u64 = (1 << 52) - 1;

/// One abstract move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// Column `n`'s surface card moves (with its run) onto the tableau.
    Reveal(u8),
    /// The tableau card `n` goes home.
    Home(u8),
    /// The talon card `n` goes home.
    TalonHome(u8),
    /// The talon card `n` goes onto the tableau.
    TalonDown(u8),
    /// The top card of suit `n`'s foundation comes back onto the tableau.
    Back(u8),
}

/// An abstract position: small enough to copy for each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    /// The tableau's face-up cards, as bits.
    visible: u64,
    /// The surface cards among them.
    surface: u64,
    /// The talon cards within reach ([`Layout::reachable`]), worked out when the position
    /// is expanded (only a move out of the talon changes them, and most positions reached
    /// are in the table already): valid unless `stale`.
    talon: u64,
    /// The next card of each foundation, as bits (kept, like the two sets after it, since
    /// only moves home and back change them).
    next_home: u64,
    /// Of those, the ones that are safe at home (see [`Layout::foundations`]).
    safe: u64,
    /// The foundations' top cards that would be safe there: they never come back.
    safe_top: u64,
    /// The foundations' top cards.
    tops: u64,
    /// The structure cards left in the columns as one mixed-radix number (the first part
    /// of the key, kept up to date move by move).
    columns: u64,
    /// Talon cards left, by their place in the talon's cycle order.
    live: u32,
    /// Foundation heights, four bits a suit (clubs in the lowest).
    homes: u16,
    /// Structure cards left in each column (face-down ones and the surface).
    left: [u8; COLUMNS],
    /// Cards left in the waste, as [`normal_waste`] keeps it.
    waste: u8,
    /// Face-down cards left.
    down: u8,
    /// The columns that still have structure cards, as bits.
    structured: u8,
    /// Whether `talon` is out of date.
    stale: bool,
}

impl Node {
    #[inline]
    fn height(&self, suit: u8) -> u8 {
        ((self.homes >> (4 * suit)) & 15) as u8
    }
}

/// Where a position's cards can go, worked out once for the safe moves and the moves to
/// try.
#[derive(Clone, Copy, Debug)]
struct Scan {
    /// Tableau cards whose type lies uncovered (both cards of a type, or neither).
    uncovered: u64,
    /// Cards with somewhere to go on the tableau.
    room: u64,
}

/// What does not change during a search: where each card started.
struct Layout {
    draw: u8,
    /// Each column's structure, bottom first (`left0[i]` cards).
    structure: [[u8; 8]; COLUMNS],
    /// The column whose structure holds each card (`u8::MAX`: none).
    column_of: [u8; 52],
    /// Cards in the talon.
    talon_len: u32,
    /// Each card's place in the talon, if it was in it.
    talon_place: [u8; 52],
    /// The bit of the talon card at each place.
    talon_bit: [u64; 24],
    /// Weight of each column's count in [`Node::columns`].
    weight: [u64; COLUMNS],
    /// Whether the safe moves home are played alone (the rule checked by
    /// [`Pruning::None`], which turns it off).
    safe_rule: bool,
    /// Whether the move after a card comes down from the talon must use it (in draw 1,
    /// with the rules on; see [`Context::after`]).
    trail: bool,
    /// Whether, in draw 3, the talon's last card goes home alone when it is safe and the
    /// waste is pure (see [`Layout::forced`]).
    talon_last: bool,
    /// Whether, in draw 3, no talon card is taken after a recycle when the talon's last
    /// card is safe and the waste is not pure (see [`Layout::moves`]).
    no_recycle: bool,
    /// The cards at the bottom of a column's structure.
    bottoms: u64,
    /// The cards that began in the talon.
    talon_cards: u64,
}

/// Why a position is outside what this search handles (the concrete search takes it).
#[derive(Debug)]
pub struct Unsupported(pub &'static str);

impl Layout {
    fn new(start: &Klondike, rules: Rules) -> Result<(Layout, Node), Unsupported> {
        Layout::with_draw(start, start.draw, rules)
    }

    /// [`Layout::new`] of `start` played in draw `draw` (the relaxed search lays out a
    /// draw-3 deal in draw 1 without a copy of the deal).
    fn with_draw(start: &Klondike, draw: u8, rules: Rules) -> Result<(Layout, Node), Unsupported> {
        let mut structure = [[0u8; 8]; COLUMNS];
        let mut column_of = [u8::MAX; 52];
        let mut left = [0u8; COLUMNS];
        let mut visible = 0u64;
        let mut surface = 0u64;
        let mut weight = [0u64; COLUMNS];
        let mut product = 1u64;
        let mut down = 0u8;
        let mut structured = 0u8;
        for (i, column) in start.columns.iter().enumerate() {
            weight[i] = product;
            if column.is_empty() {
                continue;
            }
            let base = start.hidden[i] as usize;
            if base >= 8 {
                return Err(Unsupported("more than seven face-down cards in a column"));
            }
            structure[i][..=base].copy_from_slice(&column[..=base]);
            for &card in &column[..=base] {
                column_of[card as usize] = i as u8;
            }
            left[i] = base as u8 + 1;
            product *= base as u64 + 2;
            down += base as u8;
            structured |= 1 << i;
            surface |= 1 << bit_index(column[base]);
            for pair in column[base..].windows(2) {
                if !fits_on(pair[1], Some(pair[0])) {
                    return Err(Unsupported("a face-up run out of sequence"));
                }
            }
            for &card in &column[base..] {
                visible |= 1 << bit_index(card);
            }
        }
        // the talon in its cycle order: the waste from its bottom, then the hand from the
        // card drawn first
        let talon_len = start.waste.len() + start.stock.len();
        if talon_len > 24 {
            return Err(Unsupported("more than 24 talon cards"));
        }
        let mut talon_place = [u8::MAX; 52];
        let mut talon_bit = [0u64; 24];
        let talon_cards = start.waste.iter().chain(start.stock.iter().rev());
        for (k, &card) in talon_cards.enumerate() {
            talon_place[card as usize] = k as u8;
            talon_bit[k] = 1 << bit_index(card);
        }
        // 16 bits of foundations, the columns' counts (`product` fits in the bits of
        // its next power of two), the talon's cards and its position
        if product.next_power_of_two().trailing_zeros() as usize + 16 + talon_len + 5 > 64 {
            return Err(Unsupported("the position does not pack into 64 bits"));
        }
        let layout = Layout {
            draw,
            structure,
            column_of,
            talon_len: talon_len as u32,
            talon_place,
            talon_bit,
            weight,
            safe_rule: rules.safe,
            trail: draw == 1 && rules.talon_used_next,
            talon_last: draw != 1 && rules.safe && rules.talon_last_home,
            no_recycle: draw != 1 && rules.safe && rules.talon_no_recycle,
            bottoms: (0..COLUMNS)
                .filter(|&i| left[i] > 0)
                .map(|i| 1u64 << bit_index(structure[i][0]))
                .sum(),
            talon_cards: talon_bit.iter().fold(0, |set, &bit| set | bit),
        };
        let homes = start
            .foundation
            .iter()
            .enumerate()
            .map(|(s, &h)| (h as u16) << (4 * s))
            .sum();
        let node = Node {
            visible,
            surface,
            talon: 0,
            columns: (0..COLUMNS).map(|i| left[i] as u64 * weight[i]).sum(),
            live: ((1u64 << talon_len) - 1) as u32,
            homes,
            left,
            waste: normal_waste(start.waste.len() as u32, talon_len as u32, draw),
            down,
            structured,
            next_home: 0,
            safe: 0,
            safe_top: 0,
            tops: 0,
            stale: false,
        };
        let mut node = Node {
            talon: layout.reachable(&node),
            ..node
        };
        layout.foundations(&mut node);
        Ok((layout, node))
    }

    /// The exact key of a position, mixed (a bijection) for the table.
    #[inline]
    fn key(&self, node: &Node) -> u64 {
        let key = (node.columns << 16) | node.homes as u64;
        let key = (key << self.talon_len) | node.live as u64;
        mix((key << 5) | node.waste as u64)
    }

    #[inline]
    fn card(&self, bit: u32) -> u8 {
        CARD_OF_BIT[bit as usize]
    }

    /// The talon cards within reach, as a card set.
    fn reachable(&self, node: &Node) -> u64 {
        let mut live = node.live;
        let mut set = 0u64;
        if self.draw == 1 {
            while live != 0 {
                set |= self.talon_bit[live.trailing_zeros() as usize];
                live &= live - 1;
            }
            return set;
        }
        // The waste lengths reachable (draw 3): the present one, on from it three at a time
        // up to the end, then after a recycle three at a time from the start, and the end.
        // As the live cards' ranks in talon order (the top of a waste of length `l` is rank
        // `l - 1`): every third rank from `waste - 1` and from 2, and the last. The places
        // of each rank class (mod 3) come a byte of places at a time from a table.
        if live == 0 {
            return 0;
        }
        let bytes = [
            (live & 255) as usize,
            ((live >> 8) & 255) as usize,
            ((live >> 16) & 255) as usize,
        ];
        let r1 = BITS_SET[bytes[0]] % 3;
        let r2 = (r1 + BITS_SET[bytes[1]]) % 3;
        let packed = [
            RANK_CLASSES[0][bytes[0]],
            RANK_CLASSES[r1 as usize][bytes[1]],
            RANK_CLASSES[r2 as usize][bytes[2]],
        ];
        let class = |c: u32| {
            ((packed[0] >> (8 * c)) & 255)
                | (((packed[1] >> (8 * c)) & 255) << 8)
                | (((packed[2] >> (8 * c)) & 255) << 16)
        };
        // the last live card, and every third from rank 2
        let mut places = class(2) | (1 << (31 - live.leading_zeros()));
        let w = node.waste as u32;
        if w > 0 && (w - 1) % 3 != 2 {
            // every third from rank `w - 1`: its class less the ranks below `w - 1`
            let mut above = live;
            for _ in 0..w - 1 {
                above &= above - 1;
            }
            places |= class((w - 1) % 3) & above;
        }
        while places != 0 {
            set |= self.talon_bit[places.trailing_zeros() as usize];
            places &= places - 1;
        }
        set
    }

    /// The draw-3 talon cards within reach without a recycle, from a waste that is not
    /// empty: the waste's top, every third card on from it, and the last. (Called only
    /// when the talon's last card is safe at home, which is rare: out of line.)
    #[cold]
    #[inline(never)]
    fn forward(&self, node: &Node) -> u64 {
        let live = node.live;
        let w = node.waste as u32;
        // the live cards from rank `w - 1` (the waste's top) on, every third, and the last
        let mut above = live;
        for _ in 0..w - 1 {
            above &= above - 1;
        }
        let mut places = 1u32 << (31 - live.leading_zeros());
        let mut k = 0;
        while above != 0 {
            if k % 3 == 0 {
                places |= above & above.wrapping_neg();
            }
            above &= above - 1;
            k += 1;
        }
        let mut set = 0u64;
        while places != 0 {
            set |= self.talon_bit[places.trailing_zeros() as usize];
            places &= places - 1;
        }
        set
    }

    /// Removes the talon card `card`, leaving the waste where taking it leaves it.
    #[inline(always)]
    fn take_from_talon(&self, node: &mut Node, card: u8) {
        let k = self.talon_place[card as usize] as u32;
        node.live &= !(1 << k);
        if self.draw != 1 {
            node.waste = waste_after(node.live, k, self.draw);
            node.stale = true;
        } else {
            node.talon &= !self.talon_bit[k as usize];
        }
    }

    /// Column `i`'s structure shrinks by its surface card; the card under it turns up.
    #[inline(always)]
    fn uncover(&self, node: &mut Node, i: usize) {
        let gone = self.structure[i][node.left[i] as usize - 1];
        node.surface &= !(1 << bit_index(gone));
        node.left[i] -= 1;
        node.columns -= self.weight[i];
        if node.left[i] > 0 {
            let up = 1 << bit_index(self.structure[i][node.left[i] as usize - 1]);
            node.surface |= up;
            node.visible |= up;
            node.down -= 1;
        } else {
            node.structured &= !(1 << i);
        }
    }

    #[inline]
    fn apply(&self, node: &Node, step: Step) -> Node {
        let mut next = *node;
        self.play(&mut next, step);
        next
    }

    /// Plays `step` on `next` in place (the search's copy of the position before).
    #[inline(always)]
    fn play(&self, next: &mut Node, step: Step) {
        match step {
            Step::Reveal(i) => self.uncover(next, i as usize),
            Step::Home(card) => {
                let b = 1u64 << bit_index(card);
                next.homes += 1 << (4 * suit(card));
                if next.surface & b != 0 {
                    self.uncover(next, self.column_of[card as usize] as usize);
                }
                next.visible &= !b;
                self.foundations(next);
            }
            Step::TalonHome(card) => {
                self.take_from_talon(next, card);
                next.homes += 1 << (4 * suit(card));
                self.foundations(next);
            }
            Step::TalonDown(card) => {
                self.take_from_talon(next, card);
                next.visible |= 1 << bit_index(card);
            }
            Step::Back(s) => {
                let card = s * 13 + next.height(s) - 1;
                next.homes -= 1 << (4 * s);
                next.visible |= 1 << bit_index(card);
                self.foundations(next);
            }
        }
    }

    /// Nothing face down, and at most one talon card (in draw 1 any number: every talon
    /// card is always within reach, so the lowest card not home, in the talon or exposed
    /// on the tableau, can always go home, and the rest plays out; see [`realise`]).
    #[inline]
    fn solved(&self, node: &Node) -> bool {
        node.down == 0 && (self.draw == 1 || node.live & (node.live.wrapping_sub(1)) == 0)
    }

    /// The foundations' next cards and which of those are safe at home, and which top
    /// cards would be safe there, after the foundations changed.
    ///
    /// A card of rank `r` is *safe* at home when `r` is at most two above both foundations
    /// of the other colour and at most three above the other foundation of its own colour:
    /// then no card it could hold on the tableau is ever needed there (the proof is in
    /// docs/klondike-solver.md), so it goes home without branching, and no safe card comes
    /// down from a foundation or out of the talon onto the tableau.
    #[inline]
    fn foundations(&self, node: &mut Node) {
        // two suits a lookup, and which suits are safe from one table of every homes
        let homes = node.homes as usize;
        let [next0, top0] = PAIR_BITS[0][homes & 255];
        let [next1, top1] = PAIR_BITS[1][homes >> 8];
        let (next_home, tops) = (next0 | next1, top0 | top1);
        let suits = SAFE_SUITS[homes] as usize;
        let safe = next_home & SUIT_CARDS[suits & 15];
        let safe_top = tops & SUIT_CARDS[suits >> 4];
        node.next_home = next_home;
        node.tops = tops;
        if self.safe_rule {
            node.safe = safe;
            node.safe_top = safe_top;
        }
    }

    /// Where `node`'s cards can go, given its tableau cards whose type lies uncovered:
    /// those and the cards with room.
    #[inline]
    fn scan(&self, node: &Node, uncovered: u64) -> Scan {
        let placed = node.visible & !node.surface;
        // the columns with structure cards and those with a placed King at the bottom,
        // counted from a table (`count_ones` is a dozen instructions without `popcnt`)
        let occupied =
            BITS_SET[node.structured as usize] + BITS_SET[((placed & KINGS) >> 48) as usize];
        let mut room = (uncovered >> 4) & ALL & !KINGS;
        if (occupied as usize) < COLUMNS {
            room |= KINGS;
        }
        Scan { uncovered, room }
    }

    /// The safe move home to play without branching, if there is one: a tableau card
    /// whose type lies uncovered; in draw 1 any talon card (all are within reach, in any
    /// order); in draw 3 the talon's last card in its cycle order, but only when the waste
    /// is *pure* (a multiple of three cards, or the whole talon: kept as 0 by
    /// [`normal_waste`]). Taking the last card turns the whole talon into the waste, which
    /// reaches what an empty waste reaches; from a waste that is not pure the talon
    /// reaches more than that, and forcing the card home there lost wins (draw-3 seeds
    /// 36,408, 39,230, 75,069 and 95,401). The proof is in docs/klondike-solver.md.
    #[inline]
    fn forced(&self, node: &Node, uncovered: u64) -> Option<Step> {
        let home = node.visible & uncovered & node.next_home & node.safe;
        if home != 0 {
            return Some(Step::Home(self.card(home.trailing_zeros())));
        }
        let talon = self.forced_talon(node);
        (talon != 0).then(|| Step::TalonHome(self.card(talon.trailing_zeros())))
    }

    /// The talon cards [`Layout::forced`] may send home (as a card set).
    #[inline(always)]
    fn forced_talon(&self, node: &Node) -> u64 {
        let talon = if self.draw == 1 {
            node.talon
        } else if self.talon_last && node.waste == 0 && node.live != 0 {
            self.talon_bit[31 - node.live.leading_zeros() as usize]
        } else {
            0
        };
        talon & node.next_home & node.safe
    }

    /// [`Layout::settle`], but `Some(None)` when no safe move home can be played, known
    /// without working out the tableau cards whose type lies uncovered (no safe next card
    /// of a foundation in the tableau or sent home from the talon): most positions reached
    /// are in the table already, and do not need them.
    #[inline(always)]
    fn settle_lazily(&self, node: &mut Node, forced: &mut Vec<Step>) -> Option<Option<u64>> {
        // no safe next card of a foundation among the talon's cards: none from the talon
        let home = node.next_home & node.safe;
        if node.visible & home == 0
            && (home & self.talon_cards == 0 || self.forced_talon(node) == 0)
            && !self.solved(node)
        {
            return Some(None);
        }
        self.settle(node, forced).map(Some)
    }

    /// Plays the safe moves home (adding them to `forced`) until none is left; `None` if
    /// the position is then solved, else its tableau cards whose type lies uncovered.
    /// Inlined always: called at every position reached, it is part of the search loop
    /// (left to the compiler it was not inlined once `forced` had the draw-3 talon case,
    /// which cost 3-6% more instructions a position).
    #[inline(always)]
    fn settle(&self, node: &mut Node, forced: &mut Vec<Step>) -> Option<u64> {
        loop {
            if self.solved(node) {
                return None;
            }
            let uncovered = uncovered(node);
            match self.forced(node, uncovered) {
                Some(step) => {
                    self.play(node, step);
                    forced.push(step);
                }
                None => return Some(uncovered),
            }
        }
    }

    /// The moves worth trying from `node` (settled: no safe move home left), added at the
    /// end of `out`: first the ones `context` prefers, then the others (with `prune`, the
    /// others are left out: a search that may miss wins). Without `back`, no foundation
    /// card comes back.
    #[inline(always)]
    fn moves(
        &self,
        node: &Node,
        scan: &Scan,
        out: &mut Vec<Step>,
        back: bool,
        context: &Context,
        prune: bool,
    ) {
        let Scan { uncovered, room } = *scan;
        let home = node.visible & uncovered & node.next_home & !context.skip_home;
        // Draw 3: when the talon's last card is safe at home and the waste is not pure, a
        // card that only a recycle brings within reach is not taken; the last card home
        // (a move tried here) leaves a talon that reaches it and loses nothing (the proof
        // is in docs/klondike-solver.md).
        // (The last card is within reach: a safe card among those first, which is rare.)
        let mut talon = node.talon;
        let safe = node.next_home & node.safe;
        if node.waste != 0 && talon & safe != 0 && self.no_recycle {
            let last = self.talon_bit[31 - node.live.leading_zeros() as usize];
            if last & safe != 0 {
                talon &= self.forward(node);
            }
        }
        let mut all = Moves {
            reveal: node.surface & room & !(KINGS & self.bottoms),
            home,
            talon_home: talon & node.next_home,
            talon_down: talon & room & !(node.next_home & node.safe),
            back: match back {
                true => room & !node.safe_top & node.tops & !context.skip_back,
                false => 0,
            },
        };
        // the cards that fit on a card (those on the type four bits up)
        let fits = |b: u64| match b {
            0 => 0,
            _ => (0x3u64 << (b.trailing_zeros() & !1)) >> 4,
        };
        if context.mark != 0 {
            // a card put down from the talon in draw 1: the next move uses it (see
            // `Context::after`)
            let d = 1u64 << bit_index(context.mark - 1);
            let onto = fits(d);
            all = Moves {
                reveal: all.reveal & onto,
                home: all.home & (0x3u64 << (d.trailing_zeros() & !1)) & !d,
                talon_home: 0,
                talon_down: all.talon_down & onto,
                back: all.back & onto,
            };
        }
        let placed_home = home & !node.surface;
        let preferred = if placed_home != 0 {
            // A placed card can go home: send the lowest home, or put a card on it.
            let low = placed_home & placed_home.wrapping_neg();
            let twin = (0x3u64 << (low.trailing_zeros() & !1)) & !low;
            // three or more: some bit is left once the lowest two are cleared
            let rest = placed_home & (placed_home - 1);
            if rest & rest.wrapping_sub(1) != 0 {
                Moves {
                    home: low,
                    ..Moves::default()
                }
            } else {
                let onto = fits(low);
                Moves {
                    home: low | (twin & placed_home),
                    reveal: all.reveal & onto,
                    talon_down: all.talon_down & onto,
                    ..Moves::default()
                }
            }
        } else if context.emptied {
            Moves {
                reveal: all.reveal & KINGS,
                talon_down: all.talon_down & KINGS,
                back: all.back & KINGS,
                ..Moves::default()
            }
        } else if context.revealed != 0 {
            let b = context.revealed;
            let kind = 0x3u64 << (b.trailing_zeros() & !1);
            Moves {
                home: all.home & kind,
                talon_home: 0,
                ..all
            }
        } else if context.pending != 0 {
            let d = context.pending;
            let kind = 0x3u64 << (d.trailing_zeros() & !1);
            Moves {
                home: all.home & kind & !d,
                reveal: all.reveal & (fits(d) | self.bottoms),
                ..all
            }
        } else {
            // every move preferred: none left after them
            self.emit(&all, out);
            return;
        };
        self.emit(&preferred, out);
        if !prune {
            all.remove(&preferred);
            self.emit(&all, out);
        }
    }

    /// Adds the moves of `moves` to `out`, by kind (reveals, cards home from the tableau,
    /// cards down from the talon, cards home from the talon, foundation cards back), and
    /// within a kind lowest rank first. Inlined always, like [`Layout::moves`] that calls
    /// it twice a position: as a call it had cost 8% of the instructions of a median
    /// draw-1 deal (saving and restoring registers, and the lists' lengths kept in memory).
    #[inline(always)]
    fn emit(&self, moves: &Moves, out: &mut Vec<Step>) {
        // generic in the step's constructor, so that each kind's loop is compiled on its
        // own (a `&dyn Fn` had cost an indirect call a move)
        #[inline(always)]
        fn push(out: &mut Vec<Step>, mut bits: u64, step: impl Fn(u8) -> Step) {
            while bits != 0 {
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                out.push(step(CARD_OF_BIT[b as usize]));
            }
        }
        push(out, moves.reveal, |card| {
            Step::Reveal(self.column_of[card as usize])
        });
        push(out, moves.home, Step::Home);
        push(out, moves.talon_down, Step::TalonDown);
        push(out, moves.talon_home, Step::TalonHome);
        push(out, moves.back, |card| Step::Back(suit(card)));
    }
}

/// Moves of each kind as card sets: the surface cards that reveal, the tableau cards and
/// the talon cards that go home, the talon cards that come down, the foundations' top
/// cards that come back.
#[derive(Clone, Copy, Default)]
struct Moves {
    reveal: u64,
    home: u64,
    talon_home: u64,
    talon_down: u64,
    back: u64,
}

impl Moves {
    fn remove(&mut self, other: &Moves) {
        self.reveal &= !other.reveal;
        self.home &= !other.home;
        self.talon_home &= !other.talon_home;
        self.talon_down &= !other.talon_down;
        self.back &= !other.back;
    }
}

/// What the move that led to a position says about the moves from it: the moves that
/// would only reach a position reached otherwise (left out), and what the moves tried
/// first follow (see [`Layout::moves`]).
#[derive(Clone, Copy, Default)]
struct Context {
    /// Cards whose move home is left out: one brought back by the last move (home again
    /// is where it came from), a card just put down from the talon (home from the talon
    /// directly is a move of the position before), a surface card just moved that could
    /// have gone home from there.
    skip_home: u64,
    /// Foundation cards that stay home: one sent home by the last move from a placed spot.
    skip_back: u64,
    /// The card the last move turned up.
    revealed: u64,
    /// Whether the last move emptied a column.
    emptied: bool,
    /// A card put down from the talon that no move has used yet.
    pending: u64,
    /// `1 +` the card the last move put down from the talon, when the move from here must
    /// use it (draw 1: see [`Context::after`]); 0 when every move is searched. The table
    /// keeps it as the position's mark.
    mark: u8,
}

impl Context {
    /// The `mark` of [`Context::after`] alone (what the table needs before the rest).
    #[inline]
    fn mark(layout: &Layout, step: Step, forced: bool) -> u8 {
        match step {
            Step::TalonDown(card) if !forced && layout.trail => 1 + card,
            _ => 0,
        }
    }

    /// The context of `node`, reached by `step` from `parent` (whose context was
    /// `before`); `forced` when safe moves home followed the step (then the position
    /// reached is not one step from `parent`, and nothing is left out). Inlined always:
    /// it is worked out at every position searched, and as a call it had cost 2.6% of
    /// the instructions of a median draw-1 deal.
    #[inline(always)]
    fn after(
        layout: &Layout,
        parent: &Node,
        parent_uncovered: u64,
        before: &Context,
        step: Step,
        node: &Node,
        forced: bool,
    ) -> Context {
        let mut context = Context::default();
        match step {
            Step::Reveal(i) => {
                let i = i as usize;
                let moved = layout.structure[i][parent.left[i] as usize - 1];
                if node.left[i] > 0 {
                    let up = layout.structure[i][node.left[i] as usize - 1];
                    context.revealed = 1 << bit_index(up);
                } else {
                    context.emptied = true;
                }
                if !forced {
                    let b = 1u64 << bit_index(moved);
                    if parent_uncovered & parent.next_home & b != 0 {
                        context.skip_home = b;
                    }
                }
            }
            Step::TalonDown(card) => {
                context.pending = 1 << bit_index(card);
                if !forced {
                    context.skip_home = 1 << bit_index(card);
                }
                context.mark = Context::mark(layout, step, forced);
            }
            Step::Home(card) if !forced && parent.surface & (1 << bit_index(card)) == 0 => {
                context.skip_back = 1 << bit_index(card);
            }
            Step::Back(s) => {
                let card = s * 13 + parent.height(s) - 1;
                let b = 1u64 << bit_index(card);
                if !forced {
                    context.skip_home = b;
                }
                let d = before.pending;
                if d != 0 && !fits_on(card, Some(layout.card(d.trailing_zeros()))) {
                    context.pending = d;
                }
            }
            _ => {}
        }
        context
    }
}

/// The tableau cards of `node` whose type lies uncovered: a type lies uncovered as many
/// times as its cards present less the placed cards of the type below, whatever the
/// arrangement; with two cards a type, "present" and "placed below" are each 0, 1 or 2,
/// worked out for all types at once from the pairs of bits.
#[inline]
fn uncovered(node: &Node) -> u64 {
    let placed = node.visible & !node.surface;
    let children = (placed & !KINGS) << 4;
    let pair_any = |x: u64| (x | (x >> 1)) & LOW;
    let pair_odd = |x: u64| (x ^ (x >> 1)) & LOW;
    let types = ((pair_any(node.visible) ^ pair_any(children))
        | (pair_odd(node.visible) ^ pair_odd(children)))
        & LOW;
    types | (types << 1)
}

/// The real moves that carry out `steps` from `start`, ending solved; `Err` names the
/// first step that has no realisation (a bug of this module).
fn realise(start: &Klondike, steps: &[Step]) -> Result<Vec<Move>, String> {
    let mut state = Real::new(start)?;
    let mut moves = Vec::with_capacity(4 * steps.len() + 64);
    for &step in steps {
        match step {
            Step::Reveal(i) => {
                let i = i as usize;
                let start_at = state.hidden[i];
                let card = state.columns[i][start_at as usize];
                let to = state.place(card, Some(i))?;
                state.play(
                    &mut moves,
                    Move::ColumnToColumn {
                        from: i as u8,
                        to,
                        start: start_at,
                    },
                )?;
            }
            Step::Home(card) => {
                // a card going home is face up in the tableau, where `Real` keeps its place
                let (i, at) = state.place_of(card);
                if at + 1 < state.len[i] {
                    // the run on it moves onto its uncovered twin (the card of the other
                    // suit of its colour and of its rank)
                    let twin = (3 - suit(card)) * 13 + rank(card) - 1;
                    let to = state.column_of[twin as usize];
                    if state.tops[to as usize] != twin {
                        return Err(format!("card {card} is covered and so is its twin"));
                    }
                    state.play(
                        &mut moves,
                        Move::ColumnToColumn {
                            from: i as u8,
                            to,
                            start: at + 1,
                        },
                    )?;
                }
                state.play(&mut moves, Move::ColumnToFoundation(i as u8))?;
            }
            Step::TalonHome(card) | Step::TalonDown(card) => {
                state
                    .turn_to(&mut moves, card)
                    .map_err(|_| format!("the talon never offers card {card}"))?;
                if matches!(step, Step::TalonHome(_)) {
                    state.play(&mut moves, Move::WasteToFoundation)?;
                } else {
                    let to = state.place(card, None)?;
                    state.play(&mut moves, Move::WasteToColumn(to))?;
                }
            }
            Step::Back(s) => {
                let card = s * 13 + state.foundation[s as usize] - 1;
                let to = state.place(card, None)?;
                state.play(&mut moves, Move::FoundationToColumn { suit: s, to })?;
            }
        }
    }
    if state.cards == 1 && state.waste == 0 {
        state.play(&mut moves, Move::Draw)?;
    }
    // In draw 1 the talon may still hold cards: the lowest card not home goes home until
    // the position is solved.
    while state.draw == 1 && !state.is_solved() {
        let lowest = (0..4u8)
            .filter(|&s| state.foundation[s as usize] < 13)
            .map(|s| s * 13 + state.foundation[s as usize])
            .min_by_key(|&card| rank(card))
            .ok_or("every card is home but the position is not solved")?;
        if let Some(i) = (0..COLUMNS).find(|&i| state.tops[i] == lowest) {
            state.play(&mut moves, Move::ColumnToFoundation(i as u8))?;
            continue;
        }
        state
            .turn_to(&mut moves, lowest)
            .map_err(|_| format!("card {lowest} is neither exposed nor in the talon"))?;
        state.play(&mut moves, Move::WasteToFoundation)?;
    }
    if !state.is_solved() {
        return Err("the line does not end solved".into());
    }
    state.check_end()?;
    Ok(moves)
}

/// Cards a pile of [`Real`] holds at most: a column has at most seven face-down cards
/// (more is `Unsupported`) and at most 13 face-up cards in sequence on them, the talon at
/// most 24 cards.
const PILE: usize = 24;

/// [`Real::tops`] of an empty column.
const NO_CARD: u8 = 52;

/// The tableau cards (and [`NO_CARD`], an empty column) each card can be put on, as bits
/// of their numbers: the two cards one rank higher of the other colour; for a King, an
/// empty column.
const GOES_ON: [u64; 52] = {
    let mut table = [0u64; 52];
    let mut card = 0;
    while card < 52 {
        let (rank, red) = (card % 13 + 1, matches!(card / 13, 1 | 2));
        if rank == 13 {
            table[card] = 1 << NO_CARD;
        } else {
            let mut suit = 0;
            while suit < 4 {
                if matches!(suit, 1 | 2) != red {
                    table[card] |= 1 << (suit * 13 + rank);
                }
                suit += 1;
            }
        }
        card += 1;
    }
    table
};

/// The real position as [`realise`] plays a line on it, its piles in arrays: a
/// [`Klondike`] is nine vectors to allocate (and to grow as the line adds cards), which
/// cost more than the moves themselves on an easy deal. The moves are legal by
/// construction; in debug builds each is also checked on a [`Klondike`] played alongside
/// (a failed check is a bug of this module), which must end where this position ends.
struct Real {
    draw: u8,
    /// The columns, first-dealt card first (`len[i]` cards of each).
    columns: [[u8; PILE]; COLUMNS],
    len: [u8; COLUMNS],
    /// Each column's exposed card ([`NO_CARD`] when it is empty).
    tops: [u8; COLUMNS],
    /// Where each tableau card lies: its column and its index there (kept as cards come
    /// onto the columns; out of date for the cards that have left the tableau).
    column_of: [u8; 52],
    index: [u8; 52],
    /// Face-down cards at the bottom of each column.
    hidden: [u8; COLUMNS],
    /// The talon in the order the draws turn it: the waste (`talon[..waste]`, top card
    /// last), then the hand, first card to be drawn first (`talon[waste..cards]`): a draw
    /// or a recycle only moves `waste`.
    talon: [u8; PILE],
    cards: u8,
    waste: u8,
    foundation: [u8; 4],
    /// Debug builds: the same position as the engine plays it.
    #[cfg(debug_assertions)]
    check: Klondike,
}

impl Real {
    fn new(start: &Klondike) -> Result<Real, String> {
        let mut state = Real {
            draw: start.draw,
            columns: [[0; PILE]; COLUMNS],
            len: [0; COLUMNS],
            tops: [NO_CARD; COLUMNS],
            column_of: [0; 52],
            index: [0; 52],
            hidden: start.hidden,
            talon: [0; PILE],
            cards: (start.stock.len() + start.waste.len()) as u8,
            waste: start.waste.len() as u8,
            foundation: start.foundation,
            #[cfg(debug_assertions)]
            check: start.clone(),
        };
        let too_long = || Err("a pile too long for a line to be realised".to_string());
        for (i, column) in start.columns.iter().enumerate() {
            // the face-up cards, in sequence, are at most 13
            if column.len() > PILE || start.hidden[i] as usize + 13 > PILE {
                return too_long();
            }
            for &card in column {
                state.push_column(i, card);
            }
        }
        if start.stock.len() + start.waste.len() > PILE {
            return too_long();
        }
        for (slot, &card) in state
            .talon
            .iter_mut()
            .zip(start.waste.iter().chain(start.stock.iter().rev()))
        {
            *slot = card;
        }
        Ok(state)
    }

    /// The column and the index there of `card`, which lies face up in the tableau.
    #[inline]
    fn place_of(&self, card: u8) -> (usize, u8) {
        (
            self.column_of[card as usize] as usize,
            self.index[card as usize],
        )
    }

    /// The first column other than `not` whose exposed card `card` fits on (an empty one
    /// for a King).
    #[inline(always)]
    fn place(&self, card: u8, not: Option<usize>) -> Result<u8, String> {
        let goes_on = GOES_ON[card as usize];
        (0..COLUMNS)
            .find(|&j| Some(j) != not && goes_on >> self.tops[j] & 1 != 0)
            .map(|j| j as u8)
            .ok_or_else(|| format!("no place for card {card}"))
    }

    fn is_solved(&self) -> bool {
        // the hand empty, at most one waste card
        self.waste == self.cards && self.cards <= 1 && self.hidden.iter().all(|&h| h == 0)
    }

    /// The waste's top card.
    #[inline]
    fn top(&self) -> Option<u8> {
        self.talon[..self.waste as usize].last().copied()
    }

    /// Takes the waste's top card out of the talon.
    #[inline]
    fn take_top(&mut self) -> u8 {
        let at = self.waste as usize - 1;
        let card = self.talon[at];
        self.talon.copy_within(at + 1..self.cards as usize, at);
        self.cards -= 1;
        self.waste -= 1;
        card
    }

    /// Column `i` lost its top cards down to `len` cards: the card under them is exposed,
    /// and turns up if it was face down.
    #[inline]
    fn cut(&mut self, i: usize, len: u8) {
        self.len[i] = len;
        if len == 0 {
            self.tops[i] = NO_CARD;
            return;
        }
        self.tops[i] = self.columns[i][len as usize - 1];
        if self.hidden[i] == len {
            self.hidden[i] -= 1;
        }
    }

    #[inline]
    fn push_column(&mut self, i: usize, card: u8) {
        let at = self.len[i];
        self.columns[i][at as usize] = card;
        self.len[i] = at + 1;
        self.tops[i] = card;
        self.column_of[card as usize] = i as u8;
        self.index[card as usize] = at;
    }

    /// Plays `mv` (legal by construction) and adds it to `moves`; `Err` only in debug
    /// builds, when the engine finds it illegal. Inlined always: each call site plays
    /// one kind of move, and the match on it folds away (a call a move had cost about a
    /// third of the realisation).
    #[inline(always)]
    fn play(&mut self, moves: &mut Vec<Move>, mv: Move) -> Result<(), String> {
        #[cfg(debug_assertions)]
        {
            if !self.check.is_legal(mv) {
                return Err(format!("{mv} is not legal"));
            }
            self.check.apply(mv);
        }
        moves.push(mv);
        match mv {
            Move::Draw => self.waste = (self.waste + self.draw).min(self.cards),
            Move::Recycle => self.waste = 0,
            Move::WasteToFoundation => {
                let card = self.take_top();
                self.foundation[suit(card) as usize] += 1;
            }
            Move::WasteToColumn(to) => {
                let card = self.take_top();
                self.push_column(to as usize, card);
            }
            Move::ColumnToFoundation(from) => {
                let from = from as usize;
                let card = self.tops[from];
                self.foundation[suit(card) as usize] += 1;
                self.cut(from, self.len[from] - 1);
            }
            Move::ColumnToColumn { from, to, start } => {
                let (from, to) = (from as usize, to as usize);
                for at in start..self.len[from] {
                    let card = self.columns[from][at as usize];
                    self.push_column(to, card);
                }
                self.cut(from, start);
            }
            Move::FoundationToColumn { suit, to } => {
                let height = &mut self.foundation[suit as usize];
                let card = suit * 13 + *height - 1;
                *height -= 1;
                self.push_column(to as usize, card);
            }
        }
        Ok(())
    }

    /// Turns the talon (draws, and a recycle when the hand is empty) until `card` tops the
    /// waste, adding the moves to `moves`; `Err` if it never does. In draw 1 the draws up
    /// to the card are made at once (half a draw-1 certificate is draws).
    #[inline(always)]
    fn turn_to(&mut self, moves: &mut Vec<Move>, card: u8) -> Result<(), ()> {
        if self.draw == 1 {
            let at = self.talon[..self.cards as usize]
                .iter()
                .position(|&c| c == card)
                .ok_or(())?;
            if at + 1 < self.waste as usize {
                // behind the waste's top: through the hand, then a recycle
                let through = (self.cards - self.waste) as usize;
                self.check_draws(through);
                moves.extend(std::iter::repeat_n(Move::Draw, through));
                self.play(moves, Move::Recycle).map_err(|_| ())?;
            }
            let draws = at + 1 - self.waste as usize;
            self.check_draws(draws);
            moves.extend(std::iter::repeat_n(Move::Draw, draws));
            self.waste = at as u8 + 1;
            return Ok(());
        }
        for _ in 0..=60 {
            if self.top() == Some(card) {
                return Ok(());
            }
            if self.waste == self.cards {
                if self.cards == 0 {
                    return Err(());
                }
                self.play(moves, Move::Recycle).map_err(|_| ())?;
            } else {
                self.play(moves, Move::Draw).map_err(|_| ())?;
            }
        }
        Err(())
    }

    /// Debug builds: `count` draws on the position played alongside.
    #[inline]
    fn check_draws(&mut self, count: usize) {
        #[cfg(debug_assertions)]
        for _ in 0..count {
            self.check.apply(Move::Draw);
        }
        #[cfg(not(debug_assertions))]
        let _ = count;
    }

    /// Debug builds: `Err` unless the engine's position played alongside is this one.
    fn check_end(&self) -> Result<(), String> {
        #[cfg(debug_assertions)]
        {
            let check = &self.check;
            let same = (0..COLUMNS)
                .all(|i| check.columns[i] == self.columns[i][..self.len[i] as usize])
                && check.hidden == self.hidden
                && check.waste == self.talon[..self.waste as usize]
                && check
                    .stock
                    .iter()
                    .rev()
                    .eq(&self.talon[self.waste as usize..self.cards as usize])
                && check.foundation == self.foundation;
            if !same {
                return Err("the realised line ends elsewhere in the engine".into());
            }
        }
        Ok(())
    }
}

/// The waste's length as the key keeps it: where the waste stands matters only by the
/// talon positions it can reach. From an empty waste those are every `draw`-th card and
/// the last; from a waste holding a multiple of `draw` cards, or the whole talon, they are
/// the same, so all these count as an empty waste (and in draw 1 every position does).
fn normal_waste(waste: u32, talon: u32, draw: u8) -> u8 {
    // draw is 1 or 3 (a constant divisor costs a multiply, a variable one a division)
    if draw == 1 || waste % 3 == 0 || waste == talon {
        0
    } else {
        waste as u8
    }
}

struct Frame {
    node: Node,
    context: Context,
    /// The tableau cards whose type lies uncovered in `node`.
    uncovered: u64,
    /// Where this position's moves start in the search's one list of moves (they run to
    /// the next frame's start, or to the list's end for the last frame).
    begin: u32,
    /// The next of them to try, counted from `begin`.
    next: u32,
    /// Where the safe moves played on reaching this position end in the search's list of
    /// them (they begin where the previous frame's end).
    forced_end: u32,
}

/// Solves `start` within `budget` over abstract positions; `Err` when the position is
/// outside what this search handles.
///
/// Several searches share the budget, taking turns in slices of nodes that double from
/// turn to turn (see `Portfolio`): the complete search ([`Part::Complete`]), the only
/// one that can answer `unsolvable`; a search for wins that tries only the moves
/// preferred, restarted in random orders ([`Part::Finder`]); and, in draw 3, the complete
/// search of the same position in draw 1 ([`Part::Relaxed`]).
pub fn solve(
    start: &Klondike,
    budget: &Budget,
    stop: &mut dyn FnMut() -> bool,
) -> Result<Report<Move>, Unsupported> {
    solve_with(start, budget, Pruning::Full, stop)
}

/// [`solve`] with a choice of rules: [`Pruning::None`] turns off the safe moves home
/// (played alone, and never undone) and, in draw 1, the rule that a card put down from
/// the talon is used next, to check them.
pub fn solve_with(
    start: &Klondike,
    budget: &Budget,
    pruning: Pruning,
    stop: &mut dyn FnMut() -> bool,
) -> Result<Report<Move>, Unsupported> {
    solve_rules(start, budget, Rules::from(pruning), stop)
}

/// Which of the search's rules hold (see docs/klondike-solver.md for their proofs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// A safe card goes home alone, and no safe card comes down from a foundation or out
    /// of the talon (see `Layout::foundations`).
    pub safe: bool,
    /// In draw 1, the move after a card comes down from the talon uses it (see
    /// `Context::after`).
    pub talon_used_next: bool,
    /// In draw 3 (with `safe`), the talon's last card in its cycle order goes home alone
    /// when it is safe and the waste is pure (a multiple of three cards, or the whole
    /// talon; see `Layout::forced`).
    pub talon_last_home: bool,
    /// In draw 3 (with `safe`), when the talon's last card is safe at home and the waste is
    /// not pure, no talon card is taken that only a recycle brings within reach: sending
    /// the last card home reaches those (see `Layout::moves`).
    pub talon_no_recycle: bool,
}

impl From<Pruning> for Rules {
    fn from(pruning: Pruning) -> Rules {
        let on = pruning == Pruning::Full;
        Rules {
            safe: on,
            talon_used_next: on,
            talon_last_home: on,
            talon_no_recycle: on,
        }
    }
}

/// [`solve`] with the rules `rules` (and the stuck-card check when every rule holds):
/// with and without a rule, the verdicts must agree (`examples/klondike_rule_check.rs`).
pub fn solve_rules(
    start: &Klondike,
    budget: &Budget,
    rules: Rules,
    stop: &mut dyn FnMut() -> bool,
) -> Result<Report<Move>, Unsupported> {
    // The order of the first turn matters for easy deals, which one search decides in
    // it: in draw 3 the search for wins wins most of them in fewer nodes than the complete
    // search (302 against 656 at the median, seeds 2,000,000 to 2,000,199), in draw 1 the
    // complete search, with its rule on the talon, wins them first (71 against 79).
    let parts: &[Part] = match start.draw {
        3 => &[Part::Finder, Part::Complete, Part::Relaxed],
        _ => &[Part::Complete, Part::Finder],
    };
    // the stuck-card check with the rules whose checks (examples/klondike_rule_check.rs)
    // turn it off too; the talon's last card is checked with it on both ways
    let all = rules.safe && rules.talon_used_next;
    run(start, budget, rules, parts, all, stop)
}

/// The complete search alone, with a choice of rules.
pub fn solve_complete(
    start: &Klondike,
    budget: &Budget,
    pruning: Pruning,
    stop: &mut dyn FnMut() -> bool,
) -> Result<Report<Move>, Unsupported> {
    run(
        start,
        budget,
        Rules::from(pruning),
        &[Part::Complete],
        false,
        stop,
    )
}

/// The searches that [`solve`] runs side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The complete search: its win is a win, its exhaustion a loss.
    Complete,
    /// Searches that try only the moves preferred (see `Layout::moves`), each (but the
    /// first) in its own random order, restarted with node limits of the Luby sequence:
    /// their wins are wins, their exhaustion says nothing.
    Finder,
    /// The complete search of a draw-3 position dealt in draw 1, which wins whatever draw
    /// 3 wins (every talon card is always within reach, and the other moves are the same):
    /// its exhaustion is a loss in draw 3 too, its win says nothing.
    Relaxed,
}

/// The searches `parts` of `start` side by side (see `Portfolio`): any part's win is a
/// win, only the complete search and the relaxed one can answer `unsolvable`, and when
/// every part has stopped without a verdict the answer is `unknown`. One part alone shows
/// what [`solve`] pays for it.
pub fn solve_parts(
    start: &Klondike,
    budget: &Budget,
    pruning: Pruning,
    parts: &[Part],
    stop: &mut dyn FnMut() -> bool,
) -> Result<Report<Move>, Unsupported> {
    run(start, budget, Rules::from(pruning), parts, false, stop)
}

/// [`solve_parts`]; with `stuck`, a position the searches have not decided in their first
/// turn is checked for a card that can never move (`solver::has_stuck_card`), a loss:
/// most deals are won within that turn, and the check costs as much as a few dozen
/// nodes.
fn run(
    start: &Klondike,
    budget: &Budget,
    rules: Rules,
    parts: &[Part],
    stuck: bool,
    stop: &mut dyn FnMut() -> bool,
) -> Result<Report<Move>, Unsupported> {
    let (layout, root) = Layout::new(start, rules)?;
    let mut meter = Meter::new(budget, stop);
    if stuck {
        // the whole solver: first the line a search would try first, straight down
        if let Some(line) = descend(&layout, root, &mut meter) {
            return Ok(meter.report(match realise(start, &line) {
                Ok(moves) => Outcome::Solved(moves),
                Err(why) => panic!("an abstract line has no realisation: {why}: {line:?}"),
            }));
        }
    }
    // the draw-1 layout of a draw-3 deal, laid out at the relaxed search's first turn:
    // most deals are decided before it
    let relaxed = OnceCell::new();
    let mut searches = Vec::with_capacity(parts.len());
    for part in parts {
        match part {
            Part::Complete => searches.push(Searcher::Complete {
                layout: &layout,
                root,
                dfs: None,
            }),
            Part::Finder => searches.push(Searcher::Finder {
                layout: &layout,
                root,
                round: 0,
                dfs: None,
            }),
            Part::Relaxed if start.draw == 3 => searches.push(Searcher::Relaxed {
                start,
                rules,
                layout: &relaxed,
                dfs: None,
            }),
            Part::Relaxed => {}
        }
    }
    let outcome = Portfolio {
        searches,
        stuck: stuck.then_some(start),
        first_slice: match start.draw {
            3 => FIRST_SLICE_3,
            _ => FIRST_SLICE,
        },
    }
    .run(budget, &mut meter);
    let outcome = match outcome {
        Ok(line) => match realise(start, &line) {
            Ok(moves) => Outcome::Solved(moves),
            Err(why) => panic!("an abstract line has no realisation: {why}: {line:?}"),
        },
        Err(outcome) => outcome,
    };
    Ok(meter.report(outcome))
}

/// Nodes of the first turn of each search (see [`Portfolio::run`]), in draw 1.
const FIRST_SLICE: u64 = 256;

/// The same in draw 3, where the first search (for wins) wins most deals within about a
/// thousand nodes.
const FIRST_SLICE_3: u64 = 1024;

/// The slice from which the complete search takes its turn first (see
/// [`Portfolio::run`]): earlier, the search for wins still wins deals in its second to
/// sixth turns of draw 3, which the complete search going first made cost more (about
/// 34 deals a range of 200, 66,000 to 82,000 nodes more a range at 20,000 nodes a deal).
const COMPLETE_FIRST: u64 = 1 << 16;

/// The node limit of each of the search for wins' restarts is this many times a term of
/// the Luby sequence ([`luby`]).
const RESTART_NODES: u64 = 4_000;

/// Searches taking turns on one budget.
struct Portfolio<'a> {
    searches: Vec<Searcher<'a>>,
    /// The position to check for a stuck card after the first turn.
    stuck: Option<&'a Klondike>,
    /// Nodes of each search's first turn.
    first_slice: u64,
}

/// The pass of the complete search and of the relaxed one.
const COMPLETE: Pass = Pass {
    nodes: u64::MAX,
    back: true,
    shuffle: 0,
    prune: false,
};

/// One of the searches of a [`Portfolio`]. Each is set up at its first turn (its table,
/// its lists, and for the relaxed search its layout): most deals are decided in the
/// first search's first turn, and the set-up of the others had been a good part of their
/// cost. Set up then or before, a search searches the same positions in the same order.
enum Searcher<'a> {
    /// The complete search: its win is a win, its exhaustion a loss.
    Complete {
        layout: &'a Layout,
        root: Node,
        dfs: Option<Dfs<'a>>,
    },
    /// The same position in draw 1 (from a draw-3 position): its exhaustion is a loss
    /// in draw 3 too; its win says nothing. `layout` is its layout once laid out (`None`
    /// inside if the position does not lay out in draw 1; the search is then dropped).
    Relaxed {
        start: &'a Klondike,
        rules: Rules,
        layout: &'a OnceCell<Option<(Layout, Node)>>,
        dfs: Option<Dfs<'a>>,
    },
    /// Searches trying only the moves preferred, each in its own random order (but the
    /// first), restarted with node limits of the Luby sequence: their wins are wins,
    /// their exhaustion says nothing.
    Finder {
        layout: &'a Layout,
        root: Node,
        round: u64,
        dfs: Option<Dfs<'a>>,
    },
}

impl Portfolio<'_> {
    /// Gives each search in turn a slice of nodes, doubling from turn to turn, until one
    /// decides, or a budget runs out. `Ok` with the winning line, or the outcome.
    fn run(mut self, budget: &Budget, meter: &mut Meter) -> Result<Vec<Step>, Outcome<Move>> {
        let mut slice = self.first_slice;
        let mut full = false;
        loop {
            let mut k = 0;
            while k < self.searches.len() {
                let until = meter.nodes.saturating_add(slice);
                let done = match &mut self.searches[k] {
                    Searcher::Complete { layout, root, dfs } => match dfs
                        .get_or_insert_with(|| Dfs::new(layout, *root, budget, COMPLETE))
                        .run(meter, until)
                    {
                        Some(Phase::Won(line)) => return Ok(line),
                        Some(Phase::Exhausted) => return Err(Outcome::Unsolvable),
                        Some(Phase::Full) => {
                            full = true;
                            true
                        }
                        Some(Phase::Stopped(reason)) => return Err(Outcome::Unknown(reason)),
                        Some(Phase::Limit) => unreachable!("the complete search has no limit"),
                        None => false,
                    },
                    Searcher::Relaxed {
                        start,
                        rules,
                        layout,
                        dfs,
                    } => {
                        let laid_out: &Option<(Layout, Node)> =
                            layout.get_or_init(|| Layout::with_draw(start, 1, *rules).ok());
                        match laid_out {
                            None => true,
                            Some((easier, root)) => match dfs
                                .get_or_insert_with(|| Dfs::new(easier, *root, budget, COMPLETE))
                                .run(meter, until)
                            {
                                Some(Phase::Exhausted) => return Err(Outcome::Unsolvable),
                                Some(Phase::Stopped(reason)) => {
                                    return Err(Outcome::Unknown(reason))
                                }
                                Some(_) => true,
                                None => false,
                            },
                        }
                    }
                    Searcher::Finder {
                        layout,
                        root,
                        round,
                        dfs,
                    } => loop {
                        if meter.nodes >= until {
                            break false;
                        }
                        let current = dfs.get_or_insert_with(|| {
                            *round += 1;
                            let pass = Pass {
                                nodes: RESTART_NODES * luby(*round),
                                back: true,
                                shuffle: *round - 1,
                                prune: true,
                            };
                            Dfs::new(layout, *root, budget, pass)
                        });
                        match current.run(meter, until) {
                            Some(Phase::Won(line)) => return Ok(line),
                            Some(Phase::Limit) => *dfs = None,
                            Some(Phase::Stopped(reason)) => return Err(Outcome::Unknown(reason)),
                            // searched through: another order would search through the
                            // same positions
                            Some(_) => break true,
                            None => break false,
                        }
                    },
                };
                if done {
                    self.searches.remove(k);
                } else {
                    k += 1;
                }
            }
            if let Some(start) = self.stuck.take() {
                if crate::klondike::solver::has_stuck_card(start) {
                    return Err(Outcome::Unsolvable);
                }
            }
            if slice.saturating_mul(2) >= COMPLETE_FIRST {
                // Once the slices are long the complete search goes first (draw 3 starts
                // with the search for wins, which wins most deals early). A deal still open
                // then is more often lost, and the search that goes first in the last turn
                // spends a whole slice for nothing when the other decides: on 770,157
                // (draw 3, lost) 68.4 million nodes instead of 102.0 million.
                self.searches
                    .sort_by_key(|search| !matches!(search, Searcher::Complete { .. }));
            }
            if self.searches.is_empty() {
                // the complete search stopped with its table full: it cannot say lost
                let why = if full {
                    search::TABLE_FULL
                } else {
                    "no search left"
                };
                return Err(Outcome::Unknown(why.into()));
            }
            slice = slice.saturating_mul(2);
        }
    }
}

/// Moves [`descend`] plays at most.
const DESCENT: usize = 160;

/// The first line a search would try, straight down: from `root`, the first move of
/// [`Layout::moves`] (the preferred ones first) each time, no table, no way back. Most
/// deals are won so (their search never turns back), and without the table and the
/// stack of positions each move costs half as much; the line is a win like any other
/// (realised and replayed). `None` at a position with no move, after [`DESCENT`] moves
/// (a line can go round in a circle), or when the budget runs out; the nodes are counted.
fn descend(layout: &Layout, root: Node, meter: &mut Meter) -> Option<Vec<Step>> {
    let mut line: Vec<Step> = Vec::with_capacity(256);
    let mut node = root;
    let mut uncovered = layout.settle(&mut node, &mut line)?;
    let mut context = Context::default();
    let mut steps: Vec<Step> = Vec::with_capacity(32);
    for _ in 0..DESCENT {
        if node.stale {
            node.talon = layout.reachable(&node);
            node.stale = false;
        }
        let scan = layout.scan(&node, uncovered);
        steps.clear();
        // the first move of the whole list is the first preferred one, if there is one:
        // the others are listed only when none is
        layout.moves(&node, &scan, &mut steps, true, &context, true);
        if steps.is_empty() {
            layout.moves(&node, &scan, &mut steps, true, &context, false);
        }
        let &step = steps.first()?;
        let parent = node;
        node = layout.apply(&parent, step);
        meter.tick(u64::MAX).ok()?;
        line.push(step);
        let before = line.len();
        match layout.settle(&mut node, &mut line) {
            None => return Some(line),
            Some(next) => {
                context = Context::after(
                    layout,
                    &parent,
                    uncovered,
                    &context,
                    step,
                    &node,
                    line.len() != before,
                );
                uncovered = next;
            }
        }
    }
    None
}

/// How one search ended.
enum Phase {
    Won(Vec<Step>),
    Exhausted,
    Full,
    /// It counted the nodes its pass allows.
    Limit,
    Stopped(String),
}

/// How one depth-first search goes.
#[derive(Clone, Copy)]
struct Pass {
    /// Stop once this search has counted this many nodes.
    nodes: u64,
    /// Whether foundation cards may come back.
    back: bool,
    /// 0 to try each position's moves in the usual order, else the seed of a
    /// [`SplitMix64`] that draws a random order for them.
    shuffle: u64,
    /// Whether only the moves preferred are tried (see [`Layout::moves`]): a search that
    /// can miss wins.
    prune: bool,
}

/// Puts `steps` in a random order drawn from `rng`, if there is one.
fn shuffle_steps(rng: &mut Option<SplitMix64>, steps: &mut [Step]) {
    if let Some(rng) = rng {
        for i in (1..steps.len()).rev() {
            steps.swap(i, rng.below(i as u64 + 1) as usize);
        }
    }
}

/// A depth-first search from a root, as its [`Pass`] says, that can stop and go on.
/// Each position is searched once: the rules that leave moves out depend on the position
/// alone, never on how it was reached (the moves a [`Context`] leaves out only reach
/// positions reached otherwise).
struct Dfs<'a> {
    layout: &'a Layout,
    pass: Pass,
    rng: Option<SplitMix64>,
    /// Nodes this search has counted.
    count: u64,
    seen: KeySet,
    /// The moves of every position on the stack, one frame's after another's (one list
    /// for the whole search: a list a frame cost an allocation each).
    steps: Vec<Step>,
    /// The safe moves played on reaching each position on the stack, one frame's after
    /// another's.
    forced: Vec<Step>,
    stack: Vec<Frame>,
    full: bool,
    /// The root was solved once its safe moves were played.
    won: bool,
}

impl<'a> Dfs<'a> {
    fn new(layout: &'a Layout, root: Node, budget: &Budget, pass: Pass) -> Dfs<'a> {
        let mut rng = (pass.shuffle != 0).then(|| SplitMix64::new(pass.shuffle));
        let mut forced: Vec<Step> = Vec::with_capacity(128);
        let mut root = root;
        let mut dfs = Dfs {
            layout,
            pass,
            rng: None,
            count: 0,
            seen: KeySet::new(budget.max_states),
            steps: Vec::new(),
            forced: Vec::new(),
            stack: Vec::new(),
            full: false,
            won: false,
        };
        let Some(uncovered) = layout.settle(&mut root, &mut forced) else {
            dfs.won = true;
            dfs.forced = forced;
            return dfs;
        };
        let scan = layout.scan(&root, uncovered);
        if root.stale {
            root.talon = layout.reachable(&root);
            root.stale = false;
        }
        dfs.seen.visit(layout.key(&root), 0);
        let mut steps: Vec<Step> = Vec::with_capacity(256);
        let context = Context::default();
        layout.moves(&root, &scan, &mut steps, pass.back, &context, pass.prune);
        shuffle_steps(&mut rng, &mut steps);
        let mut stack = Vec::with_capacity(64);
        stack.push(Frame {
            node: root,
            context,
            uncovered: scan.uncovered,
            begin: 0,
            next: 0,
            forced_end: forced.len() as u32,
        });
        dfs.rng = rng;
        dfs.steps = steps;
        dfs.forced = forced;
        dfs.stack = stack;
        dfs
    }

    /// Searches on until it ends (`Some`) or the meter reaches `until` nodes (`None`).
    fn run(&mut self, meter: &mut Meter, until: u64) -> Option<Phase> {
        if self.won {
            return Some(Phase::Won(std::mem::take(&mut self.forced)));
        }
        let layout = self.layout;
        let Pass { back, prune, .. } = self.pass;
        let steps = &mut self.steps;
        let forced = &mut self.forced;
        let stack = &mut self.stack;
        // the meter and this search count each node together, so one count tells when
        // either reaches its limit (the meter `until`, this search `pass.nodes`)
        let stop = (self.count)
            .saturating_add(until.saturating_sub(meter.nodes))
            .min(self.pass.nodes);
        loop {
            let Some(frame) = stack.last_mut() else {
                return Some(if self.full {
                    Phase::Full
                } else {
                    Phase::Exhausted
                });
            };
            let at = (frame.begin + frame.next) as usize;
            if at == steps.len() {
                steps.truncate(frame.begin as usize);
                stack.pop();
                if let Some(frame) = stack.last() {
                    forced.truncate(frame.forced_end as usize);
                }
                continue;
            }
            if self.count >= stop {
                if meter.nodes >= until {
                    return None;
                }
                return Some(Phase::Limit);
            }
            let step = steps[at];
            frame.next += 1;
            let mut node = frame.node;
            layout.play(&mut node, step);
            self.count += 1;
            if let Err(reason) = meter.tick(u64::MAX) {
                return Some(Phase::Stopped(reason));
            }
            let before = forced.len();
            let Some(settled_uncovered) = layout.settle_lazily(&mut node, forced) else {
                return Some(Phase::Won(line(stack, steps, forced)));
            };
            let settled = forced.len() != before;
            // the table's mark first: the rest of the context only for a position to search
            match self
                .seen
                .visit(layout.key(&node), Context::mark(layout, step, settled))
            {
                Some(true) => {}
                Some(false) => {
                    forced.truncate(before);
                    continue;
                }
                None => {
                    // The table is full: the search can no longer answer lost, and
                    // without the table it would walk in circles, its stack growing with
                    // every lap (gigabytes within a few hundred million nodes).
                    self.full = true;
                    return Some(Phase::Full);
                }
            }
            let parent = stack.last().expect("a frame");
            let context = Context::after(
                layout,
                &parent.node,
                parent.uncovered,
                &parent.context,
                step,
                &node,
                settled,
            );
            if node.stale {
                node.talon = layout.reachable(&node);
                node.stale = false;
            }
            let uncovered = settled_uncovered.unwrap_or_else(|| uncovered(&node));
            let scan = layout.scan(&node, uncovered);
            let begin = steps.len();
            layout.moves(&node, &scan, steps, back, &context, prune);
            shuffle_steps(&mut self.rng, &mut steps[begin..]);
            stack.push(Frame {
                node,
                context,
                uncovered: scan.uncovered,
                begin: begin as u32,
                next: 0,
                forced_end: forced.len() as u32,
            });
        }
    }
}

/// The line from the root to the position just reached: each frame's safe moves, then
/// the move tried from it; then the safe moves played on reaching the last position.
fn line(stack: &[Frame], steps: &[Step], forced: &[Step]) -> Vec<Step> {
    let mut line = Vec::with_capacity(forced.len() + stack.len());
    let mut from = 0;
    for frame in stack {
        line.extend_from_slice(&forced[from..frame.forced_end as usize]);
        line.push(steps[(frame.begin + frame.next) as usize - 1]);
        from = frame.forced_end as usize;
    }
    line.extend_from_slice(&forced[from..]);
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::klondike::is_red;

    fn replay(start: &Klondike, moves: &[Move]) -> Klondike {
        search::replay(start, moves, Klondike::legal_moves, Klondike::apply)
    }

    fn verdict(outcome: &Outcome<Move>) -> Option<bool> {
        match outcome {
            Outcome::Solved(_) => Some(true),
            Outcome::Unsolvable => Some(false),
            Outcome::Unknown(_) => None,
        }
    }

    fn budget(nodes: u64) -> Budget {
        Budget {
            max_nodes: nodes,
            ..Budget::default()
        }
    }

    #[test]
    fn the_talon_kept_with_a_position_is_the_one_within_reach() {
        let mut checked = 0;
        for seed in 0..30u64 {
            for draw in [1, 3] {
                let start = Klondike::from_seed(seed, draw).unwrap();
                let (layout, mut node) = Layout::new(&start, Rules::from(Pruning::Full)).unwrap();
                let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                let mut steps = Vec::new();
                for _ in 0..200 {
                    if node.stale {
                        node.talon = layout.reachable(&node);
                        node.stale = false;
                    }
                    let mut fresh = node;
                    layout.foundations(&mut fresh);
                    assert_eq!(fresh, node, "seed {seed} draw {draw}");
                    assert_eq!(
                        node.talon,
                        layout.reachable(&node),
                        "seed {seed} draw {draw}"
                    );
                    checked += 1;
                    steps.clear();
                    let scan = layout.scan(&node, uncovered(&node));
                    layout.moves(&node, &scan, &mut steps, true, &Context::default(), false);
                    if steps.is_empty() {
                        break;
                    }
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    node = layout.apply(&node, steps[(x % steps.len() as u64) as usize]);
                }
            }
        }
        assert!(checked > 1000, "only {checked} positions");
    }

    /// The next of a xorshift sequence in `x`, and from it a talon's live places (any of
    /// the 24).
    fn next_talon(x: &mut u64) -> u32 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        (*x as u32) & 0xff_ffff
    }

    #[test]
    fn the_talon_within_reach_is_what_draws_and_recycles_turn_up() {
        let start = Klondike::from_seed(11, 3).unwrap();
        let (layout, root) = Layout::new(&start, Rules::from(Pruning::Full)).unwrap();
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..5000 {
            let live = next_talon(&mut x);
            let n = live.count_ones();
            let mut node = root;
            node.live = live;
            node.waste = ((x >> 32) % (n as u64 + 1)) as u8;
            // turned by hand: the waste's top, then draws of three and recycles
            let cards: Vec<u64> = (0..24)
                .filter(|k| live & (1 << k) != 0)
                .map(|k| layout.talon_bit[k])
                .collect();
            let mut expected = 0u64;
            let mut length = node.waste as usize;
            for _ in 0..3 * 24 {
                if length > 0 {
                    expected |= cards[length - 1];
                }
                length = match length == cards.len() {
                    true => 0,
                    false => (length + 3).min(cards.len()),
                };
            }
            assert_eq!(layout.reachable(&node), expected, "live {live:x}");
        }
    }

    /// `root` with nothing in view on the tableau and every foundation `height` high (its
    /// foundations' sets worked out again).
    fn homes_at(layout: &Layout, root: &Node, height: u8) -> Node {
        let mut node = *root;
        node.visible = 0;
        node.surface = 0;
        let h = height as u16;
        node.homes = h | h << 4 | h << 8 | h << 12;
        layout.foundations(&mut node);
        node
    }

    /// The draw-3 rule on recycles, checked on talons: from a waste that is not pure the
    /// cards within reach without a recycle are the waste's top, every third card on from
    /// it and the last (`Layout::forward`, turned by hand here); every other card within
    /// reach is one that the talon left once its last card is taken still reaches (the
    /// step of the proof in docs/klondike-solver.md).
    #[test]
    fn the_cards_a_recycle_brings_are_within_reach_once_the_last_card_is_taken() {
        let start = Klondike::from_seed(11, 3).unwrap();
        let (layout, root) = Layout::new(&start, Rules::from(Pruning::Full)).unwrap();
        let mut x = 0x5851_f42d_4c95_7f2du64;
        let mut dropped = 0;
        for _ in 0..5000 {
            let live = next_talon(&mut x);
            let n = live.count_ones();
            let cards: Vec<u64> = (0..24)
                .filter(|k| live & (1 << k) != 0)
                .map(|k| layout.talon_bit[k])
                .collect();
            for w in 1..n {
                if w % 3 == 0 {
                    continue;
                }
                let mut node = root;
                node.live = live;
                node.waste = normal_waste(w, n, 3);
                // turned by hand: the waste's top, then draws of three to the end
                let mut expected = 0u64;
                let mut length = w as usize;
                loop {
                    expected |= cards[length - 1];
                    if length == cards.len() {
                        break;
                    }
                    length = (length + 3).min(cards.len());
                }
                let forward = layout.forward(&node);
                assert_eq!(forward, expected, "live {live:x} waste {w}");
                let reach = layout.reachable(&node);
                assert_eq!(forward & !reach, 0, "live {live:x} waste {w}");
                let last = *cards.last().unwrap();
                let mut moved = node;
                layout.take_from_talon(&mut moved, layout.card(last.trailing_zeros()));
                assert_eq!(moved.waste, 0, "the whole talon left in the waste: pure");
                let after = layout.reachable(&moved);
                assert_eq!(reach & !forward & !after, 0, "live {live:x} waste {w}");
                dropped += (reach & !forward).count_ones();
            }
        }
        assert!(dropped > 10_000, "{dropped}");
    }

    /// The rule in the moves listed: with the talon's last card safe at home and the waste
    /// not pure, the last card home is among them and no card a recycle alone brings
    /// within reach; without the rule, or with the last card not safe, those cards are.
    #[test]
    fn no_talon_card_comes_after_a_recycle_while_the_last_card_is_safe() {
        let mut seen = [0; 3];
        for seed in 0..40 {
            let start = Klondike::from_seed(seed, 3).unwrap();
            for rule in [true, false] {
                let rules = Rules {
                    talon_no_recycle: rule,
                    ..Rules::from(Pruning::Full)
                };
                let (layout, root) = Layout::new(&start, rules).unwrap();
                let last = layout.talon_bit[layout.talon_len as usize - 1];
                let card = layout.card(last.trailing_zeros());
                if rank(card) < 4 {
                    continue;
                }
                // every foundation at the card's rank less one: the card is next and safe;
                // at three less, nothing of its rank is next
                for (below, safe) in [(1, true), (3, false)] {
                    let mut node = homes_at(&layout, &root, rank(card) - below);
                    let n = layout.talon_len;
                    for w in (1..n).filter(|w| w % 3 != 0) {
                        node.waste = normal_waste(w, n, 3);
                        node.talon = layout.reachable(&node);
                        let recycled = node.talon & !layout.forward(&node) & node.next_home;
                        let mut steps = Vec::new();
                        let scan = layout.scan(&node, uncovered(&node));
                        layout.moves(&node, &scan, &mut steps, true, &Context::default(), false);
                        let taken: u64 = steps
                            .iter()
                            .filter_map(|step| match step {
                                Step::TalonHome(c) | Step::TalonDown(c) => Some(1 << bit_index(*c)),
                                _ => None,
                            })
                            .sum();
                        assert_eq!(taken & last, safe as u64 * last, "seed {seed} waste {w}");
                        if rule && safe {
                            let forward = layout.forward(&node);
                            assert_eq!(taken & !forward, 0, "seed {seed} waste {w}");
                            seen[0] += (recycled != 0) as usize;
                        } else {
                            assert_eq!(taken & recycled, recycled, "seed {seed} waste {w}");
                            seen[1 + rule as usize] += (recycled != 0) as usize;
                        }
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s > 5), "{seen:?}");
    }

    #[test]
    fn a_complete_search_stops_when_its_table_is_full() {
        // 770,157 in draw 3 is lost in about 7.8 million positions: with room for 10,000
        // the complete search stops as the table fills, long before its node budget
        let start = Klondike::from_seed(770_157, 3).unwrap();
        let budget = Budget {
            max_nodes: 5_000_000,
            max_states: 10_000,
            ..Budget::default()
        };
        let report = solve_complete(&start, &budget, Pruning::Full, &mut || false).unwrap();
        assert!(
            matches!(&report.outcome, Outcome::Unknown(why) if why == search::TABLE_FULL),
            "{:?}",
            report.outcome
        );
        assert!(report.nodes < 200_000, "{} nodes", report.nodes);
    }

    #[test]
    fn a_card_and_its_parent_type_lie_four_bits_apart() {
        for card in 0..52u8 {
            for parent in 0..52u8 {
                let fits = rank(card) + 1 == rank(parent) && is_red(card) != is_red(parent);
                let pair = |c: u8| bit_index(c) & !1;
                assert_eq!(fits, pair(card) + 4 == pair(parent), "{card} {parent}");
            }
        }
        let bits: std::collections::HashSet<u32> = (0..52u8).map(bit_index).collect();
        assert_eq!(bits.len(), 52);
        assert!(bits.iter().all(|&b| b < 52));
    }

    #[test]
    fn a_waste_of_a_multiple_of_three_reaches_what_an_empty_one_does() {
        let start = Klondike::from_seed(7, 3).unwrap();
        let (layout, root) = Layout::new(&start, Rules::from(Pruning::Full)).unwrap();
        for live in [0xff_ffffu32, 0xf0_f0f1, 0x12_3457, 0x80_0001, 0x1] {
            let n = live.count_ones();
            let mut empty = root;
            empty.live = live;
            empty.waste = 0;
            for w in 0..=n {
                let mut node = empty;
                node.waste = w as u8;
                assert_eq!(normal_waste(w, n, 3) == 0, w % 3 == 0 || w == n);
                if w % 3 == 0 || w == n {
                    let same = layout.reachable(&node) == layout.reachable(&empty);
                    assert!(same, "live {live:x} waste {w}");
                }
            }
        }
    }

    #[test]
    fn solutions_replay_to_a_solved_position() {
        let mut solved = 0;
        for seed in 0..40 {
            for draw in [1, 3] {
                let start = Klondike::from_seed(seed, draw).unwrap();
                let report = solve(&start, &budget(2_000_000), &mut || false).unwrap();
                if let Outcome::Solved(moves) = report.outcome {
                    assert!(
                        replay(&start, &moves).is_solved(),
                        "seed {seed} draw {draw}"
                    );
                    solved += 1;
                }
            }
        }
        assert!(solved > 50, "most deals are won, solved {solved}");
    }

    /// Draw-3 seed 824: the complete search in its usual order finds no win in 5,000,000
    /// nodes; the searches for wins restarted in random orders find one within 300,000.
    #[test]
    fn the_restarts_win_where_the_usual_order_does_not() {
        let start = Klondike::from_seed(824, 3).unwrap();
        let report = solve_complete(&start, &budget(5_000_000), Pruning::Full, &mut || false);
        assert!(matches!(report.unwrap().outcome, Outcome::Unknown(_)));
        let report = solve(&start, &budget(300_000), &mut || false).unwrap();
        let Outcome::Solved(moves) = report.outcome else {
            panic!("the restarts win within 300,000 nodes");
        };
        assert!(replay(&start, &moves).is_solved());
    }

    #[test]
    fn the_complete_search_keeps_the_wins_the_rules_once_lost() {
        // Won deals that forms of the rules of `Layout::keep`, or searching each position
        // once (draw-1 8,021 and 8,479), called lost (see there and
        // docs/klondike-solver.md). The quick phases win most of them first, so the
        // complete search alone must win them too.
        let deals = [
            (1656, 3),
            (1947, 3),
            (1097, 1),
            (2847, 1),
            (4513, 1),
            (8021, 1),
            (8479, 1),
        ];
        for (seed, draw) in deals {
            let start = Klondike::from_seed(seed, draw).unwrap();
            let searches = [
                solve(&start, &budget(5_000_000), &mut || false),
                solve_complete(&start, &budget(20_000_000), Pruning::Full, &mut || false),
            ];
            for report in searches {
                let Outcome::Solved(moves) = report.unwrap().outcome else {
                    panic!("seed {seed} draw {draw}: not won");
                };
                assert!(replay(&start, &moves).is_solved());
            }
        }
    }

    /// The step of the safe-move proof's draw-3 talon case, checked on talons: with `c` the
    /// talon's last card, the proof follows a winning line from the position `P*` with `c`
    /// home and the waste where it was. Its talon (one card shorter) reaches every card the
    /// longer one reaches but `c`. The move home that the search plays turns the whole talon
    /// through to `c`, so it reaches `P*` only when the waste is pure; from any other waste it
    /// reaches less than `P*` (the cards a draw of three from that waste turns up), which
    /// is how the rule without the condition lost wins.
    #[test]
    fn the_talon_last_card_home_from_a_pure_waste_reaches_the_proof_s_position() {
        let start = Klondike::from_seed(11, 3).unwrap();
        let (layout, root) = Layout::new(&start, Rules::from(Pruning::Full)).unwrap();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let (mut pure, mut impure_short) = (0, 0);
        for _ in 0..5000 {
            let live = next_talon(&mut x);
            let n = live.count_ones();
            if n == 0 {
                continue;
            }
            let k = 31 - live.leading_zeros();
            let c = layout.talon_bit[k as usize];
            for w in 0..=n {
                let mut node = root;
                node.live = live;
                node.waste = normal_waste(w, n, 3);
                // the proof's position: c out of the talon, the waste where it was
                let mut proof = node;
                proof.live = live & !(1 << k);
                proof.waste = normal_waste(w.min(n - 1), n - 1, 3);
                let reach_proof = layout.reachable(&proof);
                assert_eq!(
                    reach_proof & layout.reachable(&node),
                    layout.reachable(&node) & !c,
                    "live {live:x} waste {w}"
                );
                // the search's move
                let mut moved = node;
                layout.take_from_talon(&mut moved, layout.card(c.trailing_zeros()));
                let reach_moved = layout.reachable(&moved);
                assert_eq!(reach_moved & !reach_proof, 0, "live {live:x} waste {w}");
                if node.waste == 0 {
                    assert_eq!(
                        moved,
                        Node {
                            stale: true,
                            ..proof
                        },
                        "live {live:x} waste {w}"
                    );
                    pure += 1;
                } else if reach_moved != reach_proof {
                    impure_short += 1;
                }
            }
        }
        assert!(pure > 1000 && impure_short > 1000, "{pure} {impure_short}");
    }

    #[test]
    fn the_talon_last_card_goes_home_alone_only_when_safe_from_a_pure_waste() {
        let start = Klondike::from_seed(11, 3).unwrap();
        for rule in [true, false] {
            let rules = Rules {
                talon_last_home: rule,
                ..Rules::from(Pruning::Full)
            };
            let (layout, root) = Layout::new(&start, rules).unwrap();
            // the last of the talon's first k + 1 cards, one of rank 4 or more
            let k = (0..24)
                .rev()
                .find(|&k| rank(layout.card(layout.talon_bit[k].trailing_zeros())) >= 4)
                .unwrap();
            let card = layout.card(layout.talon_bit[k].trailing_zeros());
            let n = k as u32 + 1;
            // every foundation at the card's rank less one: the card is next and safe; at
            // three less, nothing of its rank is next
            for (below, safe) in [(1, true), (3, false)] {
                let mut node = homes_at(&layout, &root, rank(card) - below);
                node.live = (1 << n) - 1;
                for w in 0..=n {
                    node.waste = normal_waste(w, n, 3);
                    let expected =
                        (rule && safe && (w % 3 == 0 || w == n)).then_some(Step::TalonHome(card));
                    assert_eq!(layout.forced(&node, 0), expected, "waste {w} rule {rule}");
                }
            }
        }
    }

    #[test]
    fn the_deals_the_talon_rule_without_its_condition_lost_are_won() {
        // Draw-3 deals that forcing the talon's last card home at any waste called lost.
        for seed in [36_408, 39_230, 75_069, 95_401] {
            let start = Klondike::from_seed(seed, 3).unwrap();
            let report = solve(&start, &budget(2_000_000), &mut || false).unwrap();
            let Outcome::Solved(moves) = report.outcome else {
                panic!("seed {seed}: not won");
            };
            assert!(replay(&start, &moves).is_solved(), "seed {seed}");
        }
    }

    #[test]
    fn no_rule_changes_a_verdict() {
        // The fast version of examples/klondike_rule_check.rs (100,000 deals a variant):
        // each rule off in turn, the complete search alone (the other searches find most
        // wins first) and the whole solver.
        let all = Rules::from(Pruning::Full);
        let without = [
            Rules { safe: false, ..all },
            Rules {
                talon_used_next: false,
                ..all
            },
            Rules {
                talon_last_home: false,
                ..all
            },
            Rules {
                talon_no_recycle: false,
                ..all
            },
        ];
        let mut decided = [0; 4];
        for seed in 100..160 {
            for draw in [1, 3] {
                let start = Klondike::from_seed(seed, draw).unwrap();
                let with = verdict(
                    &solve_rules(&start, &budget(1_000_000), all, &mut || false)
                        .unwrap()
                        .outcome,
                );
                let complete = |rules| {
                    let report = run(
                        &start,
                        &budget(1_000_000),
                        rules,
                        &[Part::Complete],
                        false,
                        &mut || false,
                    );
                    verdict(&report.unwrap().outcome)
                };
                let with_complete = complete(all);
                for (k, rules) in without.into_iter().enumerate() {
                    let other = [
                        verdict(
                            &solve_rules(&start, &budget(2_000_000), rules, &mut || false)
                                .unwrap()
                                .outcome,
                        ),
                        complete(rules),
                    ];
                    for (a, b) in [(with, other[0]), (with_complete, other[1])] {
                        if let (Some(a), Some(b)) = (a, b) {
                            assert_eq!(a, b, "seed {seed} draw {draw} rules {rules:?}");
                            decided[k] += 1;
                        }
                    }
                }
            }
        }
        assert!(decided.iter().all(|&d| d > 180), "decided {decided:?}");
    }

    #[test]
    fn mid_game_positions_agree_with_the_search_over_real_positions() {
        let mut compared = 0;
        for seed in 200..260 {
            for draw in [1, 3] {
                // a few moves in: the first legal move that is not a draw, five times over,
                // drawing when there is none
                let mut start = Klondike::from_seed(seed, draw).unwrap();
                for _ in 0..5 {
                    let moves = start.legal_moves();
                    let Some(&mv) = moves
                        .iter()
                        .find(|m| !matches!(m, Move::Draw))
                        .or(moves.first())
                    else {
                        break;
                    };
                    start.apply(mv);
                }
                let Ok(sets) = solve(&start, &budget(1_000_000), &mut || false) else {
                    continue;
                };
                if let Outcome::Solved(moves) = &sets.outcome {
                    assert!(replay(&start, moves).is_solved(), "seed {seed} draw {draw}");
                }
                let real = crate::klondike::solver::solve_concrete(
                    &start,
                    &budget(1_000_000),
                    &mut || false,
                );
                if let (Some(a), Some(b)) = (verdict(&sets.outcome), verdict(&real.outcome)) {
                    assert_eq!(a, b, "seed {seed} draw {draw}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 80, "compared {compared}");
    }
}
