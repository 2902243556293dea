"""web/connections.py subclasses uvicorn's h11 protocol and uses its internals (issue
55 item 5): the installed uvicorn is in the range pyproject.toml pins, and what the
subclass overrides or reads is there with the shape it was written for.  The
behaviour itself (deadlines, the cap, the 431) is test_slowloris.py's."""

from __future__ import annotations

import inspect
import tomllib
from importlib.metadata import version
from pathlib import Path

import h11
from packaging.requirements import Requirement
from uvicorn.protocols.http.h11_impl import H11Protocol

from hearts.server.web.connections import HeartsH11Protocol

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def pinned(name: str) -> Requirement:
    deps = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    return next(r for r in map(Requirement, deps) if r.name == name)


def test_uvicorn_and_h11_are_pinned_to_a_range_and_installed_within_it() -> None:
    for name in ("uvicorn", "h11"):
        spec = pinned(name).specifier
        assert any(s.operator == "<" for s in spec), f"{name}: no upper bound"
        assert spec.contains(version(name)), (name, version(name), str(spec))


def params(fn: object) -> list[str]:
    return list(inspect.signature(fn).parameters)  # type: ignore[arg-type]


def test_the_protocol_s_internals_the_subclass_relies_on_are_there() -> None:
    assert params(H11Protocol.__init__) == ["self", "config", "server_state", "app_state", "_loop"]
    for name, shape in {
        "connection_made": ["self", "transport"],
        "connection_lost": ["self", "exc"],
        "handle_events": ["self"],
        "data_received": ["self", "data"],
        "on_response_complete": ["self"],
        "handle_websocket_upgrade": ["self", "event"],
        "send_400_response": ["self", "msg"],
    }.items():
        assert params(getattr(H11Protocol, name)) == shape, name
        assert name in vars(HeartsH11Protocol), name  # overridden there, on purpose
    # the state it reads: the server's set of connections and h11's connection
    source = inspect.getsource(H11Protocol.__init__)
    assert "self.connections" in source and "self.conn = h11.Connection" in source
    assert hasattr(h11.Connection, "trailing_data") and h11.IDLE and h11.SEND_BODY
