"""Parsing the corpus files into rule numbers/anchors (docs/anchors.md), without embedding."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from ingest.cards import normalize_name, parse_cards
from ingest.manifest import resolve_corpus
from ingest.parsers import DocSource, ParseError, parse_document, parse_text


def _docs(corpus: Path) -> dict[str, DocSource]:
    return {d.id: d for d in resolve_corpus([corpus]).documents}


@pytest.fixture(scope="module")
def default_docs(shared_dir: Path) -> dict[str, DocSource]:
    return _docs(shared_dir / "corpus")


@pytest.fixture(scope="module")
def extra_docs(shared_dir: Path) -> dict[str, DocSource]:
    return _docs(shared_dir / "corpus-extra")


def _numbers_printed(path: Path, pattern: str) -> list[str]:
    """Numbers as printed at line starts of the raw file (trailing dot dropped)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(pattern, line.strip())
        if m:
            out.append(m.group(1))
    return out


def test_riftbound_core_rules_numbers(default_docs: dict[str, DocSource]) -> None:
    src = default_docs["riftbound-core-rules"]
    rules = parse_document(src)
    expected = _numbers_printed(src.path, r"^(355(?:\.\d+)*)\.\s")
    assert [r.number for r in rules] == expected
    assert "355.14" in expected and expected[0] == "355"
    by = {r.number: r for r in rules}
    assert by["355.14"].parents == ["355"]
    assert by["355.15"].refs == ["750"]  # "See rule 750"
    assert all(r.version == "2026-10-09" for r in rules)  # manifest `updated`


def test_momon_numbers_and_heading(default_docs: dict[str, DocSource]) -> None:
    src = default_docs["momon-wonder-cr"]
    rules = parse_document(src)
    nums = [r.number for r in rules]
    assert nums[0] == "11.4"
    assert rules[0].heading == "Targets and Choices"  # '# 11.4 Targets and Choices'
    assert nums[1:] == _numbers_printed(src.path, r"^(11\.4\.\d+)\s")
    assert len(nums) == 10
    by = {r.number: r for r in rules}
    assert by["11.4.5"].parents == ["11.4", "11"]
    assert "1.8" in by["11.4.5"].refs  # "Section 1.8"
    assert "12.3.2" in by["11.4.6"].refs  # "Section 12.3.2"


def test_guide_paragraphs(default_docs: dict[str, DocSource]) -> None:
    rules = parse_document(default_docs["riftbound-targets-guide"])
    assert [r.number for r in rules] == [f"p{i}" for i in range(1, 11)]
    # first words as listed in docs/anchors.md
    starts = {
        "p1": "A spell or activated or triggered ability can target without saying",
        "p2": "The actual rules also exclude",
        "p3": "A single legal option",
        "p4": "\"Ready your legend\"",
        "p5": "For split damage",
        "p6": "With Alpha Strike and a friendly unit currently at 5 Might",
        "p7": "Now use the fuller Alpha Strike case",
        "p8": "This special reduction",
        "p9": "A group requirement",
        "p10": "For the Core Rules",
    }
    for r in rules:
        assert r.text.startswith(starts[r.number]), r.number
        assert not r.numbered and r.parents == []


TARGET_ANCHORS = [
    "target", "target.1", "target.2", "target.2.1", "target.2.2", "target.2.3", "target.3",
    "target.3.1", "target.3.2", "target.3.3", "target.3.4", "target.3.5", "target.3.6",
    "target.3.7", "target.3.8", "target.3.9", "target.3.10", "target.4", "target.4.1",
    "target.4.2", "target.5", "target.6",
]


def test_marvel_target_anchors(default_docs: dict[str, DocSource]) -> None:
    rules = parse_document(default_docs["marvel-champions-rr-target"])
    assert [r.number for r in rules] == TARGET_ANCHORS
    by = {r.number: r for r in rules}
    # indented "For example" paragraphs belong to the bullet above (docs/anchors.md)
    assert "deal 5 damage to a minion" in by["target.2"].text
    assert "THW of 0 can perform a basic thwart" in by["target.3.2"].text
    assert "cannot ready" in by["target.3.5"].text
    assert "Stun that enemy" in by["target.3.10"].text
    assert "crisis" in by["target.4.2"].text
    assert "draw" in by["target.2.3"].text and "search" in by["target.6"].text
    assert by["target.3.10"].parents == ["target.3", "target"]
    assert "See also" not in by["target.6"].text


