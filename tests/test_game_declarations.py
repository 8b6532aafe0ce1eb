"""A game is its module, its Rust folder and a registry line: everything else the platform
knows of it, the game declares (docs/adding-a-game.md). These tests hold the rest of the
code to that (no game named outside the games package) and every declaration to what its
readers need (plain JSON for the client, words for every variant, budgets that make
sense)."""

from __future__ import annotations

import ast
import io
import json
import random
import re
import tokenize
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from patience.games import GAMES, Game
from patience.games.layout import Row
from patience.rating import DIFFICULTIES
from patience.server import Settings, create_app
from patience.store.db import migrate_url

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "patience"
STATIC = PACKAGE / "server" / "static"

# Every game's record name and the name players see, as words ("Solitaire Expert").
NAMES = re.compile(
    r"\b("
    + "|".join(re.escape(text) for cls in GAMES.values() for text in {cls.name, cls.title})
    + r")\b",
    re.IGNORECASE,
)


def _difficulty_line(line: str, word: str) -> bool:
    """Whether ``line`` says ``word`` as a difficulty (one that shares a game's name): it
    names another difficulty, or the word difficulty, or that difficulty's tiers."""
    if word.lower() not in DIFFICULTIES:
        return False
    low, high = DIFFICULTIES[word.lower()]
    others = [name for name in DIFFICULTIES if name != word.lower()]
    said = line.lower()
    return (
        any(re.search(rf"\b{name}\b", said) for name in others)
        or "difficult" in said
        or f"{low}-{high}" in said
        or f"{low}, {high}" in said
    )


def _named(line: str) -> list[str]:
    """The game names ``line`` says, but for a difficulty said as one."""
    return [
        match.group(0)
        for match in NAMES.finditer(line)
        if not _difficulty_line(line, match.group(0))
    ]


def _docstring_lines(tree: ast.Module) -> set[int]:
    """The lines of every docstring (a module's, class's, function's, or an attribute's
    string after it): prose and doctests, which may use a game as their example."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def test_the_client_names_no_game() -> None:
    """The browser client reads every game from ``/api/games``: no game's name appears in
    its scripts, styles or pages (comments included)."""
    found = []
    files = [path for path in sorted(STATIC.iterdir()) if path.is_file()]
    assert any(path.suffix == ".js" for path in files)
    for path in files:
        if path.suffix not in (".js", ".css", ".html", ".svg"):
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            found += [f"{path.name}:{number}: {name}" for name in _named(line)]
    assert not found, found


def test_no_module_outside_the_games_names_a_game() -> None:
    """Outside the games package, the code (names, strings, comments) names no game: it
    reads what it needs from the registry. Docstrings may use a game as their example."""
    found = []
    modules = [
        path
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.relative_to(PACKAGE).parts[0] != "games"
    ]
    assert len(modules) > 40
    for path in modules:
        source = path.read_text()
        docs = _docstring_lines(ast.parse(source))
        lines = source.splitlines()
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.start[0] in docs or token.type not in (
                tokenize.NAME,
                tokenize.STRING,
                tokenize.COMMENT,
                getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING),
            ):
                continue
            line = lines[token.start[0] - 1]
            named = [name for name in _named(line) if NAMES.search(token.string)]
            where = path.relative_to(PACKAGE)
            found += [f"{where}:{token.start[0]}: {name}" for name in named]
    assert not found, sorted(set(found))


RUST = PACKAGE.parent.parent / "rust"
GLUE = RUST / "patience-py" / "src"
REGISTRY = re.compile(r"// registry: begin\n(.*?)\n\s*// registry: end", re.DOTALL)


def test_the_glue_names_no_game_but_in_its_registry() -> None:
    """The native glue (``rust/patience-py``) is generic: each game's position crosses by
    the core's plain parts, implemented in the game's own folder. Its registry macro names
    each game of ``patience.games.GAMES`` on one line, and nothing else in the crate (code,
    strings or comments) names a game, so a game's diff touches only that line here."""
    sources = sorted(GLUE.rglob("*.rs"))
    assert GLUE / "lib.rs" in sources
    found = []
    registries = []
    for path in sources:
        text = path.read_text()
        registries += REGISTRY.findall(text)
        text = REGISTRY.sub("", text)
        for number, line in enumerate(text.splitlines(), start=1):
            found += [f"{path.name}:{number}: {name}" for name in _named(line)]
    assert not found, found
    assert len(registries) == 1
    lines = [line.strip() for line in registries[0].splitlines() if line.strip()]
    games = [re.fullmatch(r"patience_core::(\w+)::\w+,", line) for line in lines]
    assert all(games), lines
    assert sorted(match.group(1) for match in games if match) == sorted(GAMES)


def test_the_core_s_game_traits_name_no_game_in_code() -> None:
    """The core's traits every game implements (``game.rs``) name no game but in prose:
    each game implements them in its own folder (``rust/patience-core/src/<game>/``)."""
    path = RUST / "patience-core" / "src" / "game.rs"
    found = [
        f"game.rs:{number}: {name}"
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if not line.strip().startswith("//")
        for name in _named(line)
    ]
    assert not found, found
    for name in GAMES:
        assert (RUST / "patience-core" / "src" / name / "native.rs").is_file(), name


