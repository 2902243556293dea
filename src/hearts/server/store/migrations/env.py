"""Alembic's environment for the server's schema (``hearts.server.store.db.metadata``).

The server runs the migrations itself at start (``hearts.server.store.migrate``): it hands
its connection over in ``config.attributes["connection"]``.  A developer makes the
next revision from a database at the current head, after changing ``metadata``::

    from alembic import command
    from hearts.server.store import migrate
    from hearts.server.store.db import Store

    store = Store("sqlite:///dev.db")  # at head
    with store.engine.connect() as conn:
        command.revision(migrate.config(conn), "what changes", autogenerate=True,
                         rev_id="0003")

then reads and adjusts the file it writes in ``versions/`` (batch mode for SQLite);
``tests/server/test_migrations.py`` checks that the revisions end at exactly
``metadata``.  (The alembic command line works too, with ``-x url=…``.)
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from hearts.server.store.db import make_engine, metadata


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
except (AttributeError, NameError):  # imported by something else (the doctest collector)
    pass
else:
    _main()
