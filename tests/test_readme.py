"""The README's examples, run as written: every command of its ``sh`` and ``console``
blocks that needs no running server or cluster, each expected to succeed, and a
``console`` block's output compared with what is printed.

The "Play" section's commands run in ``make test``; the catalog and tournament sections
(certifying and rating deals takes a while) are ``slow``. A command with ``ID`` in it is
given the id of the tournament the README made; the ones that need a server
(``http://``), a Dask cluster (``tcp://``) or ``make`` are listed but not run here.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BIN = Path(sys.executable).parent
PASSWORD = "a password long enough\n"


@dataclass(frozen=True)
class Example:
    """One command of the README: the section it is in, and the output it shows, if any."""

    section: str
    command: str
    output: str | None = None

    @property
    def needs_more(self) -> str | None:
        """Why this command is not run here, or None."""
        if self.command.startswith("make "):
            return "make"
        if "http://" in self.command or self.command.startswith("patience serve"):
            return "a running server"
        if "tcp://" in self.command:
            return "a Dask cluster"
        return None


def examples(text: str) -> list[Example]:
    """The commands of ``text``'s ``sh`` and ``console`` blocks, in order."""
    found: list[Example] = []
    section = ""
    block: str | None = None
    lines: list[str] = []
    for line in text.splitlines():
        if block is None:
            if line.startswith("## "):
                section = line[3:].strip()
            elif line.startswith("```"):
                block, lines = line[3:].strip(), []
            continue
        if line.startswith("```"):
            found.extend(_commands(section, block, lines))
            block = None
            continue
        lines.append(line)
    return found


def _commands(section: str, kind: str, lines: list[str]) -> list[Example]:
    if kind == "sh":
        return [Example(section, line.strip()) for line in lines if line.strip()]
    if kind != "console":
        return []
    found: list[Example] = []
    for line in lines:
        if line.startswith("$ "):
            found.append(Example(section, line[2:].strip(), ""))
        elif found:
            last = found[-1]
            found[-1] = Example(section, last.command, f"{last.output}{line}\n")
    return found


def _environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PATIENCE_")}
    return env | {"PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}"}


def run_example(example: Example, folder: Path, ids: dict[str, str]) -> str:
    """Runs ``example`` in ``folder`` as a shell would (its pipes and quotes as written),
    with ``ids`` put in for their placeholders; fails unless it succeeds and prints what
    the README shows. Returns its output."""
    command = example.command
    for name, value in ids.items():
        command = re.sub(rf"\b{name}\b", value, command)
    stdin = ""
    if " play " in f" {command} ":
        stdin = "q\n"  # leave at once
    elif "users create" in command:
        stdin = PASSWORD
    result = subprocess.run(
        ["bash", "-c", command],
        cwd=folder,
        env=_environment(),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert result.returncode == 0, (command, result.stdout[-2000:], result.stderr[-2000:])
    assert "Traceback" not in result.stderr, (command, result.stderr)
    if example.output is not None:
        assert result.stdout == example.output, command
    return result.stdout


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """An empty folder to run the examples in, where ``docs/`` is the repository's."""
    (tmp_path / "docs").symlink_to(ROOT / "docs")
    return tmp_path


def test_the_readme_has_examples_of_every_kind() -> None:
    found = examples(README.read_text())
    sections = {example.section for example in found}
    assert {"Play", "Run a tournament", "Operate"} <= sections
    assert any(example.output for example in found)  # a console block with its output
    skipped = {example.command: example.needs_more for example in found if example.needs_more}
    assert "make serve" in next(iter(skipped))  # the two commands first
    assert set(skipped.values()) == {"make", "a running server", "a Dask cluster"}


def test_the_readme_play_examples_run_as_written(folder: Path) -> None:
    played = [e for e in examples(README.read_text()) if e.section == "Play" and not e.needs_more]
    assert len(played) >= 6
    for example in played:
        run_example(example, folder, {})
    record = json.loads((folder / "game.json").read_text())  # written by `play --record`
    assert record["game"] == "klondike"
    assert record["variant"] == {"draw": 3}


@pytest.mark.slow
def test_the_readme_tournament_and_operate_examples_run_as_written(folder: Path) -> None:
    """In a folder of their own, in order, as an operator would type them: the catalog, the
    operator, a tournament and its standings and close, then the catalog's report, export,
    pick and rating. No database is set, so they share ./patience.sqlite3 there."""
    found = examples(README.read_text())
    steps = [e for e in found if e.section in ("Run a tournament", "Operate") and not e.needs_more]
    ids: dict[str, str] = {}
    for example in steps:
        output = run_example(example, folder, ids)
        if example.command.startswith("patience tournament create"):
            listed = run_example(Example("", "patience tournament list --json"), folder, ids)
            (made,) = json.loads(listed)["tournaments"]
            ids["ID"] = made["id"]
            assert made["id"] in output
    assert "ID" in ids
    assert (folder / "catalog.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (folder / "patience.sqlite3").exists()
