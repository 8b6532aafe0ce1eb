"""The repository speaks for itself: no file names a path outside it or a tracker's issue
number, and every link between its documents leads to a file that is there."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Written in pieces, so that this file does not name what it looks for.
OUTSIDE = re.compile(
    "|".join([r"\.\./" + "shared", "/" + "work/", "RULES" + r"\.md", "ARCHITECTURE" + r"\.md"])
)
ISSUE = re.compile(r"\bissues? #?\d+\b|\breports? \d+\b|#\d+ of the tracker", re.IGNORECASE)
LINK = re.compile(r"\]\(([^)\s]+)\)")


def tracked_text_files() -> list[Path]:
    """Every file git tracks here that reads as UTF-8 text."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    files = []
    for name in filter(None, listed.split("\0")):
        path = ROOT / name
        try:
            path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        files.append(path)
    return files


def documents() -> list[Path]:
    """The Markdown documents: the README and its neighbours, docs/ and benchmarks/."""
    return (
        sorted(ROOT.glob("*.md"))
        + sorted((ROOT / "docs").glob("*.md"))
        + [ROOT / "benchmarks" / "README.md"]
    )


def test_no_file_names_a_path_outside_the_repository() -> None:
    files = tracked_text_files()
    assert len(files) > 100
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if OUTSIDE.search(line)
    ]
    assert not found, "\n".join(found)


def test_no_file_names_a_tracker_issue() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in tracked_text_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if ISSUE.search(line)
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("document", documents(), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_link_leads_somewhere(document: Path) -> None:
    """A link to another file of the repository (an image included) names one that exists;
    links to the web and within the page are left alone."""
    broken = []
    for target in LINK.findall(document.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (document.parent / target.split("#")[0]).resolve()
        if not path.exists():
            broken.append(target)
    assert not broken, broken
