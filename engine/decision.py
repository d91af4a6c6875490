"""Decision models: what :func:`engine.decide` returns."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class RuleRef(BaseModel):
    """A citation: document id (from corpus.toml) and rule id (docs/anchors.md)."""

    model_config = ConfigDict(frozen=True)

    doc: str
    rule: str


class Step(BaseModel):
    """One step of the decision, with the rule it applied."""

    model_config = ConfigDict(frozen=True)

    doc: str
    rule: str
    step: str
    result: str


class Option(BaseModel):
    """One legal option of an enumeration: a target set / subset (``objects``) and, for
    splits and distributions, the amount per object."""

    model_config = ConfigDict(frozen=True)

    objects: list[str]
    amounts: dict[str, int] | None = None


class Decision(BaseModel):
    """The engine's ruling. ``verdict`` yes/no; ``value`` for "how many" questions;
    ``rules`` most decisive first; ``reason`` one line in players' terms; ``trace`` the
    ordered steps; ``options`` the legal choices for enumeration questions (``None`` when
    not enumerated, e.g. too many)."""

    model_config = ConfigDict(frozen=True)

    verdict: Literal["yes", "no"]
    value: int | None = None
    rules: list[RuleRef] = Field(default_factory=list)
    reason: str
    trace: list[Step] = Field(default_factory=list)
    options: list[Option] | None = None
