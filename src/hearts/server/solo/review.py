"""Xem lại ván (review): a ``hearts-hand/1`` record checked by the rules and laid
out trick by trick for the page, which only shows it (no rules in the page).

:func:`replay` reads any record (from this game, ``GET /api/hands/{n}``, or from
another tool, opened from a file): :func:`hearts.record.read_record` replays it
through the rules, and a record that cannot be read or breaks a rule is refused
with a message in the request's language naming the first bad step (and, for a
play, the seat whose card it is).
"""

from __future__ import annotations

import json
from typing import Any

from hearts.cards import card_name, parse_card
from hearts.hand import HandState
from hearts.record import IllegalStep, RecordError, read_record
from hearts.rules import Rules
from hearts.server.i18n import lang, messages_en
from hearts.server.i18n.messages import SUITS_VI, card_name_vi, localized
from hearts.server.table.game import GameError, display_order, rules_json, seat_names

#: A record's bad play, by the rule it breaks, naming the seat whose card it is (the
#: refusals of the player's own plays, "Bạn không có lá này", would blame the reader).
_PLAYS_VI = {
    "not_in_hand": "đến lượt {who} nhưng {who} không có {card}",
    "must_follow_suit": "{who} còn lá {suit} mà đánh {card}: phải ra lá cùng chất",
    "hearts_not_broken": "{who} ra {card} khi cơ chưa bị phá",
    "first_trick_points": "{who} đánh {card} ở vòng đầu: vòng đầu không được đánh cơ hay đầm bích",
    "must_lead_lead_card": "{who} mở vòng đầu bằng {card}, phải mở bằng {lead}",
}


def _names(mask: int) -> list[str]:
    return [card_name(c) for c in display_order(mask)]


def _bad_play(step: IllegalStep, record: dict[str, Any], rules: Rules) -> str:
    """The record's first illegal play, in the request's language: who played what,
    and why the rules forbid it (the seat of each play follows from the rules)."""
    english = lang.english()
    number = (step.index or 0) + 1
    if not step.seat or not step.card:  # a card after the last trick
        if english:
            return f"Card {number} is one too many: the hand has no cards left"
        return f"Lá thứ {number} thừa: ván đã hết bài"
    code = step.reason.split(":", 1)[0]
    index = step.index or 0
    led = parse_card(record["plays"][index - index % rules.players])
    who = seat_names(rules)[step.seat]
    you = step.seat == rules.seats[0]
    if english:
        why = messages_en.record_play(code, who, you, parse_card(step.card), led, rules.lead_card)
        return f"Card {number} is not valid: {why}"
    words = {
        "who": who.lower() if you else who,  # "đến lượt bạn", inside a sentence
        "card": card_name_vi(parse_card(step.card)),
        "suit": SUITS_VI[led // 13],
        "lead": card_name_vi(rules.lead_card),
    }
    why = _PLAYS_VI.get(code, "{who} đánh {card}").format(**words)
    return f"Lá thứ {number} không hợp lệ: {why}"


def _illegal(step: IllegalStep, record: dict[str, Any]) -> str:
    """The first illegal step of a record, in the request's language."""
    if step.step == "play" and step.index is not None:
        return _bad_play(step, record, Rules.from_json(record["rules"]))
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
                raise RecordError("not JSON", "not_json") from None
        state, number = read_record(record)
    except RecordError as exc:
        # the message in the request's language; what is wrong as a code and its
        # values (``reason``), which the page words in its own (its English detail
        # inside a Vietnamese sentence read "(deal: 3C is dealt twice)")
        raise GameError("bad_record", reason=exc.why) from None
    except IllegalStep as exc:
        # read_record got as far as the plays: the rules and the plays are good JSON.
        raise GameError("bad_record", _illegal(exc, record)) from None
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
