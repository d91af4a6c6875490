"""End to end on the full default corpus: what a new user's `make serve` ingests, the
editions rule, the Magic game, every policy citation resolving, and the dev set."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.evaluate import run
from assistant.service import Assistant
from engine.policies import available_games, get_policy
from engine.policies.riftbound import RiftboundPolicy
from ingest.settings import Settings

pytestmark = pytest.mark.full_corpus


def test_a_new_user_gets_the_full_corpus(shared_dir: Path) -> None:
    assert Settings().corpus == [(shared_dir / "corpus").resolve(),
                                 (shared_dir / "corpus-extra").resolve()]


def test_full_corpus_loads_every_game_document_and_card_file(full_index: object) -> None:
    games = {g.id for g in full_index.games()}  # type: ignore[attr-defined]
    assert games == {"riftbound", "marvel-champions", "momon-wonder", "mtg"}
    docs = {d.id for d in full_index.documents()}  # type: ignore[attr-defined]
    assert {"mtg-cr", "riftbound-core-rules-v1.3", "riftbound-core-rules-rup4",
            "marvel-champions-rr"} <= docs
    assert full_index.card("Blazing Scorcher", "riftbound") is not None  # type: ignore[attr-defined]


def test_newest_edition_decides_and_older_stays_citable(full_index: object) -> None:
    # 355.14 is numbered by the seed excerpt (2026-10-09), RUP4 (2026-07-16) and v1.3.
    got = full_index.lookup("355.14", "riftbound")  # type: ignore[attr-defined]
    assert got is not None
    order = [got.rule.doc, *(e.doc for e in got.editions)]
    assert order == ["riftbound-core-rules", "riftbound-core-rules-rup4",
                     "riftbound-core-rules-v1.3"]
    assert full_index.get("riftbound-core-rules-v1.3", "355.14") is not None  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", ["mtg", "riftbound", "marvel-champions", "momon-wonder"])
def test_every_policy_citation_is_a_loaded_rule(full_index: object, game: str) -> None:
    policy = get_policy(game)
    missing = [f"{c}: {r.doc} {r.rule}" for c, refs in policy.citation_table().items()
               for r in refs if full_index.get(r.doc, r.rule) is None]  # type: ignore[attr-defined]
    assert not missing


@pytest.mark.parametrize("doc", ["riftbound-core-rules-v1.3", "riftbound-core-rules-rup4"])
def test_riftbound_full_editions_cite_loaded_rules(full_index: object, doc: str) -> None:
    policy = RiftboundPolicy(core_doc=doc)
    missing = [f"{c}: {r.doc} {r.rule}" for c, refs in policy.citation_table().items()
               for r in refs if full_index.get(r.doc, r.rule) is None]  # type: ignore[attr-defined]
    assert not missing


def test_magic_is_a_game_with_a_policy() -> None:
    assert "mtg" in available_games()


# The first questions on the full corpus build what answering derives from it once (every
# rule fact's wordings embedded, each game's fact classifier trained: minutes on two cores
# from a clean clone); the default timeout guards against hangs, not against that build.
@pytest.mark.timeout(1800)
def test_dev_set_stays_perfect_on_the_full_corpus(full_settings: Settings, full_index: object,
                                                  shared_dir: Path) -> None:
    assistant = Assistant(full_settings, index=full_index)  # type: ignore[arg-type]
    report = run(assistant, shared_dir / "eval" / "dev.jsonl")
    assert (report.accuracy, report.wrong) == (1.0, 0), report.misses


def test_a_card_question_reads_the_cards_printed_text(full_settings: Settings,
                                                      full_index: object) -> None:
    assistant = Assistant(full_settings, index=full_index)  # type: ignore[arg-type]
    ans = assistant.ask("If I play Tibbers, does its play trigger target the units?",
                        game="riftbound")
    assert ans.verdict == "no", ans.answer
    assert 'Card text used, Tibbers (printing OGS-018/024): "When you play me, deal 3 to all ' \
           'units at battlefields."' in ans.answer
    editions = {d.id: d.version for d in full_index.documents()}  # type: ignore[attr-defined]
    assert ans.citations
    assert [c.edition for c in ans.citations] == [editions[c.doc] for c in ans.citations]
    assert any(c.edition for c in ans.citations)


def test_a_card_whose_text_does_not_fully_read_is_an_abstention(full_settings: Settings,
                                                                full_index: object) -> None:
    assistant = Assistant(full_settings, index=full_index)  # type: ignore[arg-type]
    ans = assistant.ask("Can I play Hextech Ray on a unit at a battlefield?", game="riftbound")
    assert ans.verdict == "unknown"
    assert ans.error is not None and "Hextech Ray" in ans.error and "(Play on your turn" in ans.error


def test_every_packaged_rule_fact_is_cited_from_a_rule_of_the_full_corpus(full_settings: Settings,
                                                                          full_index: object) -> None:
    from assistant.facts import load_facts

    assistant = Assistant(full_settings, index=full_index)  # type: ignore[arg-type]
    cited = assistant.facts.facts
    assert {f.id for f in cited} == {f.id for f in load_facts()}
    assert {f.game for f in cited} >= {"riftbound", "marvel-champions", "mtg"}
    for f in cited:
        assert full_index.get(f.doc, f.rule) is not None, f.id  # type: ignore[attr-defined]


@pytest.mark.parametrize("question, game, verdict, doc", [
    # Our own wording of rules of the full documents, which the seed excerpts do not hold.
    ("how many copies of one card can i put in my main deck?", "riftbound", 3, "riftbound-core-rules-v1.3"),
    ("does lifelink work when my creature deals noncombat damage to a player?", "mtg", "yes", "mtg-cr"),
])
def test_a_rule_of_the_full_documents_settles_an_abstract_question(full_settings: Settings, full_index: object,
                                                                   question: str, game: str, verdict: object,
                                                                   doc: str) -> None:
    assistant = Assistant(full_settings, index=full_index)  # type: ignore[arg-type]
    ans = assistant.ask(question, game=game)
    got = ans.value if isinstance(verdict, int) else ans.verdict
    assert got == verdict, ans.answer
    assert ans.citations and ans.citations[0].doc == doc
    for c in ans.citations:
        assert full_index.verify_quote(c.doc, c.rule, c.quote)  # type: ignore[attr-defined]
