"""Alembic environment: runs on the connection that :func:`eloleague.store.db.migrate` passes in."""

from __future__ import annotations

from alembic import context

from eloleague.store.tables import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
