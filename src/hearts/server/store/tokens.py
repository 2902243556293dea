"""Browser tokens that need no database row until they are first used.

A token is a random part and an HMAC of it under the server's secret (kept in the
database's ``meta`` table, made once, so every process of one database shares it):
``POST /api/players`` only draws one, and the first call that presents it makes
the player's row.  A token the server did not issue (forged, altered, from another
database) fails the check and never reaches the database.  Tokens of release 0.1.0
(one random part, no dot) have their row already and are found by their hash.

>>> tokens = Tokens(bytes(32))
>>> token = tokens.issue()
>>> altered = ("y" if token[0] == "x" else "x") + token[1:]  # always another token
>>> tokens.issued(token), tokens.issued(token[1:]), tokens.issued(altered)
(True, False, False)
>>> Tokens(bytes([1] * 32)).issued(token)
False
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

#: Bytes of the HMAC kept in the token (128 bits: not worth guessing).
TAG_BYTES = 16


def new_secret() -> str:
    return secrets.token_hex(32)


class Tokens:
    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def issue(self) -> str:
        body = secrets.token_urlsafe(24)
        return f"{body}.{self._tag(body)}"

    def derive(self, seed: str) -> str:
        """The token that ``seed`` (secret to its holder, at least 128 bits) always
        gives: it can be answered again without being kept (players/transfer.py)."""
        mac = hmac.new(self._secret, b"derive:" + seed.encode(), hashlib.sha256).digest()
        body = base64.urlsafe_b64encode(mac[:24]).decode()  # as token_urlsafe(24)
        return f"{body}.{self._tag(body)}"

    def issued(self, token: str) -> bool:
        """Whether this server (this database's secret) issued ``token``."""
        body, dot, tag = token.partition(".")
        return bool(dot) and hmac.compare_digest(tag.encode(), self._tag(body).encode())

    def _tag(self, body: str) -> str:
        mac = hmac.new(self._secret, body.encode("utf-8", "surrogatepass"), hashlib.sha256)
        return base64.urlsafe_b64encode(mac.digest()[:TAG_BYTES]).rstrip(b"=").decode()
