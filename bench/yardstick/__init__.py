"""Khó as it was on 2026-11-30, frozen as the yardstick ``hard-2026-11``.

A copy of that day's ``hard.py``, ``playout.py``, ``sampling.py`` (with
``PlayerView.excluded`` as it was), ``medium.py`` (Vừa's pass) and ``tactics.py``,
so that later changes to Khó, Vừa or the view cannot move the yardstick.
Bench-only: nothing in ``src`` imports it.  Do not edit these files.
"""

from __future__ import annotations

from typing import Any

from .hard import HardBot

NAME = "hard-2026-11"


def yardstick(**options: Any) -> HardBot:
    """The frozen Khó with its options (the same as Khó's were then)."""
    return HardBot(**options)


__all__ = ["NAME", "HardBot", "yardstick"]
