"""Rule numbers: tokenizing, parent chains, ordering, cross-references.

A rule number is kept exactly as printed, without a trailing dot (docs/anchors.md):
``355``, ``355.14``, ``355.14.h.1``, ``11.4.5``, ``601.2c``, ``115.1a``. Its tokens are the
digit runs and single letters (``601.2c`` -> ``601``, ``2``, ``c``); dropping the last token
and the separator before it gives the parent, so ``355.14.h.1`` -> ``355.14.h`` -> ``355.14``
-> ``355`` and ``601.2c`` -> ``601.2`` -> ``601``. Glossary anchors (``target.3.10``) follow
the same scheme with a slug as first token.
"""

from __future__ import annotations

import re

#: A printed rule number: digits, then dot-separated digit runs or single letters; one
#: letter may also follow digits directly (MTG ``601.2c``).
NUMBER_PATTERN = r"\d+(?:\.\d+)*[a-z]?(?:\.(?:\d+|[a-z])(?![a-z]))*"
NUMBER_RE = re.compile(rf"^{NUMBER_PATTERN}$")


# Cross-references: "See rule 750", "Section 1.8", "Section 12.3.2", "see 601.2",
# "rules 355.6 and ..." (first number only). The trailing dot of "750." is sentence
# punctuation, not part of the number.
_REF_RE = re.compile(
    rf"\b(?:see\s+(?:also\s+)?(?:rules?\s+|section\s+)?|rules?\s+|sections?\s+)({NUMBER_PATTERN})",
    re.IGNORECASE,
)


def normalize_number(number: str) -> str:
    """Canonical spelling used for look-ups: trimmed, lower-case, no trailing dot."""
    return number.strip().rstrip(".").strip().lower()


def tokens(number: str) -> list[str]:
    """``355.14.h.1`` -> ``['355', '14', 'h', '1']``; ``601.2c`` -> ``['601', '2', 'c']``."""
    out: list[str] = []
    for part in normalize_number(number).split("."):
        if not part:
            continue
        m = re.fullmatch(r"(\d+)([a-z])", part)
        if m:
            out.extend([m.group(1), m.group(2)])
        else:
            out.append(part)
    return out


def parent_of(number: str) -> str | None:
    """The number with its last token removed, or None for a top-level number."""
    n = normalize_number(number)
    if re.search(r"\d[a-z]$", n):  # 601.2c -> 601.2
        return n[:-1]
    if "." in n:
        return n.rsplit(".", 1)[0]
    return None


def parents(number: str) -> list[str]:
    """Parent chain, nearest first: ``355.14.h.1`` -> ``[355.14.h, 355.14, 355]``."""
    chain: list[str] = []
    p = parent_of(number)
    while p:
        chain.append(p)
        p = parent_of(p)
    return chain


#: Digit runs longer than this compare as "very far" (Python refuses to convert integers of
#: more than 4300 digits, and no printed rule number comes close).
MAX_DIGITS = 12
_FAR = 10**MAX_DIGITS


def _int(digits: str) -> int:
    """A digit run as an int, saturated at :data:`_FAR` for absurdly long runs."""
    stripped = digits.lstrip("0") or "0"
    return int(stripped) if len(stripped) <= MAX_DIGITS else _FAR


def sort_key(number: str) -> tuple[tuple[int, int, str], ...]:
    """Natural order: 355.2 < 355.10 < 355.10.a < 355.11; letters after digits' siblings."""
    key: list[tuple[int, int, str]] = []
    for t in tokens(number):
        if t.isdigit():
            key.append((0, _int(t), ""))
        else:
            key.append((1, 0, t))
    return tuple(key)


def top_width(number: str) -> int:
    """Digit count of the first token (``355.14`` -> 3, ``11.4.5`` -> 2)."""
    t = tokens(number)
    return len(t[0]) if t and t[0].isdigit() else 0


def find_refs(text: str, own: str = "") -> list[str]:
    """Rule numbers a text refers to, in order of first mention, excluding ``own``."""
    seen: list[str] = []
    for m in _REF_RE.finditer(text):
        n = normalize_number(m.group(1))
        if n and n != own and n not in seen:
            seen.append(n)
    return seen


def distance(a: str, b: str) -> tuple[int, int, int]:
    """How far number ``b`` is from ``a`` (smaller is nearer): shared prefix first."""
    ta, tb = tokens(a), tokens(b)
    common = 0
    for x, y in zip(ta, tb):
        if x != y:
            break
        common += 1
    gap = 0
    if common == len(tb) < len(ta):
        gap = 500  # an ancestor of the asked number ranks after its near siblings
    elif common < len(ta) and common < len(tb):
        x, y = ta[common], tb[common]
        if x.isdigit() and y.isdigit():
            gap = abs(_int(x) - _int(y))
        elif not x.isdigit() and not y.isdigit():
            gap = abs(ord(x[0]) - ord(y[0]))
        else:
            gap = 1000
    return (-common, gap, abs(len(ta) - len(tb)))
