"""A gate on Khó's warm-up, for the tests of a first start: a ``hearts serve`` started
with :meth:`KernelGate.env` has its bot workers wait, before they compile (or load)
Khó's kernel, until the test calls :meth:`KernelGate.open`.

A cold compile takes 30 to 100 s, too long for the suite; the gate holds the warm-up
for as long as the test wants instead, and nothing else changes: the server, its
pool, its waiting decisions and its State are the real ones.  It is a
``sitecustomize`` on the server's ``PYTHONPATH`` (each spawned worker runs it too)
that wraps ``hearts.bots.hard.warm_up``, which the workers call as they start."""

from __future__ import annotations

import os
from pathlib import Path

GATE_ENV = "HEARTS_TEST_KERNEL_GATE"

SITECUSTOMIZE = f'''
import os
import time

gate = os.environ.get("{GATE_ENV}")
if gate:
    import hearts.bots.hard as hard

    compile_kernel = hard.warm_up

    def warm_up():
        while not os.path.exists(gate):
            time.sleep(0.05)
        compile_kernel()

    hard.warm_up = warm_up
'''


class KernelGate:
    """The gate, shut until :meth:`open`; its files under ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.site = folder / "gate-site"
        self.site.mkdir(parents=True, exist_ok=True)
        (self.site / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
        self.file = folder / "gate-open"

    def env(self, base: dict[str, str] | None = None) -> dict[str, str]:
        """``base`` (the environment if None) for a server whose warm-up waits."""
        env = dict(os.environ if base is None else base)
        paths = [str(self.site), *filter(None, [env.get("PYTHONPATH")])]
        env["PYTHONPATH"] = os.pathsep.join(paths)
        env[GATE_ENV] = str(self.file)
        return env

    def open(self) -> None:
        self.file.touch()
