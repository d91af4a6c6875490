"""The rulebook's structure for ranking (real documents from ../shared/corpus-extra)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.index import stem
from ingest.parsers import DocSource, parse_document
from ingest.structure import RuleStructure, heading_names


@pytest.fixture(scope="module")
def riftbound(shared_dir: Path) -> RuleStructure:
    path = shared_dir / "corpus-extra" / "riftbound-core-rules-v1.3-2026-03-30.txt"
    return RuleStructure(parse_document(DocSource(id="rb", game="riftbound", path=path, numbered=True)), stem=stem)


@pytest.fixture(scope="module")
def mtg(shared_dir: Path) -> RuleStructure:
    path = shared_dir / "corpus-extra" / "mtg-comprehensive-rules-20260116.txt"
    return RuleStructure(parse_document(DocSource(id="mtg", game="mtg", path=path, numbered=True)), stem=stem)


def test_glossary_heading_names() -> None:
    assert heading_names("CONFUSE, CONFUSED") == ["confuse", "confused"]
    assert heading_names("ATTACK (PLAYER ACTION)") == ["attack player action", "attack"]
    assert heading_names("RETALIATE X") == ["retaliate x", "retaliate"]
    assert heading_names("\u201cAFTER\u201d") == ["after"]


def test_titled_section_is_a_term_and_its_family_holds_the_subrules(riftbound: RuleStructure) -> None:
    assert riftbound.terms["deflect"] == ["rb::809"]
    assert riftbound.is_title("rb::809") and not riftbound.is_title("rb::809.1.c")
    family = riftbound.family("rb::809")
    assert family[0] == "rb::809" and "rb::809.1.c.1" in family and "rb::810" not in family


def test_group_is_the_first_two_number_tokens(riftbound: RuleStructure, mtg: RuleStructure) -> None:
    assert riftbound.group(riftbound.by_key["rb::811.1.d.2"]) == "rb::811.1"
    assert mtg.group(mtg.by_key["mtg::702.21a"]) == "mtg::702.21"
    assert mtg.group(mtg.by_key["mtg::ward"]) == "mtg::ward"


def test_terms_in_a_question_forgive_inflection(mtg: RuleStructure, riftbound: RuleStructure) -> None:
    assert mtg.terms_in("trample + deathtouch attacker, equipping it, protection from red") == [
        "trample", "deathtouch", "equip", "protection"
    ]
    assert "hidden" in riftbound.terms_in("played from hidden at a battlefield")


def test_glossary_pointer_resolves_to_the_rule_it_names(mtg: RuleStructure) -> None:
    ward = mtg.by_key["mtg::ward"]
    assert mtg.is_pointer(ward) and mtg.refs(ward) == ["mtg::702.21"]
    assert not mtg.is_pointer(mtg.by_key["mtg::702.21a"])


def test_cross_reference_in_rule_text_is_resolved(riftbound: RuleStructure) -> None:
    assert riftbound.refs(riftbound.by_key["rb::811.1.d"]) == ["rb::355.6"]


def test_rare_term_outweighs_common_one(mtg: RuleStructure) -> None:
    assert mtg.rarity("hexproof") > 2 * mtg.rarity("creature")
