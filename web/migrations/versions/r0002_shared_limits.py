"""Shared rate limits and Discord interaction de-duplication.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_limits",
        sa.Column("key", sa.Text, primary_key=True),
        sa.Column("tat", sa.Float, nullable=False),
    )
    op.create_table(
        "discord_interactions",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index(
        "ix_discord_interactions_expires", "discord_interactions", ["expires"]
    )


def downgrade() -> None:
    op.drop_index("ix_discord_interactions_expires", table_name="discord_interactions")
    op.drop_table("discord_interactions")
    op.drop_table("rate_limits")
