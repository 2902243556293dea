"""The names strangers see at a public table: the name a player chose, unless it
holds a word a public table must not show, or a generated "Khách 4821".

The list is short on purpose (the issue asks for a short list, not a filter of
every language): the common Vietnamese and English slurs and swear words, and
names that pass for the server's own ("admin").  A word matches whole, with or
without its Vietnamese marks (``đ`` read as ``d``); the longer English ones also
inside another word ("fuckface").

>>> public_name("  Lan   Anh ", lambda: 4821)
'Lan Anh'
>>> public_name(None, lambda: 7)
'Khách 0007'
>>> public_name("Đ.M con bò", lambda: 1)
Traceback (most recent call last):
...
hearts.server.web.errors.ApiError: name_not_allowed
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from collections.abc import Callable
from typing import Any

from hearts.server.rooms.service import clean_name
from hearts.server.web.errors import ApiError

#: Whole words (compared without marks, lower case).
WORDS = frozenset(
    {
        "dit", "du", "dm", "dcm", "dmm", "vcl", "vkl", "vl", "clgt", "lon", "cac", "buoi",
        "deo", "cut", "cho", "occho", "fuck", "shit", "bitch", "cunt", "dick", "porn",
        "nazi", "hitler", "admin", "moderator", "sex", "whore", "slut", "nigger", "faggot",
    }
)  # fmt: skip
#: Words with marks that are ordinary without them ("du", "cho" and "lon" are
#: also common words and names: only their marked forms are refused).
MARKED = frozenset({"đụ", "địt", "lồn", "cặc", "buồi", "đéo", "cứt", "đĩ"})
#: Refused also inside a longer word.
INSIDE = ("fuck", "shit", "bitch", "cunt", "nigger", "faggot", "whore")
#: Without marks, these are names people have: refused only in their marked form.
PLAIN_OK = frozenset({"du", "cho", "lon", "cut", "deo"})


def _plain(text: str) -> str:
    """``text`` lower case without Vietnamese marks (``đ`` as ``d``)."""
    text = text.lower().replace("đ", "d")
    return "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))


def _spelt_out(words: list[str]) -> list[str]:
    """Runs of single letters as one word too ("d.m", "v c l")."""
    out = list(words)
    run = ""
    for w in [*words, ""]:
        if len(w) == 1:
            run += w
            continue
        if len(run) > 1:
            out.append(run)
        run = ""
    return out


def allowed(name: str) -> bool:
    """Whether a public table may show ``name``."""
    marked = re.findall(r"\w+", unicodedata.normalize("NFC", name.lower()))
    if any(word in MARKED for word in marked):
        return False
    plain = _plain(name)
    words = _spelt_out(re.findall(r"[a-z0-9]+", plain))
    if any(w in WORDS and w not in PLAIN_OK for w in words):
        return False
    joined = "".join(words)
    return not any(bad in joined for bad in INSIDE)


def generated(number: int) -> str:
    """The same in every language: strangers see one name."""
    return f"Khách {number:04d}"


def public_name(name: Any, draw: Callable[[], int] = lambda: secrets.randbelow(10000)) -> str:
    """The name shown at a public table: ``name`` cleaned (as a room's) and allowed,
    or a generated one when none is given; ``name_not_allowed`` otherwise."""
    if name is None:
        return generated(draw())
    text = clean_name(name, "")
    if not allowed(text):
        raise ApiError("name_not_allowed")
    return text
