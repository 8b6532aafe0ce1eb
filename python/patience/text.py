"""Names that other people read show what they are: :func:`visible_name`.

A name shown in standings and lists (a tournament's; players' names have a stricter rule,
:func:`patience.players.accounts.check_name`) could otherwise hold characters that show
nothing or change how the text around them reads: controls (a newline, an escape), the
bidirectional embeddings, overrides and isolates (U+202A to U+202E, U+2066 to U+2069: a
name that reverses the text after it), the zero-width space, joiners and word joiner,
letters drawn blank (the Hangul fillers, the Braille blank) and pile-ups of combining
marks that draw over the lines around them. A name of 64 bidi-override and zero-width
characters was accepted, and showed as nothing. Such characters are refused with the
reason and the position, not stripped: the operator sees what was wrong and writes the
name again, and what is published is what they wrote.

>>> visible_name("  Spring   Open ")
'Spring Open'
>>> visible_name("\\u202eNepO")
Traceback (most recent call last):
...
ValueError: a name has no control, direction-changing or invisible characters: U+202E at 1
"""

from __future__ import annotations

import unicodedata

__all__ = ["MAX_MARKS", "visible_name"]

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
"""Controls, format characters (the bidirectional controls, zero-width characters, soft
hyphen, tags), private use, surrogates, unassigned code points, line and paragraph
separators."""

BLANK_LETTERS = frozenset("\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
"""Characters that Unicode counts as letters, marks or symbols but that fonts draw as
nothing: the Hangul fillers, the Khmer inherent vowels, the Braille blank."""

MAX_MARKS = 3
"""Combining marks one character may carry (Vietnamese needs two)."""


def visible_name(text: str, *, what: str = "a name") -> str:
    """``text`` as a name to show: Unicode normalised (NFC), every kind of space a plain
    one, runs of them one, none at either end; or ValueError, with the reason naming
    ``what`` and the first offending character's code and position (from 1), when it holds
    a character that shows nothing or reorders the text, or shows nothing at all.

    >>> visible_name("Caf\\u0065\\u0301\\u00a0Cup")
    'Café Cup'
    >>> visible_name("\\u200b\\u200b", what="a title")
    Traceback (most recent call last):
    ...
    ValueError: a title has no control, direction-changing or invisible characters: U+200B at 1
    >>> visible_name("x\\u0301\\u0302\\u0303\\u0304")
    Traceback (most recent call last):
    ...
    ValueError: a name has at most 3 combining marks on a character: U+0304 at 5
    """
    text = unicodedata.normalize("NFC", text)
    marks = 0
    for position, char in enumerate(text, start=1):
        category = unicodedata.category(char)
        if category in REFUSED_CATEGORIES or char in BLANK_LETTERS:
            raise ValueError(
                f"{what} has no control, direction-changing or invisible characters: "
                f"U+{ord(char):04X} at {position}"
            )
        marks = marks + 1 if category.startswith("M") else 0
        if marks > MAX_MARKS:
            raise ValueError(
                f"{what} has at most {MAX_MARKS} combining marks on a character: "
                f"U+{ord(char):04X} at {position}"
            )
    name = " ".join(
        "".join(" " if unicodedata.category(char) == "Zs" else char for char in text).split()
    )
    if not any(not unicodedata.category(char).startswith("M") for char in name.replace(" ", "")):
        raise ValueError(f"{what} has a visible character or more")
    return name
