"""A display name a player chooses for a room or a public table: what is refused
and why (the rooms' and the public tables' one check).

>>> clean_name("  Lan   Anh ", "Khách")
'Lan Anh'
>>> clean_name(None, "Khách")
'Khách'
"""

from __future__ import annotations

import unicodedata
from typing import Any

from hearts.server.i18n.messages import INVISIBLE_NAME, MARKS_NAME
from hearts.server.web.errors import ApiError

NAME_LIMIT = 20


def clean_name(name: Any, default: str) -> str:
    """A display name: 1-20 characters once composed (NFC) and trimmed, no control
    or format characters, and something to see (not marks or blanks alone)."""
    if name is None:
        return default
    if not isinstance(name, str):
        raise ApiError("bad_name")
    text = " ".join(unicodedata.normalize("NFC", name).split())
    if not 1 <= len(text) <= NAME_LIMIT:
        raise ApiError("bad_name")
    if not any(_visible(ch) for ch in text):
        raise ApiError("bad_name", INVISIBLE_NAME)
    if any(unicodedata.category(ch).startswith("C") for ch in text):
        raise ApiError("bad_name")
    if _most_marks(text) > MARKS_PER_LETTER:
        raise ApiError("bad_name", MARKS_NAME)
    return text


#: Marks one character may carry: Thai stacks a vowel and a tone mark, Vietnamese
#: needs none once composed (NFC); "zalgo" text piles dozens that draw over the
#: names around it.
MARKS_PER_LETTER = 3


def _most_marks(text: str) -> int:
    """The longest run of combining marks in ``text``."""
    most = run = 0
    for ch in text:
        run = run + 1 if unicodedata.category(ch).startswith("M") else 0
        most = max(most, run)
    return most


#: Letters and symbols that are drawn as nothing (Hangul fillers, the braille blank).
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _visible(ch: str) -> bool:
    """A character drawn on its own: a letter, digit, punctuation or symbol (marks
    only decorate one, separators are space)."""
    return unicodedata.category(ch)[0] in "LNPS" and ch not in BLANKS
