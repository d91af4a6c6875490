"""Rule documents -> :class:`~ingest.models.Rule` records.

Reading (:func:`read_text`): .txt/.md are strict UTF-8 (an undecodable byte is a
:class:`ParseError` naming the file and line), .html/.htm go through BeautifulSoup to text,
.pdf through pypdf (lines repeated on most pages, i.e. page headers and footers, are
dropped). Furniture is then stripped (:mod:`ingest.furniture`) and one of three parsers runs:

Numbered (``numbered = true``; auto-detected for bare files)
    A rule starts at a line ``NUMBER text`` (``355.14.h.1. ...``, ``11.4.1 ...``,
    ``601.2c ...``, ``**355.1.** ...``) or a markdown heading ``# 11.4 Title`` (that rule's
    heading). A candidate is only a rule when its number sorts after the previous rule's
    and its first token has the document's usual width; otherwise it is text that happens to
    start with a number (a line-wrapped "5." in the Riftbound v1.3 capture), or, when it
    stands alone between blank lines, a chapter title ("1. Game Concepts") that is not a
    rule. Other lines continue the current rule: a blank line starts a new paragraph
    (joined with a newline), a wrapped line is joined with a space. Lines before the first
    rule (title, introduction) are not rules. A "Contents" block is skipped until its first
    entry reappears; a "Glossary" or "Credits" line after the rules ends them (MTG). A
    glossary there becomes entries cited by the slug of their term (``ability``,
    ``active-player-nonactive-player-order``) until "Credits". Capture damage is repaired
    only where the repaired number fits between its neighbours: a dot printed before the
    last token (``461. 4 The ...`` -> ``461.4``, ``461.7. b ...`` -> ``461.7.b``) and a
    number glued to a word fragment (``Refl391. ...`` -> ``391``).

Prose (unnumbered, no bullets or section headings)
    The first line is the title (the document heading); blank-line separated paragraphs
    after it are ``p1``, ``p2``, ...

Glossary (unnumbered with bullets or ``##``/``###`` headings)
    Each entry gets the slug of its name (``### READY, READIED`` -> ``ready-readied``; a
    .txt entry is named by its first line). Its opening paragraph(s) are rule ``slug``;
    bullets are numbered by position and depth (``slug.2.1``), depth being the rank of the
    bullet's indentation among the document's bullet indentations. An indented non-bullet
    line belongs to the bullet above it; an unindented line right after a bullet (no blank
    line) is that bullet's wrapped continuation; an unindented paragraph after bullets is a
    passage of its own, ``slug.pN`` (N counting the entry's paragraphs, opening ones
    included, so the first such paragraph after a one-paragraph opening is ``slug.p2``). Sections without entries (appendices) get the slug of
    their heading. "See also" lists become ``refs``.

Anchors depend only on document structure, so re-ingesting the same file gives the same ids.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ingest.errors import ArbiterError
from ingest.furniture import SEE_ALSO, strip_furniture
from ingest.models import Rule
from ingest.numbers import NUMBER_PATTERN, find_refs, parents, sort_key, top_width

DOCUMENT_SUFFIXES = {".txt", ".md", ".markdown", ".html", ".htm", ".pdf"}
MARKDOWN_SUFFIXES = {".md", ".markdown"}


class ParseError(ArbiterError, ValueError):
    """A document that cannot be read or yields no rules; the message names the file."""


@dataclass
class DocSource:
    """What the parser needs to know about one document (from corpus.toml or the CLI)."""

    id: str
    game: str
    path: Path
    title: str = ""
    version: str = ""
    numbered: bool | None = None
    extra: dict[str, str] = field(default_factory=dict)


# --------------------------------------------------------------------------- reading


def read_text(path: Path) -> str:
    """The document's text; raises :class:`ParseError` naming the file (and line)."""
    suffix = path.suffix.lower()
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ParseError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    if suffix == ".pdf":
        return _pdf_text(path, data)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ParseError(f"{path}:{line}: not valid UTF-8 text ({exc.reason})") from exc
    if suffix in {".html", ".htm"}:
        return _html_text(text)
    return text