def test_mtg_rules_and_not_glossary(extra_docs: dict[str, DocSource]) -> None:
    rules = parse_document(extra_docs["mtg-cr"])
    by = {r.number: r for r in rules}
    assert by["601.2c"].parents == ["601.2", "601"]
    assert by["115.1a"].parents == ["115.1", "115"]
    nums = [r.number for r in rules]
    assert len(nums) == len(set(nums))  # the contents list does not duplicate sections
    assert nums[0] == "100"
    # glossary and credits after the last rule are not rules nor rule text
    assert not any(r.number[0] in "12345678" and len(r.number.split(".")[0]) != 3 for r in rules)
    last = rules[-1]
    assert last.number.startswith("905") and "Glossary" not in last.text
    assert by["100.1"].heading or by["100.1"].text


def test_riftbound_editions_parse(extra_docs: dict[str, DocSource]) -> None:
    full = {r.number: r for r in parse_document(extra_docs["riftbound-core-rules-v1.3"])}
    excerpt = {r.number: r for r in parse_document(extra_docs["riftbound-core-rules-rup4"])}
    assert "355.14" in full and "355.14" in excerpt
    assert excerpt["355.14.h.1"].parents == ["355.14.h", "355.14", "355"]
    assert "750" in excerpt and "758.1" in excerpt
    assert excerpt["355.14"].version > full["355.14"].version
    assert not any("omitted" in r.text or "EXCERPT ONLY" in r.text for r in excerpt.values())


def test_marvel_rules_reference_glossary(extra_docs: dict[str, DocSource]) -> None:
    rules = parse_document(extra_docs["marvel-champions-rr"])
    nums = {r.number for r in rules}
    for slug in ("target", "attack-enemy-activation", "basic-power", "ready", "ability"):
        assert slug in nums, slug
    assert any(n.startswith("target.") for n in nums)
    assert "appendix-ii-setup" in nums  # an appendix without entries gets its heading slug
    assert len(nums) == len(rules)


def test_broken_file_names_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"101. Fine rule.\n102. Also fine.\n103. Broken \xff byte.\n")
    with pytest.raises(ParseError, match=r"bad\.txt:3"):
        parse_document(DocSource(id="bad", game="g", path=bad, numbered=True))


def test_html_and_pdf_inputs(tmp_path: Path) -> None:
    html = tmp_path / "r.html"
    html.write_text(
        "<html><body><nav>Back to Home</nav><p>Skip to main content</p>"
        "<p>101. First rule text.</p><p>101.1. A subrule. See rule 102.</p><p>102. Second.</p>"
        "</body></html>",
        encoding="utf-8",
    )
    rules = parse_document(DocSource(id="h", game="g", path=html))
    assert [r.number for r in rules] == ["101", "101.1", "102"]
    assert rules[1].refs == ["102"]

    from pypdf import PdfWriter

    pdf = tmp_path / "empty.pdf"
    w = PdfWriter()
    w.add_blank_page(width=72, height=72)
    with open(pdf, "wb") as fh:
        w.write(fh)
    with pytest.raises(ParseError, match="empty.pdf"):
        parse_document(DocSource(id="p", game="g", path=pdf))


def test_furniture_stripped_from_parse() -> None:
    text = (
        "> For the complete documentation index, see [llms.txt](https://x/llms.txt).\n\n"
        "# 2.1 Title\n\n2.1.1 A [linked](https://x) rule.\n\n---\n\n# Agent Instructions\n"
        "Do things.\n## Querying This Documentation\nGET https://x?ask=q\n"
    )
    rules = parse_text(text, DocSource(id="m", game="g", path=Path("x.md"), numbered=True))
    assert [r.number for r in rules] == ["2.1", "2.1.1"]
    assert rules[1].text == "A linked rule."
    joined = " ".join(r.text for r in rules)
    for bad in ("Agent Instructions", "GET https", "documentation index", "---"):
        assert bad not in joined


def test_cards_parse(shared_dir: Path) -> None:
    manifest = tomllib.loads((shared_dir / "corpus-extra" / "corpus.toml").read_text())
    for entry in manifest["cards"]:
        cards = parse_cards(shared_dir / "corpus-extra" / entry["path"], entry["game"])
        assert len(cards) > 100
        assert all(c.name and c.game == entry["game"] for c in cards)
        assert sum(1 for c in cards if c.text) > len(cards) / 2
        assert any(c.stats for c in cards) and any(c.types for c in cards)
    assert normalize_name("Rek\u2019Sai,  Void-Burrower!") == normalize_name("rek'sai void burrower")
