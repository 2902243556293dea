"""The server's stop as soon as it is asked for, for what would otherwise hold it up.

On SIGTERM (or Ctrl+C) uvicorn first waits for every running request, and only then
ends the app's lifespan: a request that waits for something (a room's long poll)
would hold the stop for as long as it waits, so it must learn of the stop from the
signal itself.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Callable
from types import FrameType

SIGNALS = (signal.SIGINT, signal.SIGTERM)


def on_stop_signal(callback: Callable[[], None]) -> None:
    """Call ``callback`` (in the running event loop) when a signal asks the server to
    stop, then the handler that was there (uvicorn's, which stops the server).

    Only in the main thread, where uvicorn's handlers are (not under a test client);
    uvicorn puts back the handlers it found when it exits, which removes these."""
    if threading.current_thread() is not threading.main_thread():
        return
    loop = asyncio.get_running_loop()
    for sig in SIGNALS:
        previous = signal.getsignal(sig)
        if not callable(previous):
            continue  # not uvicorn's: nothing here stops the server on this signal

        def handler(
            signum: int, frame: FrameType | None, previous: Callable[..., object] = previous
        ) -> None:
            loop.call_soon_threadsafe(callback)
            previous(signum, frame)

        signal.signal(sig, handler)
