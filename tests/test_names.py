"""Names that others read show what they are: a tournament's name, or a player's, made of
controls, bidirectional overrides and isolates, zero-width characters or letters drawn
blank is refused with the reason (and nothing made); names in any script, with accents
and right-to-left letters, still pass."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, func, select

from patience.players import AccountError, Accounts, User
from patience.players.accounts import check_name
from patience.server import Settings, create_app
from patience.store.db import make_engine, migrate, tournaments
from patience.store.games import GameStore
from patience.tournaments import TournamentError, Tournaments
from test_tournaments import stock

PASSWORD = "correct horse battery"

INVISIBLE = [
    "\u202e" * 32 + "\u200b" * 32,  # 64 bidi overrides and zero-width spaces: shows nothing
    "Spring \u202eOpen",  # reverses what follows
    "\u2066Final\u2069",  # an isolate
    "Open\u200d",  # a zero-width joiner
    "\u2060Cup",  # a word joiner
    "\ufeffCup",  # a byte-order mark
    "Cup\u00ad",  # a soft hyphen
    "Cup\u200e",  # a left-to-right mark
    "\x1b[31mRed",  # a terminal escape
    "Two\nlines",
    "Tab\there",
    "Line\u2028break",
    "\u3164\u3164\u3164",  # Hangul fillers: letters drawn blank
    "\u2800\u2800",  # Braille blanks
    "\U000e0041\U000e0042",  # tag characters
    "\ue000Private",
    "x\u0301\u0302\u0303\u0304 Zalgo",  # marks piled on one letter
    "\u0301\u0302",  # marks on nothing
    "   ",
]

VISIBLE = {
    "Printemps à Paris": "Printemps à Paris",
    "Cafe\u0301 Cup": "Café Cup",  # composed
    "春の大会": "春の大会",
    "Кубок": "Кубок",
    "بطولة الربيع": "بطولة الربيع",  # right-to-left letters need no control character
    "Tiếng Việt": "Tiếng Việt",  # two marks on a letter
    "  Spring\u00a0\u00a0Open  ": "Spring Open",  # any spaces, one between words
}


@pytest.fixture
def made(tmp_path: Path) -> Iterator[tuple[Engine, Tournaments, User]]:
    engine = make_engine(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    migrate(engine)
    stock(engine, len(VISIBLE))
    operator = Accounts(engine).create("Operator", PASSWORD, operator=True)
    yield engine, Tournaments(GameStore(engine)), operator
    engine.dispose()


def _create(tournaments_: Tournaments, operator: User, name: str) -> str:
    made = tournaments_.create(
        operator,
        name=name,
        game="golf",
        variant={"wrap": True},
        policy="shared",
        tier=None,
        opens_at=time.time() - 1,
        closes_at=time.time() + 600,
    )
    return str(made["name"])


@pytest.mark.parametrize("name", INVISIBLE)
def test_a_tournament_name_that_hides_or_reorders_text_is_refused(
    made: tuple[Engine, Tournaments, User], name: str
) -> None:
    engine, tournaments_, operator = made
    with pytest.raises(TournamentError, match="a tournament's name has") as refused:
        _create(tournaments_, operator, name)
    assert "\\u" not in str(refused.value)  # the reason names the character by its code
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(tournaments)).scalar() == 0


def test_names_in_any_script_pass_normalised(made: tuple[Engine, Tournaments, User]) -> None:
    _, tournaments_, operator = made
    assert {name: _create(tournaments_, operator, name) for name in VISIBLE} == VISIBLE


def test_the_api_refuses_an_invisible_tournament_name_with_400(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'games.sqlite3'}", catalog_refill=0)
    engine = make_engine(settings.database_url)
    migrate(engine)
    Accounts(engine).create("Operator", PASSWORD, operator=True)
    engine.dispose()
    with TestClient(create_app(settings)) as client:
        signed = client.post("/api/accounts/login", json={"name": "Operator", "password": PASSWORD})
        assert signed.status_code == 200, signed.text
        now = time.time()
        answer = client.post(
            "/api/tournaments",
            json={
                "name": INVISIBLE[0],
                "game": "golf",
                "variant": {"wrap": True},
                "policy": "shared",
                "opens_at": now,
                "closes_at": now + 600,
            },
            headers={"X-CSRF-Token": signed.json()["csrf"]},
        )
        assert answer.status_code == 400, answer.text
        assert "U+202E at 1" in answer.json()["detail"]


@pytest.mark.parametrize("name", ["\u3164\u3164", "\uffa0\uffa0", "Ada\u202e", "A\u200bda"])
def test_a_player_name_that_shows_nothing_is_refused(name: str) -> None:
    with pytest.raises(AccountError):
        check_name(name)
