"""Bot options given on a bench's command line as ``key=value`` words."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any


def parse_options(pairs: Iterable[str]) -> dict[str, Any]:
    """``key=value`` words as options, each value read as JSON (empty words skipped).

    >>> parse_options(["iterations=1000", "moon=false", ""])
    {'iterations': 1000, 'moon': False}
    """
    out: dict[str, Any] = {}
    for kv in pairs:
        if kv:
            key, _, value = kv.partition("=")
            out[key] = json.loads(value)
    return out
