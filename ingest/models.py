"""Records the ingester produces and the index returns."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Rule(BaseModel):
    """One rule (numbered) or one anchored passage (unnumbered) of a document."""

    doc: str = Field(description="Document id from the corpus manifest.")
    game: str = Field(description="Game id from the corpus manifest.")
    number: str = Field(
        description="Rule number exactly as printed (355.14.h.1, 601.2c) or the stable anchor "
        "of an unnumbered passage (p3, target.b2.1, entry:attack)."
    )
    heading: str = Field(default="", description="Heading or first words of the rule.")
    text: str = Field(description="Rule text, furniture stripped.")
    parents: list[str] = Field(
        default_factory=list, description="Parent chain, nearest first: 355.14.h.1 -> [355.14.h, 355.14, 355]."
    )
    refs: list[str] = Field(default_factory=list, description="Cross-references the rule makes.")
    version: str = Field(default="", description="Document version or date.")
    title: str = Field(default="", description="Document title.")
    numbered: bool = Field(default=True, description="False for anchored passages.")
    order: int = Field(default=0, description="Position of the rule in its document.")

    @property
    def key(self) -> str:
        return f"{self.doc}::{self.number}"


class Card(BaseModel):
    """A card record from card data, kept apart from rules for exact name lookup."""

    name: str
    game: str
    types: list[str] = Field(default_factory=list)
    stats: dict[str, str] = Field(default_factory=dict)
    text: str = ""
    source: str = ""
    printing: str = Field(default="", description="The printing's code in the card data "
                          "(publicCode, code or id), e.g. OGN-001/298.")


class SearchHit(BaseModel):
    rule: Rule
    score: float = Field(description="Fused score (higher is better).")
    via: list[str] = Field(default_factory=list, description="Which retrievers found it: dense, bm25, number.")


class DocumentInfo(BaseModel):
    id: str
    game: str
    title: str = ""
    version: str = ""
    path: str = ""
    rules: int = 0
    numbered: bool = True


class GameInfo(BaseModel):
    id: str
    name: str = ""
    terms: list[str] = Field(default_factory=list)
    documents: list[DocumentInfo] = Field(default_factory=list)
    cards: int = 0


class IngestSummary(BaseModel):
    documents: int = 0
    rules: int = 0
    cards: int = 0
    seconds: float = 0.0
    changed: list[str] = Field(default_factory=list, description="Document ids (re)embedded.")
    removed: list[str] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list, description="Per-file errors (file and line).")
    unchanged: bool = False
