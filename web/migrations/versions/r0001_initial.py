"""Conversations, answers, feedback, follow-up state and Discord guild settings.

The tables of the SQLite store that predates migrations: a database that already
has them (created before Alembic) keeps them and their rows as they are.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    if "conversations" not in existing:
        op.create_table(
            "conversations",
            sa.Column("id", sa.Text, primary_key=True),
            sa.Column("created", sa.Float, nullable=False),
        )
    if "answers" not in existing:
        op.create_table(
            "answers",
            sa.Column("id", sa.Text, primary_key=True),
            sa.Column(
                "conversation_id", sa.Text, sa.ForeignKey("conversations.id"), nullable=False
            ),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("question", sa.Text, nullable=False),
            sa.Column("game", sa.Text),
            sa.Column("verdict", sa.Text, nullable=False),
            sa.Column("body", sa.Text, nullable=False),
        )
        op.create_index("answers_by_conversation", "answers", ["conversation_id", "created"])
    if "feedback" not in existing:
        op.create_table(
            "feedback",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("answer_id", sa.Text, sa.ForeignKey("answers.id"), nullable=False),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("helpful", sa.Boolean, nullable=False),
            sa.Column("comment", sa.Text),
        )
    if "conversation_state" not in existing:
        op.create_table(
            "conversation_state",
            sa.Column("conversation_id", sa.Text, primary_key=True),
            sa.Column("state", sa.Text, nullable=False),
            sa.Column("updated", sa.Float, nullable=False),
        )
    if "guild_settings" not in existing:
        op.create_table(
            "guild_settings",
            sa.Column("guild_id", sa.Text, primary_key=True),
            sa.Column("game", sa.Text, nullable=False),
            sa.Column("updated", sa.Float, nullable=False),
        )


def downgrade() -> None:
    for table in ("guild_settings", "conversation_state", "feedback", "answers", "conversations"):
        op.drop_table(table)
