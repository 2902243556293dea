"""Committed deals (docs/fairness.md): the engine against the shared test vectors,
which the page's own checker (static/js/fairness.js) is held to as well."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
from pathlib import Path

import pytest

from hearts.cards import card_name, lowest, names
from hearts.cli import main
from hearts.fairness import HandSeeds, commitment, deal, shuffle, shuffled_deck, stream
from hearts.hand import HandState
from hearts.record import IllegalStep, RecordError, read_record, validate, write_record
from hearts.rules import Rules

VECTORS = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "fairness_vectors.json").read_text()
)["vectors"]


@pytest.mark.parametrize("case", VECTORS, ids=lambda c: f"{c['rules']}-{c['hand_number']}")
def test_the_vectors(case: dict) -> None:
    rules = Rules(**case["rules"])
    args = (case["server_seed"], case["client_seeds"], case["hand_number"])
    assert commitment(case["server_seed"]) == case["commitment"]
    assert [card_name(c) for c in shuffled_deck(rules, *args)] == case["deck"]
    masks = deal(rules, *args)
    assert {rules.seats[s]: names(m) for s, m in enumerate(masks)} == case["deal"]


def test_the_stream_is_the_hmac_blocks_read_as_big_endian_words() -> None:
    key = bytes(range(32))
    words = stream(key.hex(), ["ab", "c"], 3)
    for i in range(2):
        block = hmac.new(key, f"ab,c:3:{i}".encode(), hashlib.sha256).digest()
        for at in range(0, 32, 4):
            assert next(words) == int.from_bytes(block[at : at + 4], "big")


def test_a_draw_at_or_above_the_unbiased_limit_is_thrown_away() -> None:
    # j = 2: the limit is 2^32 - (2^32 mod 3) = 2^32 - 1, so 2^32 - 1 is drawn again
    drawn = iter([2**32 - 1, 4, 1])
    assert shuffle(["a", "b", "c"], drawn) == ["a", "c", "b"]  # k = 4 % 3 = 1, then 1 % 2
    assert next(drawn, None) is None
    # j = 1 (two cards): 2^32 is even, no draw is thrown away
    assert shuffle(["a", "b"], iter([2**32 - 2])) == ["b", "a"]  # k = 0: swapped


def test_every_seed_hand_and_table_deals_a_whole_deck() -> None:
    for players in range(3, 8):
        rules = Rules(players=players)
        masks = deal(rules, "ab" * 32, ["1"], 1)
        assert sum(masks) == rules.deck and all(m.bit_count() == rules.hand_size for m in masks)
    one = deal(Rules(), "ab" * 32, ["1"], 1)
    assert one != deal(Rules(), "ab" * 32, ["2"], 1)  # the client's seed changes it
    assert one != deal(Rules(), "ab" * 32, ["1", "2"], 1)  # so does every other seed
    assert one != deal(Rules(), "ac" * 32, ["1"], 1)


def _record(client_seeds: list[str]) -> dict:
    """A finished hand dealt from seeds, as a record with its ``fairness``."""
    seeds = HandSeeds("cd" * 32, tuple(client_seeds))
    state = HandState(Rules(), seeds.deal(Rules(), 4), "none")  # hand 4: no pass
    while not state.is_terminal():
        state.play(lowest(state.legal_mask()))
    return write_record(state, 4) | {"fairness": seeds.to_json(reveal=True)}


def test_validate_checks_a_record_s_seeds() -> None:
    record = _record(["0a"])
    assert validate(record) == dict(zip("SWNE", read_record(record)[0].points(), strict=True))
    hidden = copy.deepcopy(record)
    hidden["fairness"]["server_seed"] = None  # not revealed: nothing to check yet
    validate(hidden)
    for change in ("server_seed", "client_seeds", "deal"):
        bad = copy.deepcopy(record)
        if change == "server_seed":
            bad["fairness"]["server_seed"] = "ce" * 32
        elif change == "client_seeds":
            bad["fairness"]["client_seeds"] = ["0b"]
        else:
            s, w = bad["deal"]["S"], bad["deal"]["W"]
            s[0], w[0] = w[0], s[0]
        with pytest.raises(IllegalStep) as caught:
            validate(bad)
        assert caught.value.step == "deal", change
    for broken in ({"commitment": "x"}, [], {**record["fairness"], "client_seeds": ["X"]}):
        with pytest.raises(RecordError):
            validate(record | {"fairness": broken})


def test_hearts_validate_exits_1_for_a_deal_its_seeds_do_not_give(tmp_path: Path) -> None:
    record = _record([])
    record["fairness"]["server_seed"] = "ce" * 32
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record))
    assert main(["validate", str(path)]) == 1
    path.write_text(json.dumps(_record([])))
    assert main(["validate", str(path)]) == 0
