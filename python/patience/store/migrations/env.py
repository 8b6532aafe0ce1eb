"""Alembic's environment: runs migrations on the connection :func:`patience.store.db.migrate`
passes in."""

from alembic import context

from patience.store.db import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
