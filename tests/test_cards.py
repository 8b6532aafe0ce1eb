"""Cards, deals and the seeded shuffle, checked against the native core."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from patience import _core
from patience.cards import (
    Card,
    Rank,
    SplitMix64,
    Suit,
    fnv1a64,
    format_cards,
    ordered_deck,
    parse_deal,
    shuffled_deck,
)
from patience.errors import InvalidCardError, InvalidDealError

VECTORS = Path(__file__).parent / "data" / "shuffle_v1.txt"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("Th", "Th"),
        ("10h", "Th"),
        ("10H", "Th"),
        ("th", "Th"),
        ("TH", "Th"),
        ("as", "As"),
        (" Kc ", "Kc"),
        ("2d", "2d"),
    ],
)
def test_card_input_forms_are_canonical(text: str, canonical: str) -> None:
    assert str(Card.parse(text)) == canonical


@pytest.mark.parametrize("text", ["", "1h", "11h", "Tx", "T", "h", "100h", "Ahh", "0s", "T h"])
def test_bad_cards_are_refused(text: str) -> None:
    with pytest.raises(InvalidCardError, match="is not a card"):
        Card.parse(text)


@given(st.integers(min_value=0, max_value=51))
def test_card_text_round_trips(index: int) -> None:
    card = Card.from_index(index)
    assert Card.parse(str(card)) is card
    assert Card.parse(str(card).lower()) is card
    assert Card(card.rank, card.suit) is card
    assert card.index == card.suit.index * 13 + card.rank - 1


def test_colours_and_symbols() -> None:
    assert [suit.is_red for suit in Suit] == [False, True, True, False]
    assert Card(Rank.TEN, Suit.HEARTS).pretty == "10♥"
    assert Card(Rank.QUEEN, Suit.SPADES).pretty == "Q♠"


def test_cards_are_immutable() -> None:
    with pytest.raises(AttributeError):
        Card.parse("Ah").rank = Rank.TWO  # type: ignore[misc]


def test_deal_validation_reasons() -> None:
    deck = [str(card) for card in ordered_deck()]
    assert len(parse_deal(deck)) == 52
    with pytest.raises(InvalidDealError, match="52 cards, this one has 51"):
        parse_deal(deck[:-1])
    with pytest.raises(InvalidDealError, match="once; found Kc twice, Ks never"):
        parse_deal([*deck[:-1], "Kc"])
    with pytest.raises(InvalidDealError, match="card 3: 'Zz' is not a card"):
        parse_deal(["Ac", "2c", "Zz", *deck[3:]])
    two = deck * 2
    assert len(parse_deal(two, decks=2)) == 104
    with pytest.raises(InvalidDealError, match="twice; found Ac 3 times, Ks once"):
        parse_deal(["Ac", *two[1:-1], "Ac"], decks=2)


def test_fnv_and_splitmix_match_their_published_values() -> None:
    assert fnv1a64(b"") == 0xCBF29CE484222325
    assert fnv1a64(b"a") == 0xAF63DC4C8601EC8C
    assert fnv1a64(b"foobar") == 0x85944171F73967E8
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


def _vectors() -> list[tuple[str, int, int, str]]:
    rows = []
    for line in VECTORS.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        head, cards = line.split(": ")
        key, seed, decks = head.split()
        rows.append((key, int(seed), int(decks), cards))
    return rows


@pytest.mark.parametrize(("key", "seed", "decks", "cards"), _vectors())
def test_python_shuffle_matches_the_vectors(key: str, seed: int, decks: int, cards: str) -> None:
    assert format_cards(shuffled_deck(key, seed, decks=decks)) == cards


@pytest.mark.parametrize(
    ("key", "decks"), [("klondike", 1), ("golf", 1), ("kansas", 1), ("expert", 2)]
)
def test_native_and_python_shuffles_deal_the_same_cards(key: str, decks: int) -> None:
    for seed in [*range(300), 2**32, 2**63 + 5, 2**64 - 1]:
        native = [Card.from_index(index) for index in _core.seeded_deck(key, seed, decks=decks)]
        assert native == shuffled_deck(key, seed, decks=decks), (key, seed)


def test_shuffle_refuses_bad_seeds_and_versions() -> None:
    with pytest.raises(InvalidDealError, match="seed"):
        shuffled_deck("klondike", -1)
    with pytest.raises(InvalidDealError, match="seed"):
        shuffled_deck("klondike", 2**64)
    with pytest.raises(InvalidDealError, match="unknown shuffle version 2"):
        shuffled_deck("klondike", 1, version=2)
    with pytest.raises(ValueError, match="unknown shuffle version 2"):
        _core.seeded_deck("klondike", 1, version=2)
    with pytest.raises(OverflowError):
        _core.seeded_deck("klondike", -1)


def test_game_name_changes_the_deal() -> None:
    assert shuffled_deck("klondike", 5) != shuffled_deck("golf", 5)
    assert shuffled_deck("klondike", 5) != shuffled_deck("klondike", 6)


def test_shuffle_is_roughly_uniform() -> None:
    # Where the Ace of clubs lands over 5,200 seeds: each of 52 places about 100 times.
    # A broken shuffle (no swap, off-by-one bound) piles it up in few places.
    counts = [0] * 52
    for seed in range(5200):
        counts[shuffled_deck("klondike", seed).index(Card.parse("Ac"))] += 1
    assert min(counts) > 55
    assert max(counts) < 150
