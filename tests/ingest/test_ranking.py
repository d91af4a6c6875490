"""Card- and structure-aware hybrid search on a real slice of the full rulebook.

The corpus is built at test time from ../shared/corpus-extra: the Riftbound v1.3 rules of
sections 355 (choices, targeting), 809 (Deflect) and 811 (Hidden), and the full Riftbound
card data; ingested with the real model into embedded Chroma.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from ingest import ingest, open_index
from ingest.index import RuleIndex
from ingest.settings import Settings

SECTIONS = ("355", "809", "811")


@pytest.fixture(scope="module")
def sliced_index(tmp_path_factory: pytest.TempPathFactory, shared_dir: Path) -> RuleIndex:
    base = tmp_path_factory.mktemp("ranking")
    corpus = base / "corpus"
    corpus.mkdir()
    extra = shared_dir / "corpus-extra"
    lines = (extra / "riftbound-core-rules-v1.3-2026-03-30.txt").read_text(encoding="utf-8").splitlines()
    keep = [ln for ln in lines if re.match(rf"^(?:{'|'.join(SECTIONS)})\.(?:\s|\d)", ln)]
    (corpus / "rules.txt").write_text("\n".join(keep) + "\n", encoding="utf-8")
    shutil.copyfile(extra / "riftbound-cards-riftboundoc-2026-03-28.json", corpus / "cards.json")
    (corpus / "corpus.toml").write_text(
        '[games.riftbound]\nname = "Riftbound"\n\n'
        '[[documents]]\npath = "rules.txt"\nid = "rb"\ngame = "riftbound"\nnumbered = true\n\n'
        '[[cards]]\npath = "cards.json"\ngame = "riftbound"\n',
        encoding="utf-8",
    )
    settings = Settings(corpus=[corpus], index_dir=base / "index", db_path=base / "db.sqlite3")
    summary = ingest(settings)
    assert not summary.errors and summary.rules > 50 and summary.cards > 900
    return open_index(settings)


def _numbers(hits: list) -> list[str]:
    return [h.rule.number for h in hits]


def test_a_named_cards_keyword_rules_become_candidates(sliced_index: RuleIndex) -> None:
    hits = sliced_index.search("my opponent has navori scout, does my spell cost more to choose it?", game="riftbound", k=5)
    assert any(n.startswith("809.") for n in _numbers(hits[:3]))
    assert all("card" in h.via for h in hits if h.rule.number.startswith("809."))


def test_the_card_is_what_brings_the_keyword(sliced_index: RuleIndex) -> None:
    plain = sliced_index.search("my opponent has a unit, does my spell cost more to choose it?", game="riftbound", k=5)
    assert not any("card" in h.via for h in plain)


def test_misspelled_card_still_brings_its_keyword(sliced_index: RuleIndex) -> None:
    ctx = sliced_index.ranking_context("riftbound")
    from ingest.ranking import plan_query

    plan = plan_query("blastcone fay played from facedown, where can its -2 go", ctx)
    assert [m.card.name for m in plan.cards] == ["Blastcone Fae"] and plan.card_keywords == ["hidden"]
    hits = sliced_index.search("blastcone fay played from facedown, where can its -2 go", game="riftbound", k=5)
    assert any(n.startswith("811.") for n in _numbers(hits))


def test_a_rule_family_does_not_fill_every_result(sliced_index: RuleIndex) -> None:
    for query in ("deflect cost when a spell chooses my unit", "hidden card played from facedown at a battlefield"):
        hits = sliced_index.search(query, game="riftbound", k=5)
        groups = [".".join(h.rule.number.split(".")[:2]) for h in hits]
        assert len(hits) == 5 and max(groups.count(g) for g in groups) <= 3


def test_named_rule_comes_first_and_its_subrules_follow(sliced_index: RuleIndex) -> None:
    hits = sliced_index.search("what does 811.1.d mean for my hidden spell", game="riftbound", k=5)
    assert hits[0].rule.number == "811.1.d" and hits[0].via[0] == "number"
    assert sum(n.startswith("811.1.d.") for n in _numbers(hits[1:])) >= 2


def test_bare_title_is_not_a_top_hit(sliced_index: RuleIndex) -> None:
    hits = sliced_index.search("deflect", game="riftbound", k=5)
    assert hits[0].rule.number != "809" and hits[0].rule.number.startswith("809.")


def test_cross_referenced_rule_joins_the_results(sliced_index: RuleIndex) -> None:
    hits = sliced_index.search("a spell played from hidden with no valid targets there", game="riftbound", k=10)
    numbers = _numbers(hits)
    assert "811.1.d" in numbers
    assert "355.6" in numbers  # 811.1.d says "See rule 355.6. Targeting"
