"""The names strangers see at a public table: the name a player chose, unless it
holds a word a public table must not show, or a generated "Khách 4821".

The list is short on purpose (the issue asks for a short list, not a filter of
every language): the common Vietnamese and English slurs and swear words, and
names that pass for the server's own ("admin").  A word matches whole, with or
without its Vietnamese marks (``đ`` read as ``d``); the longer English ones also
inside another word ("fuckface").

Names at one table are distinct (compared without case): a generated one is drawn
again, a chosen one that is taken gets a number.

>>> public_name("  Lan   Anh ")
'Lan Anh'
>>> public_name(None) is None
True
>>> public_name("Đ.M con bò")
Traceback (most recent call last):
...
hearts.server.web.errors.ApiError: name_not_allowed
>>> [allowed(n) for n in ("аdmin", "ＡＤＭＩＮ", "Máy 2", "Khách 0001", "Người chơi ẩn", "Bạn")]
[False, False, False, False, False, False]
>>> [allowed(n) for n in ("Lan Anh", "Bảo", "Khách quý", "Máy bay")]
[True, True, True, True]
>>> at_table(None, {"Khách 0007"}, iter([7, 7, 12]).__next__)
'Khách 0012'
>>> at_table("lan", {"Lan", "Lan 2"})
'lan 3'
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from collections.abc import Callable, Iterable
from typing import Any

from hearts.server.rooms.names import NAME_LIMIT, clean_name
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


#: Cyrillic and Greek letters drawn as Latin ones ("аdmin" with a Cyrillic а):
#: read as the Latin letter before the words are compared.
LOOKALIKES = str.maketrans(
    "асеорхуіјѕԁһкмтвнаοαινκρτυχ", "aceopxyijsdhkmtbhaoaivkptux"
)  # fmt: skip
#: The names the server itself gives (a computer's seat, a hidden player, the
#: viewer's own seat, a generated name), in either language, compared without marks:
#: a player who takes one passes for the table.
SERVER_NAMES = re.compile(
    r"(may|computer|khach|guest) ?\d*|nguoi choi an|hidden player|you|ban|chu phong|host"
)


def _plain(text: str) -> str:
    """``text`` lower case without Vietnamese marks (``đ`` as ``d``), its compatibility
    forms folded (full-width "ＡＤＭＩＮ" as "admin") and its Latin look-alikes read
    as Latin."""
    text = unicodedata.normalize("NFKC", text).lower().translate(LOOKALIKES).replace("đ", "d")
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
    if SERVER_NAMES.fullmatch(" ".join(re.findall(r"[a-z0-9]+", plain))):
        return False
    words = _spelt_out(re.findall(r"[a-z0-9]+", plain))
    if any(w in WORDS and w not in PLAIN_OK for w in words):
        return False
    joined = "".join(words)
    return not any(bad in joined for bad in INSIDE)


def generated(number: int) -> str:
    """The same in every language: strangers see one name."""
    return f"Khách {number:04d}"


def public_name(name: Any) -> str | None:
    """The name chosen for public tables: ``name`` cleaned (as a room's) and allowed
    (``name_not_allowed`` otherwise), or None when none is given (one is generated
    at the table: :func:`at_table`)."""
    if name is None:
        return None
    text = clean_name(name, "")
    if not allowed(text):
        raise ApiError("name_not_allowed")
    return text


def draw_number() -> int:
    return secrets.randbelow(10000)


def at_table(name: str | None, taken: Iterable[str], draw: Callable[[], int] | None = None) -> str:
    """The name shown at a table whose players have the names ``taken``: ``name``, or
    a generated one (None), made distinct from them."""
    seen = {t.casefold() for t in taken}
    if name is None:
        draw = draw or draw_number
        while True:  # at most 7 names taken of 10000
            shown = generated(draw())
            if shown.casefold() not in seen:
                return shown
    shown, n = name, 1
    while shown.casefold() in seen:
        n += 1
        tail = f" {n}"
        shown = name[: NAME_LIMIT - len(tail)].rstrip() + tail
    return shown
