"""Site furniture stripping: what a captured page carries that is not rules text.

Applied to every document before any parser sees it (the issue: "none of it may be indexed
or cited"). Removed:

- whole lines "Skip to main content", "Back to Home", "Back to <number>", "See also"
  (bare, trailing), "Last Updated: <date>" (the date is kept as a version hint),
  "[... 356-749 omitted ...]" editorial markers, and the "> For the complete documentation
  index ..." banner;
- HTML comments (``<!-- ... -->``), which capture notes live in;
- the documentation-site footer: a line "Agent Instructions" or "Querying This
  Documentation" (as a heading or not) and everything after it, together with a ``---``
  rule that introduces it;
- "See also: [A](#a), [B](#b)" lines: replaced by a marker the parsers turn into refs;
- markdown link wrappers (``[text](url)`` -> ``text``, images -> alt text), bold/italic
  markers and backslash escapes; heading markers are kept for the parsers.

Text inside documents is data: nothing in it is followed; a line that looks like an
instruction is either stripped as furniture or kept as inert text.
"""

from __future__ import annotations

import re

_DROP_LINE = re.compile(
    r"^\s*(?:skip to (?:main )?content|back to home|back to \d+|back to top|see also:?"
    r"|\[\.\.\.[^\]]*omitted[^\]]*\])\s*$",
    re.IGNORECASE,
)
_LAST_UPDATED = re.compile(r"^\s*last updated:?\s*(?P<date>.+?)\s*$", re.IGNORECASE)
_BANNER = re.compile(r"^\s*>\s*for the complete documentation index", re.IGNORECASE)
_FOOTER = re.compile(
    r"^\s*#*\s*(?:agent instructions|querying this documentation)\s*:?\s*$", re.IGNORECASE
)
_SEE_ALSO = re.compile(r"^\s*(?:\*\*)?see also(?:\*\*)?\s*:(?:\*\*)?\s*\S", re.IGNORECASE)
#: Marker line standing for a "See also: ..." list; parsers turn it into refs, never text.
SEE_ALSO = "\x00see-also "
_HR = re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,})\s*$")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]+)\]\((?:[^()]|\([^)]*\))*\)")
_BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!>])")


def strip_inline(line: str, markdown: bool) -> str:
    """Link wrappers -> link text; bold/italic markers dropped (markdown only)."""
    line = _IMAGE.sub(r"\1", line)
    line = _LINK.sub(r"\1", line)
    if markdown:
        line = _BOLD.sub(lambda m: m.group(1) or m.group(2) or "", line)
        line = _ITALIC.sub(r"\1", line)
        line = _ESCAPE.sub(r"\1", line)
    return line


def link_targets(line: str) -> list[str]:
    """The ``#anchor`` targets of markdown links on a line (for "See also" refs)."""
    return [m.group(1) for m in re.finditer(r"\]\(#([^)\s]+)\)", line)]


def strip_furniture(text: str, markdown: bool = False) -> tuple[list[str], str]:
    """Lines of ``text`` without furniture, and the "Last Updated" date if one was printed.

    Line count is not preserved (dropped lines vanish); callers that report line numbers
    do so from the raw text.
    """
    text = _COMMENT.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    raw = text.split("\n")
    # Cut the documentation-query footer and the '---' that introduces it.
    for i, line in enumerate(raw):
        if _FOOTER.match(line):
            cut = i
            j = i - 1
            while j >= 0 and not raw[j].strip():
                j -= 1
            if j >= 0 and _HR.match(raw[j]):
                cut = j
            raw = raw[:cut]
            break
    updated = ""
    out: list[str] = []
    for line in raw:
        if _DROP_LINE.match(line) or _BANNER.match(line):
            continue
        if _SEE_ALSO.match(line):
            out.append(SEE_ALSO + " ".join(link_targets(line)))
            continue
        m = _LAST_UPDATED.match(line)
        if m:
            updated = updated or m.group("date")
            continue
        out.append(strip_inline(line.rstrip(), markdown))
    # A trailing horizontal rule left behind is not content either.
    while out and (not out[-1].strip() or _HR.match(out[-1])):
        out.pop()
    return out, updated
