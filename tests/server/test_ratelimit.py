"""The per-address limit on new players: a burst, then one per interval; 429 in the
error shape with Retry-After; the address is the TCP peer unless the peer is a
trusted proxy, whose X-Forwarded-For then names the client."""

from __future__ import annotations

import ipaddress
import warnings
from concurrent.futures import ThreadPoolExecutor

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from fastapi import FastAPI

from hearts.server.app import create_app
from hearts.server.config import Config
from hearts.server.i18n.messages import ERRORS
from hearts.server.web.ratelimit import TokenBuckets, address_key, client_address

PROXY = "10.0.0.1"
TRUSTED = (ipaddress.ip_network("10.0.0.0/24"), ipaddress.ip_network("::1"))


@pytest.fixture
def app(db_url: str) -> FastAPI:
    config = Config(new_player_burst=3, new_player_interval=600, trusted_proxy=TRUSTED)
    return create_app(db_url, config=config, executor=ThreadPoolExecutor(1))


def new_player(app: FastAPI, peer: str, forwarded_for: str | None = None) -> int:
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for is not None else {}
    response = TestClient(app, client=(peer, 4321)).post("/api/players", headers=headers)
    if response.status_code == 429:
        body = response.json()
        assert body == {"error": {"code": "rate_limited", "message": ERRORS["rate_limited"][1]}}
        assert 1 <= int(response.headers["Retry-After"]) <= 600
    else:
        assert response.json()["token"]
    return response.status_code


def test_the_limit_bites_for_one_address_and_not_another(app) -> None:
    assert [new_player(app, "198.51.100.1") for _ in range(4)] == [200, 200, 200, 429]
    assert new_player(app, "198.51.100.2") == 200
    assert new_player(app, "198.51.100.1") == 429


def test_a_forwarded_for_header_from_an_untrusted_peer_is_ignored(app) -> None:
    codes = [new_player(app, "198.51.100.1", f"203.0.113.{i}") for i in range(4)]
    assert codes == [200, 200, 200, 429]


def test_a_trusted_proxy_names_the_client(app) -> None:
    # Three players behind the proxy, then the fourth from the same client is refused …
    codes = [new_player(app, PROXY, "203.0.113.5") for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    # … also when it writes another address in front (only our proxy's entry counts),
    assert new_player(app, PROXY, "192.0.2.99, 203.0.113.5") == 429
    # and through two of our proxies; while another client of the proxy is served.
    assert new_player(app, "::1", f"203.0.113.5, {PROXY}") == 429
    assert new_player(app, PROXY, "203.0.113.6") == 200


def test_the_address_is_the_right_most_one_no_proxy_of_ours_wrote() -> None:
    assert client_address("198.51.100.1", ["1.2.3.4"], TRUSTED) == "198.51.100.1"
    assert client_address(PROXY, ["1.2.3.4, 5.6.7.8"], TRUSTED) == "5.6.7.8"
    assert client_address(PROXY, ["1.2.3.4", "5.6.7.8, 10.0.0.9"], TRUSTED) == "5.6.7.8"
    assert client_address(PROXY, [], TRUSTED) == PROXY
    assert client_address(PROXY, ["1.2.3.4"], ()) == PROXY  # no proxy trusted
    assert client_address(None, [], TRUSTED) == "unknown"


def test_ipv6_addresses_of_one_64_share_a_limit(app) -> None:
    """An ISP gives a home a whole /64: its addresses are one client (issue 57 item 7)."""
    codes = [new_player(app, f"2001:db8:1:2::{i:x}") for i in range(1, 5)]
    assert codes == [200, 200, 200, 429]
    assert new_player(app, "2001:db8:1:2:ffff:ffff:ffff:ffff") == 429
    assert new_player(app, "2001:db8:1:3::1") == 200  # the next /64 is another client
    # behind the proxy alike
    assert new_player(app, PROXY, "2001:db8:1:2::99") == 429


def test_ipv6_is_counted_by_its_prefix_and_ipv4_by_its_address() -> None:
    assert address_key("2001:db8:1:2:aaaa::1", 64) == "2001:db8:1:2::/64"
    assert address_key("[2001:db8:1:2::1]", 64) == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:2::1", 128) == "2001:db8:1:2::1"  # each alone
    assert address_key("2001:db8:1:2::1", 48) == "2001:db8:1::/48"
    assert address_key("::ffff:198.51.100.7", 64) == "198.51.100.7"
    assert address_key("198.51.100.7", 64) == "198.51.100.7"
    assert address_key("unknown", 64) == "unknown"


def test_an_ipv6_prefix_of_128_counts_each_address_alone(db_url: str) -> None:
    config = Config(new_player_burst=1, new_player_interval=600, ipv6_prefix=128)
    app = create_app(db_url, config=config, executor=ThreadPoolExecutor(1))
    assert [new_player(app, f"2001:db8::{i}") for i in range(1, 4)] == [200, 200, 200]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_refills_one_token_per_interval() -> None:
    clock = Clock()
    buckets = TokenBuckets(burst=2, interval=10, clock=clock)
    assert [buckets.take("a") for _ in range(3)] == [0, 0, 10]
    clock.now += 4
    assert buckets.take("a") == pytest.approx(6)  # a refused call takes nothing
    clock.now += 6
    assert buckets.take("a") == 0
    assert buckets.take("a") == pytest.approx(10)


def test_buckets_of_quiet_addresses_are_forgotten() -> None:
    clock = Clock()
    buckets = TokenBuckets(burst=2, interval=10, clock=clock, max_addresses=500)
    for i in range(400):
        buckets.take(f"10.1.{i // 256}.{i % 256}")
    assert len(buckets) == 400
    clock.now += 20  # full again: the same as no bucket at all
    buckets.take("192.0.2.1")
    assert len(buckets) == 1
    for i in range(2000):  # many addresses at once: never more than the cap
        buckets.take(f"10.2.{i // 256}.{i % 256}")
        assert len(buckets) <= 500


def test_an_interval_of_zero_turns_the_limit_off() -> None:
    buckets = TokenBuckets(burst=1, interval=0)
    assert all(buckets.take("a") == 0 for _ in range(50))
