"""Discord's size limits and the clean cutting that keeps messages within them.

Limits are from Discord's documentation (Message resource, "Embed Limits"; Interactions,
"Application Command Object"). Lengths are measured in UTF-16 code units, which is never
less than the number of code points, so a text that fits by this measure fits however
Discord counts it.
"""

from __future__ import annotations

import re

# Message and embed limits (Discord docs: Message Resource > Embed Limits).
CONTENT_MAX = 2000
EMBEDS_PER_MESSAGE_MAX = 10
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_NAME_MAX = 256
EMBED_TOTAL_MAX = 6000  # title + description + field names/values + footer + author, all embeds

# Application command limits (Discord docs: Application Commands).
COMMAND_NAME_MAX = 32
COMMAND_DESCRIPTION_MAX = 100
COMMAND_OPTIONS_MAX = 25
COMMAND_CHOICES_MAX = 25
OPTION_STRING_LENGTH_MAX = 6000
COMMAND_COMBINED_MAX = 4000  # names + descriptions + choice values of one command

ELLIPSIS = "…"
_SPACE = re.compile(r"\s+")


def measure(text: str) -> int:
    """Length as Discord may count it: UTF-16 code units (>= code points)."""
    return len(text.encode("utf-16-le")) // 2


def _prefix_within(text: str, budget: int) -> str:
    """Longest prefix of ``text`` whose measure is at most ``budget``."""
    if budget <= 0:
        return ""
    used = 0
    for i, ch in enumerate(text):
        used += 2 if ord(ch) > 0xFFFF else 1
        if used > budget:
            return text[:i]
    return text


def squash(text: str) -> str:
    """Collapse runs of whitespace (newlines included) into single spaces."""
    return _SPACE.sub(" ", text).strip()


def truncate(text: str, limit: int, suffix: str = "") -> str:
    """Cut ``text`` to at most ``limit`` (measured) on a word boundary, ending in an ellipsis
    and then ``suffix``. Text that already fits (suffix included) comes back whole with the
    suffix. A single word longer than half the budget is cut inside the word."""
    if measure(text) + measure(suffix) <= limit:
        return text + suffix
    tail = ELLIPSIS + suffix
    budget = limit - measure(tail)
    if budget <= 0:
        # The suffix alone does not fit: drop it and cut the text itself.
        return truncate(text, limit) if suffix else _prefix_within(ELLIPSIS, limit)
    head = _prefix_within(text, budget)
    # Prefer the last whitespace when it keeps at least half of what fits.
    cut = max(head.rfind(" "), head.rfind("\n"), head.rfind("\t"))
    if len(text) > len(head) and not text[len(head)].isspace() and cut >= len(head) // 2:
        head = head[:cut]
    return head.rstrip() + tail


__all__ = [
    "COMMAND_CHOICES_MAX",
    "COMMAND_COMBINED_MAX",
    "COMMAND_DESCRIPTION_MAX",
    "COMMAND_NAME_MAX",
    "COMMAND_OPTIONS_MAX",
    "CONTENT_MAX",
    "ELLIPSIS",
    "EMBEDS_PER_MESSAGE_MAX",
    "EMBED_AUTHOR_NAME_MAX",
    "EMBED_DESCRIPTION_MAX",
    "EMBED_FIELDS_MAX",
    "EMBED_FIELD_NAME_MAX",
    "EMBED_FIELD_VALUE_MAX",
    "EMBED_FOOTER_MAX",
    "EMBED_TITLE_MAX",
    "EMBED_TOTAL_MAX",
    "OPTION_STRING_LENGTH_MAX",
    "measure",
    "squash",
    "truncate",
]
