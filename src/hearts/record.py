"""The hand record ``hearts-hand/1`` (SPEC §4): a writer, a reader and a validator.

A record holds the deal before passing, the passes, every card in the order
played and (for a finished hand) the points; optionally the hand's seeds
(``fairness``: docs/fairness.md), then the deal must be the one they give.  Reading
a record replays it through the rules, so a record that reads is a legal hand.

>>> import random
>>> from hearts.rules import Rules
>>> from hearts.hand import HandState
>>> state = HandState.deal(Rules(), 4, random.Random(7))
>>> while not state.is_terminal():
...     state.play(lowest(state.legal_mask()))
>>> record = write_record(state, hand_number=4)
>>> read_record(record)[0].points() == state.points()
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hearts.cards import card_name, cards_of, lowest, names, parse_card  # noqa: F401
from hearts.fairness import HandSeeds, SeedError
from hearts.hand import HandState
from hearts.legal import IllegalAction
from hearts.rules import MOON_SCORINGS, SHOOTER_CHOOSES, Rules, RulesError

FORMAT = "hearts-hand/1"
_FIELDS = {"format", "rules", "hand", "pass", "deal", "passes", "plays", "points", "fairness"}


class RecordError(ValueError):
    """A record that cannot be read: not JSON, wrong shape, unknown or duplicate cards.
    ``why``: the same as a code and its values (card codes, seats), for a page to
    word in its own language."""

    def __init__(self, message: str, code: str, **values: Any) -> None:
        super().__init__(message)
        self.why: dict[str, Any] = {"code": code, **values}


@dataclass
class IllegalStep(Exception):
    """A readable record with a step the rules forbid."""

    index: int | None  # index in ``plays`` (None for a pass or the points)
    seat: str | None
    card: str | None
    reason: str
    step: str = "play"  # "deal" | "pass" | "play" | "points"

    def __str__(self) -> str:
        where = f"play {self.index}" if self.index is not None else self.step
        return f"{where}: seat {self.seat}, card {self.card}: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "index": self.index,
            "seat": self.seat,
            "card": self.card,
            "reason": self.reason,
        }


def write_record(state: HandState, hand_number: int) -> dict[str, Any]:
    """The record of ``state`` (finished or in progress)."""
    seats = state.rules.seats
    record: dict[str, Any] = {
        "format": FORMAT,
        "rules": state.rules.to_json(),
        "hand": hand_number,
        "pass": state.direction,
        "deal": {seats[s]: names(m) for s, m in enumerate(state.deal_masks)},
        "passes": {seats[s]: names(m) for s, m in enumerate(state.passes) if m}
        if state.offset
        else {},
        "plays": [card_name(c) for c in state.plays],
    }
    if state.is_terminal():
        record["points"] = dict(zip(seats, state.points(), strict=True))
    return record


def _cards(value: Any, part: str, seat: str | None = None) -> list[int]:
    where = f"{part}.{seat}" if seat else part
    if not isinstance(value, list):
        raise RecordError(f"{where} must be a list of cards", "not_cards", part=part, seat=seat)
    out = []
    for item in value:
        try:
            out.append(parse_card(item))
        except ValueError:
            raise RecordError(
                f"{where}: unknown card {item!r}",
                "unknown_card",
                part=part,
                seat=seat,
                card=str(item)[:12],
            ) from None
    return out


def _parse(data: Any) -> dict[str, Any]:
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            raise RecordError(f"not JSON: {exc}", "not_json") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object", "not_object")
    unknown = set(data) - _FIELDS
    if unknown:
        raise RecordError(
            f"unknown field(s): {', '.join(sorted(unknown))}",
            "unknown_fields",
            fields=sorted(unknown)[:5],
        )
    for key in ("format", "rules", "hand", "pass", "deal", "passes", "plays"):
        if key not in data:
            raise RecordError(f"missing field {key!r}", "missing_field", field=key)
    if data["format"] != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {data['format']!r}", "format")
    return data


def read_record(data: Any) -> tuple[HandState, int]:
    """Replay a record; return the hand's state and its number.

    Raises :class:`RecordError` for a record that cannot be read and
    :class:`IllegalStep` for the first step the rules forbid.
    """
    data = _parse(data)
    try:
        rules = Rules.from_json(data["rules"])
    except (RulesError, TypeError) as exc:
        raise RecordError(f"rules: {exc}", "rules") from None
    seats = rules.seats
    hand_number = data["hand"]
    if type(hand_number) is not int or hand_number < 1:
        raise RecordError("hand must be a positive integer", "hand_number")
    direction = data["pass"]
    if direction not in ("left", "right", "across", "none") or (
        direction == "across" and rules.players != 4
    ):
        raise RecordError(
            f"pass must be left, right, across or none, not {direction!r}", "pass_direction"
        )
    masks = _read_deal(rules, data["deal"])
    pass_masks = _read_passes(rules, direction, data["passes"], masks)
    plays = _cards(data["plays"], "plays")
    points = data.get("points")
    if "points" in data and (
        not isinstance(points, dict)
        or set(points) != set(seats)
        or any(type(v) is not int for v in points.values())
    ):
        raise RecordError(
            f"points must map each seat {' '.join(seats)} to an integer",
            "points",
            seats=list(seats),
        )

    if "fairness" in data:
        _check_seeds(rules, hand_number, data["fairness"], masks)
    expected = rules.pass_direction(hand_number)
    if direction != expected:
        raise IllegalStep(
            None, None, None, f"hand {hand_number} passes {expected}, not {direction}", "pass"
        )
    state = HandState(rules, masks, direction)
    if direction != "none":
        if len(pass_masks) < rules.players and (plays or points is not None):
            missing = [seats[s] for s in range(rules.players) if s not in pass_masks]
            raise IllegalStep(
                None, missing[0], None, "every seat passes before the first card", "pass"
            )
        for s, mask in pass_masks.items():
            state.pass_cards(s, mask)
    _replay(state, plays)
    if points is not None:
        _check_points(state, points)
    return state, hand_number


def _check_seeds(rules: Rules, hand_number: int, fairness: Any, masks: list[int]) -> None:
    """A record's seeds (docs/fairness.md), once the server's is revealed: it
    matches the commitment, and the deal is the one the seeds give."""
    try:
        seeds = HandSeeds.from_json(fairness)
    except SeedError as exc:
        raise RecordError(f"fairness: {exc}", "fairness") from None
    if seeds is None:
        return
    if seeds.commitment != fairness["commitment"]:
        raise IllegalStep(None, None, None, "server_seed does not match the commitment", "deal")
    dealt = seeds.deal(rules, hand_number)
    for s, seat in enumerate(rules.seats):
        if dealt[s] != masks[s]:
            why = f"the deal is not the one the seeds give: {seat} gets {' '.join(names(dealt[s]))}"
            raise IllegalStep(None, seat, None, why, "deal")


def _read_deal(rules: Rules, deal: Any) -> list[int]:
    """Each seat's dealt cards (masks), in seat order."""
    seats = rules.seats
    if not isinstance(deal, dict) or set(deal) != set(seats):
        raise RecordError(
            f"deal must have exactly the seats {' '.join(seats)}", "deal_seats", seats=list(seats)
        )
    masks = []
    seen = 0
    for seat in seats:
        cards = _cards(deal[seat], "deal", seat)
        mask = 0
        for c in cards:
            if seen >> c & 1:
                raise RecordError(
                    f"deal: {card_name(c)} is dealt twice", "dealt_twice", card=card_name(c)
                )
            if not rules.deck >> c & 1:
                raise RecordError(
                    f"deal: {card_name(c)} is not in this deck", "not_in_deck", card=card_name(c)
                )
            seen |= 1 << c
            mask |= 1 << c
        if len(cards) != rules.hand_size:
            raise RecordError(
                f"deal.{seat} holds {len(cards)} cards, not {rules.hand_size}",
                "hand_size",
                seat=seat,
                count=len(cards),
                size=rules.hand_size,
            )
        masks.append(mask)
    return masks


