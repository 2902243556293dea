"""Alembic's environment for the server's schema (``hearts.server.db.metadata``).

The server runs the migrations itself at start (``hearts.server.migrate``): it hands
its connection over in ``config.attributes["connection"]``.  A developer making a
new revision runs alembic by hand, e.g.::

    alembic -c /dev/null -x script_location=src/hearts/server/migrations \\
        -x url=sqlite:///dev.db revision --autogenerate -m "what changes"

(or copies the last file in ``versions/``); ``tests/server/test_migrations.py``
checks that the revisions end at exactly ``metadata``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from hearts.server.db import make_engine, metadata


def _run(connection: Connection) -> None:
    # Batch mode: SQLite alters a column by copying its table.
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def _main() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(context.get_x_argument(as_dictionary=True)["url"])
    try:
        with engine.connect() as conn:
            _run(conn)
            conn.commit()
    finally:
        engine.dispose()


try:
    context.config  # noqa: B018  (set only when alembic runs this file)
except NameError:  # imported by something else (the doctest collector)
    pass
else:
    _main()
