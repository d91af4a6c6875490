"""Parsing the corpus files into rule numbers/anchors (docs/anchors.md), without embedding."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from ingest.cards import normalize_name, parse_cards
from ingest.manifest import resolve_corpus
from ingest.numbers import sort_key
from ingest.parsers import DocSource, ParseError, parse_document, parse_text, slugify


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


def test_mtg_rules_then_glossary_entries(extra_docs: dict[str, DocSource]) -> None:
    rules = parse_document(extra_docs["mtg-cr"])
    by = {r.number: r for r in rules}
    assert by["601.2c"].parents == ["601.2", "601"]
    assert by["115.1a"].parents == ["115.1", "115"]
    nums = [r.number for r in rules]
    assert len(nums) == len(set(nums))  # the contents list does not duplicate sections
    assert nums[0] == "100"
    numbered = [r for r in rules if r.numbered]
    assert not any(r.number[0] in "12345678" and len(r.number.split(".")[0]) != 3 for r in numbered)
    last = numbered[-1]
    assert last.number.startswith("905") and "Glossary" not in last.text
    assert by["100.1"].heading or by["100.1"].text
    # The glossary after the rules: blank-line separated blocks "Term" + definition lines,
    # up to "Credits", each an entry cited by the slug of its term (read from the file).
    raw = extra_docs["mtg-cr"].path.read_text(encoding="utf-8").replace("\r\n", "\n")
    body = raw[raw.rindex("\nGlossary\n") + len("\nGlossary\n"): raw.rindex("\nCredits\n")]
    blocks = [b.strip().split("\n") for b in re.split(r"\n\s*\n", body) if b.strip()]
    blocks = [b for b in blocks if len(b) >= 2]
    glossary = [r for r in rules if not r.numbered]
    assert len(glossary) == len(blocks) > 100
    for rule, block in zip(glossary, blocks):
        assert rule.number.startswith(slugify(block[0])), (rule.number, block[0])
        assert rule.heading == block[0].strip()
        assert rule.text.split("\n")[0] == " ".join(block[1].split())
        assert rule.parents == []
    assert glossary[0].order > last.order
    # the definitions are not appended to the last numbered rule
    assert blocks[0][1].strip()[:40] not in last.text


def test_numbered_glossary_synthetic() -> None:
    text = "Intro\n\n1.1. First rule.\n1.2. Second rule.\n\nGlossary\n\nFoo Bar\nA thing.\nSee rule 1.2.\n\nBaz\nAnother.\n\nCredits\n\nSomebody\nwrote it.\n"
    rules = parse_text(text, DocSource(id="d", game="g", path=Path("x.txt"), numbered=True))
    assert [r.number for r in rules] == ["1.1", "1.2", "foo-bar", "baz"]
    assert rules[2].text == "A thing.\nSee rule 1.2." and rules[2].refs == ["1.2"]
    assert rules[1].text == "Second rule."


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


def test_marvel_rules_reference_paragraph_after_bullets(extra_docs: dict[str, DocSource]) -> None:
    """An unindented paragraph after an entry's bullets is its own passage ``slug.pN``."""
    rules = parse_document(extra_docs["marvel-champions-rr"])
    by = {r.number: r for r in rules}
    after = [r for r in rules if re.fullmatch(r"[a-z0-9-]+\.p\d+", r.number)]
    assert after
    for r in after:
        entry = by[r.parents[0]]
        assert r.parents == [entry.number] and r.heading == entry.heading
        assert int(r.number.rsplit(".p", 1)[1]) >= 2
        assert r.text not in entry.text  # not appended to the entry's opening text
        # it comes after at least one bullet of the same entry
        assert any(b.order < r.order and re.fullmatch(rf"{re.escape(entry.number)}(?:\.\d+)+", b.number) for b in rules)


def test_glossary_paragraph_after_bullets_synthetic() -> None:
    text = (
        "# Doc\n\n### ALPHA\n\nOpening one.\n\n* First bullet.\n  * Nested bullet.\n"
        "  For example, an indented line.\n\nAfter the bullets,\nwrapped.\n\n* Second bullet.\n\n"
        "Another paragraph.\n\n### BETA\n\nOpening a.\n\nOpening b.\n\n* Only bullet.\n\nClosing.\n"
    )
    rules = parse_text(text, DocSource(id="d", game="g", path=Path("x.md"), numbered=False))
    by = {r.number: r.text for r in rules}
    assert list(by) == ["alpha", "alpha.1", "alpha.1.1", "alpha.p2", "alpha.2", "alpha.p3",
                        "beta", "beta.1", "beta.p3"]
    assert by["alpha"] == "Opening one."
    assert by["alpha.1.1"] == "Nested bullet. For example, an indented line."
    assert by["alpha.p2"] == "After the bullets, wrapped."
    assert by["beta"] == "Opening a.\nOpening b."


def test_riftbound_v13_capture_damage_repaired(extra_docs: dict[str, DocSource]) -> None:
    """Numbers whose dot is misplaced ("N. t text") or glued to debris ("xxN. text") are
    repaired where they fit the order; the expectations are read from the raw file."""
    src = extra_docs["riftbound-core-rules-v1.3"]
    rules = parse_document(src)
    nums = [r.number for r in rules]
    assert len(nums) == len(set(nums))
    assert [sort_key(n) for n in nums] == sorted(sort_key(n) for n in nums)
    by = {r.number: r for r in rules}
    seen: set[str] = set()
    glued = split = 0
    for line in src.path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if m := re.match(r"^[A-Za-z]+(\d{3})\.\s+(\S.{20})", line):
            glued += 1
            assert by[m.group(1)].text.startswith(m.group(2))
        elif (m := re.match(r"^(\d{3}(?:\.[0-9a-z]+)*)\.\s+([0-9a-z]{1,2})\s+(\S.{10})", line)) and m.group(1) in seen:
            # already printed: the token after the dot is the number's last part
            split += 1
            joined = f"{m.group(1)}.{m.group(2)}"
            assert by[joined].text.startswith(m.group(3)), joined
            assert not by[m.group(1)].text.endswith(m.group(3))
        if m := re.match(r"^(\d{3}(?:\.[0-9a-z]+)*)\.", line):
            seen.add(m.group(1))
    assert glued >= 1 and split >= 1


def test_capture_damage_synthetic() -> None:
    text = "101. One.\n101.1. Sub.\n101. 2 Split dot.\nXy102. Glued.\nAb101.5. Out of order stays text.\n103. Three.\n"
    rules = parse_text(text, DocSource(id="d", game="g", path=Path("x.txt"), numbered=True))
    by = {r.number: r.text for r in rules}
    assert list(by) == ["101", "101.1", "101.2", "102", "103"]
    assert by["101.2"] == "Split dot." and by["102"].startswith("Glued.")


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
