"""Alembic environment: runs on the engine the server passes in ``config.attributes``."""

from alembic import context

from obelisk.server.store import Base

engine = context.config.attributes["engine"]
with engine.begin() as connection:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()
