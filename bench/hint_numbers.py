"""Do Gợi ý's numbers agree with its words? (issue 59, item 2)

    python3 bench/hint_numbers.py [--positions 200] [--seed S] [--show N]

Random positions of South (hands Vừa plays): plays far from the target (totals 10 20
30 5), plays near it (70 82 64 77 of 100), passes (hands 1-3), in turn; for each the
hint (``hint.hint``) in Vietnamese and in English is read as a player reads it: the
figures of its first line (``p``/``q`` points, ``pc``/``pr`` chances, ``mc``/``mr``
moon shares where the line says less risk) and of its last line (the options it
lists, the choice first).  An answer is against its choice when a figure ranks
another option ahead of the choice: fewer points (points, lower is better), a higher
chance to win (%, higher is better), a higher moon share in a "less risk" line.
Printed: the answers by why code and measure, and those against their choice (the
first ``--show`` in full).  It reads the text only, so it measures any version of the
hint (``PYTHONPATH=/other/checkout/src``) on the same positions.
"""

from __future__ import annotations

import argparse
import collections
import random
import re
from typing import Any

from hearts.bots.base import get_bot
from hearts.hand import HandState
from hearts.rules import Rules
from hearts.server.coach import hint as coach
from hearts.view import PlayerView

FAR = (10, 20, 30, 5)
NEAR = (70, 82, 64, 77)
NAMES = {0: "Bạn", 1: "Tây", 2: "Bắc", 3: "Đông"}
_NUMBER = r"-?\d+(?:[.,]\d)?"
#: The first line's figures: (the choice's, the other's, higher is better).
_PAIRS = (("p", "q", False), ("pc", "pr", True))


def positions(count: int, rng: random.Random) -> list[tuple[str, PlayerView]]:
    """``count`` of South's decisions, far plays, near plays and passes in turn."""
    medium = get_bot("medium")
    out: list[tuple[str, PlayerView]] = []
    kinds = ("far", "near", "pass")
    while len(out) < count:
        kind = kinds[len(out) % 3]
        number = 1 + rng.randrange(3) if kind == "pass" else 4
        totals = NEAR if kind == "near" else FAR
        state = HandState.deal(Rules(), number, rng)
        if kind == "pass":
            out.append((kind, state.view(0, hand_number=number, totals=totals)))
            continue
        picked = None
        while not state.is_terminal():
            view = state.view(state.turn, hand_number=number, totals=totals)
            if state.turn == 0 and view.legal.bit_count() >= 2 and rng.random() < 0.3:
                picked = view
                break
            state.play(medium.choose_play(view))
        if picked is not None:
            out.append((kind, picked))
    return out


def _line_pattern(language: str, code: str) -> re.Pattern[str]:
    """The why line of ``code`` with its figures as named groups."""
    text = coach._SAY[language][code]
    parts = re.split(r"(\{\w+\})", text)
    out = []
    seen: set[str] = set()
    for part in parts:
        m = re.fullmatch(r"\{(\w+)\}", part)
        if not m:
            out.append(re.escape(part))
        elif m[1] in seen:
            out.append(".+?")
        else:
            seen.add(m[1])
            out.append(f"(?P<{m[1]}>.+?)")
    return re.compile("".join(out))


def _value(text: str) -> float | None:
    m = re.search(_NUMBER, text)
    return None if m is None else float(m[0].replace(",", "."))


def against(language: str, got: dict[str, Any]) -> list[str]:
    """What in ``got``'s first and last lines ranks an option ahead of the choice."""
    wrong: list[str] = []
    first, last = got["reasons"][0], got["reasons"][-1]
    m = _line_pattern(language, got["why"]).fullmatch(first)
    if m is None:
        return [f"first line not of its code: {first}"]
    words = m.groupdict()
    pairs = list(_PAIRS)
    if got["why"] == "moon_less":
        pairs.append(("mc", "mr", False))  # less risk: the choice's share is the lower
    for mine, other, higher in pairs:
        if mine in words and other in words:
            a, b = _value(words[mine]), _value(words[other])
            if a is not None and b is not None and (a < b if higher else a > b):
                wrong.append(f"first line: {words[mine]} against {words[other]}")
    parts = last.split(" · ")
    figures = [(_value(p.split(": ", 1)[-1]), p) for p in parts]
    if figures and figures[0][0] is not None:
        higher = "%" in parts[0]
        c = figures[0][0]
        for x, part in figures[1:]:
            if x is not None and (x > c if higher else x < c):
                wrong.append(f"last line: {part} against {parts[0]}")
    return wrong


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--seed", type=int, default=59)
    ap.add_argument("--show", type=int, default=5)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    codes: collections.Counter[str] = collections.Counter()
    bad: list[tuple[str, str, dict[str, Any], list[str]]] = []
    answers = 0
    for kind, view in positions(args.positions, rng):
        for language in ("vi", "en"):
            got = coach.hint(view, NAMES, language)  # type: ignore[arg-type]
            answers += 1
            codes[f"{kind} {got['why']} {got.get('measure', '-')}"] += 1
            wrong = against(language, got)
            if wrong:
                bad.append((kind, language, got, wrong))
    print(f"{args.positions} positions, {answers} answers (vi and en)")
    for key, k in sorted(codes.items()):
        print(f"  {key}: {k}")
    by = collections.Counter(f"{kind} {got['why']}" for kind, _, got, _ in bad)
    print(
        f"against their choice: {len(bad)} answers"
        + "".join(f"; {k}: {v}" for k, v in sorted(by.items()))
    )
    for kind, language, got, wrong in bad[: args.show]:
        print(f"- {kind} {language} {got['why']}: {'; '.join(wrong)}")
        for line in got["reasons"]:
            print(f"    {line}")


if __name__ == "__main__":
    main()
