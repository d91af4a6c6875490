"""Alembic environment: migrations run on the connection ``web.db`` hands over."""

from __future__ import annotations

from alembic import context

from web.db import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations with `arbiter db upgrade` (it supplies the connection)")

context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
