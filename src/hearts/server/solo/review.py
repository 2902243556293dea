"""Xem lại ván (review): a ``hearts-hand/1`` record checked by the rules and laid
out trick by trick for the page, which only shows it (no rules in the page).

:func:`replay` reads any record (from this game, ``GET /api/hands/{n}``, or from
another tool, opened from a file): :func:`hearts.record.read_record` replays it
through the rules, and a record that cannot be read or breaks a rule is refused
with a Vietnamese message naming the first bad step.
"""

from __future__ import annotations

import json
from typing import Any

from hearts.cards import card_name, parse_card
from hearts.hand import HandState
from hearts.record import IllegalStep, RecordError, read_record
from hearts.rules import Rules
from hearts.server.i18n import lang, messages_en
from hearts.server.i18n.messages import card_name_vi, error_message, localized
from hearts.server.table.game import GameError, display_order, rules_json, seat_names

#: The reasons of a record's bad play, in the page's words (the rule's code).
_PLAY_CODES = (
    "must_follow_suit",
    "hearts_not_broken",
    "first_trick_points",
    "must_lead_lead_card",
    "not_in_hand",
)


def _names(mask: int) -> list[str]:
    return [card_name(c) for c in display_order(mask)]


def _illegal(step: IllegalStep, names: dict[str, str]) -> str:
    """The first illegal step of a record, in the request's language."""
    if step.step == "play" and step.index is not None:
        who = names.get(step.seat or "", step.seat or "?")
        say = messages_en.card_name if lang.english() else card_name_vi
        card = say(parse_card(step.card)) if step.card else "?"
        code = next((c for c in _PLAY_CODES if step.reason.startswith(c)), "")
        why = error_message(code) if code else localized("ván đã hết bài")
        if lang.english():
            return f"Card {step.index + 1} is not valid: {who} plays the {card}: {why}"
        return f"Lá thứ {step.index + 1} không hợp lệ: {who} đánh {card}: {why}"
    if step.step == "points":
        return localized("Điểm ghi trong tệp không khớp với các vòng đã đánh")
    if step.step == "deal":
        return localized("Bài chia trong tệp không khớp với các hạt giống đã cam kết")
    return localized("Phần chuyền bài không hợp lệ")


def replay(data: Any) -> dict[str, Any]:
    """The record ``data`` (an object, or its JSON text) as the review shows it:
    the deal, the passes, the hands when play began, every trick with who led,
    who took it and the points taken so far; a :class:`GameError` ``bad_record``
    (Vietnamese, naming the first illegal step) for anything else."""
    record = data
    try:
        if isinstance(data, str):
            try:
                record = json.loads(data)
            except (ValueError, RecursionError):
                raise RecordError("not JSON") from None
        state, number = read_record(record)
    except RecordError as exc:
        raise GameError("bad_record", f"{error_message('bad_record')} ({exc})") from None
    except IllegalStep as exc:
        # read_record got as far as the plays: the rules (and so the names) are good.
        names = seat_names(Rules.from_json(record["rules"]))
        raise GameError("bad_record", _illegal(exc, names)) from None
    return _layout(record, state, number)


def _layout(record: dict[str, Any], state: HandState, number: int) -> dict[str, Any]:
    rules = state.rules
    seats = rules.seats
    n = state.n
    start = [
        (state.deal_masks[s] & ~state.passes[s])
        | (state.passes[state.passer(s)] if state.offset else 0)
        for s in range(n)
    ]
    if state.phase == "pass":  # stopped before the exchange: the hands are the deal
        start = list(state.deal_masks)
    tricks = []
    taken = [0] * n
    plays = state.plays
    for t in range(0, len(plays), n):
        cards = plays[t : t + n]
        leader = state.leader_of_trick(t // n)
        done = len(cards) == n
        winner = state.winners[t // n] if done else -1
        points = rules.card_points(sum(1 << c for c in cards)) if done else 0
        if done:
            taken[winner] += points
        tricks.append(
            {
                "leader": seats[leader],
                "winner": seats[winner] if done else None,
                "points": points,
                "cards": [
                    {"seat": seats[(leader + i) % n], "card": card_name(c)}
                    for i, c in enumerate(cards)
                ],
                "taken": dict(zip(seats, taken, strict=True)),
            }
        )
    finished = state.is_terminal()
    given = record.get("points")
    if given is None and finished:
        given = dict(zip(seats, state.points(), strict=True))
    passing = bool(state.offset)
    return {
        "record": record,
        "rules": rules_json(rules),
        "seats": list(seats),
        "names": seat_names(rules),
        "hand": number,
        "pass_direction": state.direction,
        "deal": {seats[s]: _names(state.deal_masks[s]) for s in range(n)},
        "passes": {seats[s]: _names(m) for s, m in enumerate(state.passes) if m} if passing else {},
        "pass_to": {seats[s]: seats[state.receiver(s)] for s in range(n)} if passing else {},
        "start": {seats[s]: _names(start[s]) for s in range(n)},
        "tricks": tricks,
        "finished": finished,
        "points": given,
        "moon": seats[state.shooter()] if state.shooter() >= 0 else None,
    }