def test_the_check_finds_a_game_where_one_is_named() -> None:
    """The checks above see what they look for (and let a difficulty be)."""
    assert _named('if (view.game === "golf") return;') == ["golf"]
    assert _named("// Solitaire Expert's piles fold") == ["Solitaire Expert"]
    assert _named('const NAMES = { easy: "Easy", expert: "Expert" };') == []
    assert _named('value="expert"> Expert</label>') == ["expert", "Expert"]


def _reachable_moves(name: str, wanted: set[str]) -> set[str]:
    """Which of ``wanted`` some position of ``name`` offers, over random walks of seeded
    deals (deterministic: the walks are seeded)."""
    cls = GAMES[name]
    rng = random.Random(7)
    found: set[str] = set()
    for seed in range(60):
        game = cls.from_seed(seed)
        for _ in range(120):
            legal = [str(move) for move in game.legal_moves()]
            found |= wanted & set(legal)
            if found == wanted or not legal:
                break
            game.play(rng.choice(legal))
        if found == wanted:
            break
    return found


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_s_move_example_is_its_own_moves(name: str) -> None:
    """The move box's placeholder is the game's: a few moves of its notation, each legal in
    some position of the game (so no game shows another's example), short enough to show."""
    example = GAMES[name].layout["words"]["move_example"]
    moves = example.split(", ")
    assert len(moves) >= 2, example
    assert len(example) <= 16, example
    assert _reachable_moves(name, set(moves)) == set(moves), example


def test_the_move_examples_differ_where_the_notations_do() -> None:
    """At least the games whose moves differ in kind show different examples."""
    examples = {cls.layout["words"]["move_example"] for cls in GAMES.values()}
    assert len(examples) > 1, examples


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_s_layout_is_plain_json_and_complete(name: str) -> None:
    """What a game declares for the client is JSON as it stands, lays out one tableau,
    draws only kinds of pile the client knows from fields its observation has, and words
    every value of every variant option."""
    cls: type[Game] = GAMES[name]
    layout = cls.layout
    json.dumps(layout, allow_nan=False)  # raises for anything that is not plain JSON
    rows = [row["name"] for row in layout["rows"]]
    assert rows.count("tableau") == 1
    kinds = {pile["kind"] for row in layout["rows"] for pile in row.get("piles", [])}
    assert kinds <= {"stock", "waste", "foundation", "reserve", "cell", "spacer"}
    observation = cls.from_seed(1).observation()
    for row in layout["rows"]:
        for pile in row.get("piles", []):
            if "field" in pile:
                assert pile["field"] in observation, (name, pile)
    if layout["counter"] is not None:
        assert layout["counter"]["field"] in observation
    words = {option["name"]: option for option in layout["words"]["options"]}
    assert set(words) == {option.name for option in cls.options}
    for option in cls.options:
        said = [value["value"] for value in words[option.name]["values"]]
        assert said == list(option.values)
    assert layout["words"]["rules"]
    assert set(layout["words"]["bonus_lines"]) <= set(cls.score_order)
    assert layout["words"]["one_line"]
    assert layout["design"]["up"] > 0
    # the cards are sized for the longest column, the fans spread for the usual longest
    assert layout["longest"]["up"] >= layout["design"]["up"]
    assert layout["longest"]["down"] >= layout["design"]["down"]
    if "narrow" in layout:
        assert 0 < layout["narrow"]["across"] < layout["across"]
    assert layout["across"] > 0
    if "upright" in layout:
        # a phone held upright rearranges the same piles (and one tableau), no fewer cards
        # across than the columns need
        upright = layout["upright"]
        assert [row["name"] for row in upright["rows"]].count("tableau") == 1

        def piles(rows: list[Row]) -> list[str]:
            found = [
                json.dumps(pile, sort_keys=True) for row in rows for pile in row.get("piles", [])
            ]
            return sorted(pile for pile in found if '"spacer"' not in pile)

        assert piles(upright["rows"]) == piles(layout["rows"])
        assert 0 < upright["across"] <= layout["across"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_s_budgets_and_players_make_sense(name: str) -> None:
    cls = GAMES[name]
    assert cls.budgets.solve_states > 0
    assert cls.budgets.catalog_nodes > 0
    assert cls.budgets.certify_try_seconds is None or cls.budgets.certify_try_seconds > 0
    assert all(count > 0 for count in cls.playouts.values())
    assert cls.terminal_help.endswith("\n")
    assert cls.variant_text(cls.variants()[-1]).startswith(cls.title)


def test_the_server_sends_each_game_s_layout(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    migrate_url(url)
    settings = Settings(database_url=url, catalog_refill=0)
    with TestClient(create_app(settings)) as client:
        served = {game["name"]: game for game in client.get("/api/games").json()}
    assert set(served) == set(GAMES)
    for name, cls in GAMES.items():
        assert served[name]["layout"] == json.loads(json.dumps(cls.layout))