def _html_text(html: str) -> str:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    for tag in soup(["script", "style", "nav", "header", "footer", "noscript"]):
        tag.decompose()
    text = soup.get_text("\n")
    # get_text leaves runs of blank lines; keep paragraph breaks single.
    return re.sub(r"\n\s*\n+", "\n\n", text)


def _pdf_text(path: Path, data: bytes) -> str:
    import io

    from pypdf import PdfReader

    try:
        reader = PdfReader(io.BytesIO(data))
        pages = [(page.extract_text() or "") for page in reader.pages]
    except Exception as exc:  # pypdf raises many types for damaged files
        raise ParseError(f"{path}: unreadable PDF: {exc}") from exc
    if len(pages) >= 3:
        # Page headers/footers: short lines present on most pages.
        counts = Counter(
            line.strip() for page in pages for line in set(page.splitlines()) if line.strip()
        )
        furniture = {
            line for line, c in counts.items() if c >= max(3, len(pages) // 2) and len(line) < 80
        }
        pages = [
            "\n".join(ln for ln in page.splitlines() if ln.strip() not in furniture)
            for page in pages
        ]
    return "\n\n".join(pages)


# --------------------------------------------------------------------------- helpers

_WS = re.compile(r"[ \t\u00a0]+")


def _clean(s: str) -> str:
    return _WS.sub(" ", s).strip()


def _join(paragraphs: list[list[str]]) -> str:
    return "\n".join(p for p in (_clean(" ".join(lines)) for lines in paragraphs) if p)


def slugify(name: str) -> str:
    """``READY, READIED`` -> ``ready-readied``; ``“ADDITIONAL”`` -> ``additional``."""
    s = name.lower().replace("&", " and ")
    s = re.sub(r"[\u2018\u2019'`\u201c\u201d\"]", "", s)
    s = re.sub(r"[^a-z0-9]+", "-", s)
    return s.strip("-") or "entry"


def _first_words(text: str, limit: int = 80) -> str:
    first = text.split("\n", 1)[0]
    if len(first) <= limit:
        return first
    cut = first[:limit].rsplit(" ", 1)[0]
    return cut + "\u2026"


def _title_like(text: str) -> bool:
    return len(text) <= 60 and not re.search(r"[.:;,]$", text) and "\n" not in text


# --------------------------------------------------------------------------- numbered

_CANDIDATE = re.compile(
    rf"^(?P<hash>#{{1,6}}\s+)?(?P<num>{NUMBER_PATTERN})(?P<dot>\.)?(?:\s+(?P<rest>.*))?$"
)
_HEADING = re.compile(r"^#{1,6}\s+(?P<text>.*)$")
_CONTENTS = re.compile(r"^(?:#{1,6}\s*)?(?:table of )?contents$", re.IGNORECASE)
_END_OF_RULES = re.compile(r"^(?:#{1,6}\s*)?(?:glossary|credits)$", re.IGNORECASE)
_BULLET = re.compile(r"^(?P<indent>[ \t]*)(?:[\u2022\u25aa\u25e6\u2023*]|[-\u2013](?=\s))\s+(?P<text>\S.*)$")


def _candidate(line: str) -> re.Match[str] | None:
    m = _CANDIDATE.match(line.strip())
    if not m:
        return None
    # A lone integer is only a number when printed as "355." or as a heading.
    if "." not in m.group("num") and not m.group("dot") and not m.group("hash"):
        return None
    if not re.search(r"\d", m.group("num")):
        return None
    return m


# A number glued to a stray word fragment by the capture ("Refl391. Delayed ..."): accepted
# only where the number fits the running order (see parse_numbered).
_GLUED = re.compile(r"^[A-Za-z]{1,8}(?P<num>\d+(?:\.(?:\d+|[a-z]))*)\.\s+(?P<rest>\S.*)$")
# "461. 4 The following ..." / "461.7. b All ...": the last token printed after the dot.
_SPLIT_TOKEN = re.compile(r"^(?P<tok>\d{1,2}|[a-z])\s+(?P<rest>\S.*)$")


def looks_numbered(lines: list[str]) -> bool:
    body = [ln for ln in lines if ln.strip()]
    hits = sum(1 for ln in body if _candidate(ln))
    return hits >= 3 and hits >= 0.3 * len(body)


@dataclass
class _Open:
    number: str
    heading: str
    paragraphs: list[list[str]]


def parse_numbered(lines: list[str], src: DocSource, version: str) -> list[Rule]:
    cands = [m for m in (_candidate(ln) for ln in lines) if m]
    widths = Counter(top_width(m.group("num")) for m in cands)
    width = widths.most_common(1)[0][0] if widths else 0

    rules: list[Rule] = []
    current: _Open | None = None
    last_key: tuple[tuple[int, int, str], ...] | None = None
    contents_until: str | None = None
    contents_pending = False
    blank_before = True

    def close() -> None:
        nonlocal current
        if current is None:
            return
        text = _join(current.paragraphs)
        heading = current.heading or (
            text if _title_like(text) else _first_words(text)
        )
        rules.append(
            Rule(
                doc=src.id,
                game=src.game,
                number=current.number,
                heading=heading,
                text=text or heading,
                parents=parents(current.number),
                refs=find_refs(text, current.number),
                version=version,
                title=src.title,
                numbered=True,
                order=len(rules),
            )
        )
        current = None

    for i, raw in enumerate(lines):
        line = raw.strip()
        if line.startswith(SEE_ALSO):
            continue
        if not line:
            blank_before = True
            if current is not None and current.paragraphs[-1]:
                current.paragraphs.append([])
            continue
        was_blank, blank_before = blank_before, False
        # Table of contents: skip until its first entry reappears.
        if contents_pending:
            contents_until, contents_pending = line, False
            continue
        if contents_until is not None:
            if line == contents_until:
                contents_until = None
            else:
                continue
        if last_key is None and _CONTENTS.match(line):
            contents_pending = True
            continue
        if last_key is not None and _END_OF_RULES.match(line):
            close()
            if line.lstrip("# ").lower() == "glossary":
                rules.extend(_numbered_glossary(lines[i + 1 :], src, version, len(rules)))
            break
        m = _candidate(line)
        number: str | None = None
        rest = ""
        if m:
            num = m.group("num")
            key = sort_key(num)
            next_blank = i + 1 >= len(lines) or not lines[i + 1].strip()
            rest = _clean(m.group("rest") or "")
            if top_width(num) != width:
                if was_blank and next_blank:
                    close()  # a chapter title such as "1. Game Concepts": not a rule
                    continue
            elif last_key is None or key > last_key:
                number = num
            elif (split := _SPLIT_TOKEN.match(rest)) and m.group("dot"):
                # "461. 4 The ..." after 461.3.d.1: rule 461.4 with its dot misplaced; taken
                # only when the joined number continues the order.
                joined = f"{num}.{split.group('tok')}"
                if sort_key(joined) > last_key and _before_next(lines, i, joined, width):
                    number, rest = joined, split.group("rest")
        elif (g := _GLUED.match(line)) and top_width(g.group("num")) == width:
            # "Refl391. ..." between 390.5.b and 392: rule 391 behind capture debris.
            num = g.group("num")
            if (last_key is None or sort_key(num) > last_key) and _before_next(lines, i, num, width):
                number, rest = num, _clean(g.group("rest"))
        if number is not None:
            close()
            current = _Open(
                number=number,
                heading=rest if m and m.group("hash") else "",
                paragraphs=[[rest]] if rest else [[]],
            )
            last_key = sort_key(number)
            continue
        if _HEADING.match(line):
            close()  # an unnumbered section heading ends the rule before it
            continue
        if current is not None:
            current.paragraphs[-1].append(line)
    close()
    return rules


def _before_next(lines: list[str], i: int, number: str, width: int) -> bool:
    """True when ``number`` sorts before the next in-order rule candidate after line ``i``
    (or there is none): a repaired number must fit between its neighbours."""
    key = sort_key(number)
    for raw in lines[i + 1 :]:
        m = _candidate(raw)
        if m and top_width(m.group("num")) == width:
            return key < sort_key(m.group("num"))
    return True


def _numbered_glossary(lines: list[str], src: DocSource, version: str, start: int) -> list[Rule]:
    """The glossary after a numbered document's rules (MTG): blank-line separated blocks,
    the first line the term, the rest its definition. Each becomes an entry cited by the
    slug of its term, like the glossary documents; a "Credits" line ends it."""
    rules: list[Rule] = []
    used: Counter[str] = Counter()
    blocks: list[list[str]] = [[]]
    for raw in lines:
        line = raw.strip()
        if line.startswith(SEE_ALSO):
            continue
        if _END_OF_RULES.match(line):
            break
        if line:
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    for block in blocks:
        if len(block) < 2:
            continue  # a term without a definition is not an entry
        term = _clean(block[0])
        slug = slugify(term)
        used[slug] += 1
        if used[slug] > 1:
            slug = f"{slug}-{used[slug]}"
        text = "\n".join(_clean(ln) for ln in block[1:])
        rules.append(
            Rule(
                doc=src.id,
                game=src.game,
                number=slug,
                heading=term,
                text=text,
                refs=find_refs(text),
                version=version,
                title=src.title,
                numbered=False,
                order=start + len(rules),
            )
        )
    return rules


# --------------------------------------------------------------------------- prose


def parse_prose(lines: list[str], src: DocSource, version: str) -> list[Rule]:
    paragraphs: list[list[str]] = []
    title_seen = False
    cur: list[str] = []
    for raw in lines + [""]:
        line = raw.strip()
        if line.startswith(SEE_ALSO):
            continue
        if not title_seen:
            if line:
                title_seen = True  # the title line is the document heading, not p1
            continue
        if _HEADING.match(line):
            if cur:
                paragraphs.append(cur)
                cur = []
            continue
        if line:
            cur.append(line)
        elif cur:
            paragraphs.append(cur)
            cur = []
    rules = []
    for n, para in enumerate(paragraphs, start=1):
        text = _clean(" ".join(para))
        rules.append(
            Rule(
                doc=src.id,
                game=src.game,
                number=f"p{n}",
                heading=_first_words(text, 60),
                text=text,
                refs=find_refs(text),
                version=version,
                title=src.title,
                numbered=False,
                order=n - 1,
            )
        )
    return rules


# --------------------------------------------------------------------------- glossary


@dataclass
class _Item:
    anchor: str
    heading: str
    paragraphs: list[list[str]] = field(default_factory=lambda: [[]])
    refs: list[str] = field(default_factory=list)


def looks_glossary(lines: list[str], markdown: bool) -> bool:
    if markdown and any(re.match(r"^#{2,6}\s+\S", ln) for ln in lines):
        return True
    return sum(1 for ln in lines if _BULLET.match(ln)) >= 2


def parse_glossary(lines: list[str], src: DocSource, version: str, markdown: bool) -> list[Rule]:
    lines = [ln.replace("\t", "    ") for ln in lines]
    indents = sorted({len(m.group("indent")) for ln in lines if (m := _BULLET.match(ln))})
    depth_of = {ind: i + 1 for i, ind in enumerate(indents)}
    has_headings = markdown and any(re.match(r"^#{2,6}\s+\S", ln) for ln in lines)

    items: list[_Item] = []
    entry: _Item | None = None
    target: _Item | None = None  # where continuation lines go
    path: list[int] = []
    used: Counter[str] = Counter()
    paras: dict[str, int] = {}  # entry anchor -> entry-level paragraphs numbered so far
    blank = True
    title_seen = False

    def new_entry(name: str) -> _Item:
        nonlocal path
        slug = slugify(name)
        used[slug] += 1
        if used[slug] > 1:
            slug = f"{slug}-{used[slug]}"
        path = []
        item = _Item(anchor=slug, heading=_clean(name))
        items.append(item)
        return item

    for raw in lines:
        stripped = raw.strip()
        if stripped.startswith(SEE_ALSO):
            if entry is not None:
                entry.refs.extend(t for t in stripped[len(SEE_ALSO):].split() if t)
            continue
        if not stripped:
            blank = True
            if target is not None and target.paragraphs[-1]:
                target.paragraphs.append([])
            continue
        was_blank, blank = blank, False
        h = re.match(r"^(#{1,6})\s+(.*)$", stripped) if markdown else None
        if h:
            if len(h.group(1)) == 1 and has_headings:
                continue  # the document title
            entry = target = new_entry(h.group(2))
            continue
        if not has_headings and not title_seen:
            title_seen = True
            entry = target = new_entry(stripped)  # a .txt entry is named by its first line
            continue
        if entry is None:
            continue  # text before any entry heading
        b = _BULLET.match(raw)
        if b:
            depth = depth_of[len(b.group("indent"))]
            if len(path) >= depth:
                path = path[:depth]
                path[-1] += 1
            else:
                path = path + [1] * (depth - len(path))
            target = _Item(
                anchor=".".join([entry.anchor, *map(str, path)]),
                heading=entry.heading,
                paragraphs=[[_clean(b.group("text"))]],
            )
            items.append(target)
            continue
        indent = len(raw) - len(raw.lstrip())
        if target is not entry and target is not None and (indent > 0 or not was_blank):
            target.paragraphs[-1].append(stripped)  # belongs to the bullet above
            continue
        if target is not entry:
            # An unindented paragraph after the entry's bullets is its own passage,
            # numbered among the entry's paragraphs: opening paragraph(s) p1.., then pN.
            paras[entry.anchor] = paras.get(entry.anchor, sum(1 for pp in entry.paragraphs if pp)) + 1
            target = _Item(
                anchor=f"{entry.anchor}.p{paras[entry.anchor]}",
                heading=entry.heading,
                paragraphs=[[stripped]],
            )
            items.append(target)
            continue
        entry.paragraphs[-1].append(stripped)

    rules: list[Rule] = []
    for item in items:
        text = _join(item.paragraphs)
        is_entry = "." not in item.anchor
        if not text:
            has_children = any(it.anchor.startswith(item.anchor + ".") for it in items)
            if not (is_entry and has_children):
                continue
            text = item.heading
        rules.append(
            Rule(
                doc=src.id,
                game=src.game,
                number=item.anchor,
                heading=item.heading,
                text=text,
                parents=parents(item.anchor),
                refs=list(dict.fromkeys(item.refs + find_refs(text))),
                version=version,
                title=src.title,
                numbered=False,
                order=len(rules),
            )
        )
    return rules


# --------------------------------------------------------------------------- entry point


def parse_text(text: str, src: DocSource) -> list[Rule]:
    """Parse already-read document text (see the module docstring for the formats)."""
    markdown = src.path.suffix.lower() in MARKDOWN_SUFFIXES
    lines, updated = strip_furniture(text, markdown=markdown)
    version = src.version or updated
    numbered = src.numbered
    if numbered is None:
        numbered = looks_numbered(lines)
    if numbered:
        rules = parse_numbered(lines, src, version)
    elif looks_glossary(lines, markdown):
        rules = parse_glossary(lines, src, version, markdown)
    else:
        rules = parse_prose(lines, src, version)
    if not rules:
        kind = "numbered rules" if numbered else "passages"
        raise ParseError(f"{src.path}: no {kind} found")
    return rules


def parse_document(src: DocSource) -> list[Rule]:
    """Read and parse one document; raises :class:`ParseError` naming the file."""
    return parse_text(read_text(src.path), src)