def _read_passes(rules: Rules, direction: str, passes: Any, masks: list[int]) -> dict[int, int]:
    """The passes given, by seat index (a record may stop before every seat passed)."""
    seats = rules.seats
    if not isinstance(passes, dict):
        raise RecordError("passes must be an object", "passes_object")
    unknown = set(passes) - set(seats)
    if unknown:
        raise RecordError(
            f"passes: unknown seat(s) {', '.join(sorted(unknown))}",
            "passes_seats",
            seats=list(seats),
        )
    if direction == "none" and passes:
        raise RecordError("passes must be {} when pass is none", "passes_none")
    pass_masks: dict[int, int] = {}
    for s, seat in enumerate(seats):
        if seat not in passes:
            continue
        cards = _cards(passes[seat], "passes", seat)
        mask = sum(1 << c for c in set(cards))
        if len(cards) != rules.pass_count or mask.bit_count() != len(cards):
            raise RecordError(
                f"passes.{seat} must be {rules.pass_count} distinct cards",
                "pass_count",
                seat=seat,
                count=rules.pass_count,
            )
        if mask & ~masks[s]:
            held = names(mask & ~masks[s])
            raise RecordError(
                f"passes.{seat}: {', '.join(held)} not held by {seat}",
                "not_held",
                seat=seat,
                cards=held,
            )
        pass_masks[s] = mask
    return pass_masks


def _replay(state: HandState, plays: list[int]) -> None:
    """Play ``plays`` in order; the first the rules forbid is an :class:`IllegalStep`."""
    seats = state.rules.seats
    for i, card in enumerate(plays):
        if state.is_terminal():
            raise IllegalStep(i, None, card_name(card), "the hand is over: no cards left")
        seat = seats[state.turn]
        try:
            state.play(card)
        except IllegalAction as exc:
            raise IllegalStep(i, seat, card_name(card), f"{exc.code}: {exc.message}") from None


def _check_points(state: HandState, points: dict[str, int]) -> None:
    """The record's points agree with its tricks (either scoring a shooter may choose)."""
    rules = state.rules
    seats = rules.seats
    if not state.is_terminal():
        raise IllegalStep(None, None, None, "points given for an unfinished hand", "points")
    allowed = [state.points()]
    if rules.moon == SHOOTER_CHOOSES and state.shooter() >= 0:
        allowed = [state.points(how) for how in MOON_SCORINGS]
    given = [points[s] for s in seats]
    if given not in allowed:
        want = dict(zip(seats, allowed[0], strict=True))
        raise IllegalStep(
            None, None, None, f"points {points} disagree with the tricks: {want}", "points"
        )


def validate(data: Any) -> dict[str, int]:
    """Check a record; return the computed points by seat (points taken so far
    for a hand in progress; a shot moon as the record scored it, when the rules
    let the shooter choose)."""
    data = _parse(data)
    state, _ = read_record(data)
    if state.is_terminal() and "points" in data:
        # Checked by read_record: under SHOOTER_CHOOSES either scoring of a moon.
        return {seat: data["points"][seat] for seat in state.rules.seats}
    pts = state.points() if state.is_terminal() else state.raw_points()
    return dict(zip(state.rules.seats, pts, strict=True))
