"""Answers, rules and game lists as Discord message bodies, always within Discord's limits."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from pydantic import BaseModel

from assistant.answer import Answer
from ingest.models import GameInfo
from web.cards import CardRulings
from web.discord import limits as L
from web.discord.components import choice_components

NO_MENTIONS: dict[str, Any] = {"parse": []}  # user text is echoed: never ping anyone
VERDICT_COLORS = {"yes": 0x2E9E5B, "no": 0xC0392B, "unknown": 0x7F8C8D}
SHORT_ANSWER_MAX = 1500  # the embed shows a short answer; the web page has the whole one
QUOTE_MAX = 500
MAX_CITATIONS = 10


def answer_url(base_url: str, answer_id: str | None) -> str | None:
    if not answer_id:
        return None
    return f"{base_url.rstrip('/')}/?a={quote(answer_id, safe='')}"


def text_message(text: str, *, ephemeral: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {
        "content": L.truncate(text, L.CONTENT_MAX) or "…",
        "allowed_mentions": NO_MENTIONS,
    }
    if ephemeral:
        data["flags"] = 1 << 6  # EPHEMERAL
    return data


def fit_fields(
    embed: dict[str, Any], fields: list[dict[str, str]], more: str = "more", total: int = 0
) -> dict[str, Any]:
    """Add ``fields`` to ``embed`` while the embed stays within 25 fields and 6,000 characters;
    a last field says how many of ``total`` (default: all of ``fields``) were left out."""
    used = sum(
        L.measure(str(v))
        for v in (embed.get("title", ""), embed.get("description", ""),
                  embed.get("footer", {}).get("text", ""))
    )
    reserve = 64  # room for the "and N more" field
    kept: list[dict[str, str]] = []
    for field in fields:
        size = L.measure(field["name"]) + L.measure(field["value"])
        if len(kept) >= L.EMBED_FIELDS_MAX - 1 or used + size > L.EMBED_TOTAL_MAX - reserve:
            break
        kept.append(field)
        used += size
    left = max(total, len(fields)) - len(kept)
    if left:
        kept.append({"name": "…", "value": f"and {left} {more}"})
    if kept:
        embed["fields"] = kept
    return embed


def _field(name: str, value: str, value_max: int = L.EMBED_FIELD_VALUE_MAX) -> dict[str, str]:
    return {
        "name": L.truncate(L.squash(name) or "—", L.EMBED_FIELD_NAME_MAX),
        "value": L.truncate(value.strip() or "—", value_max),
    }


def _verdict_line(answer: Answer) -> str:
    if answer.error:
        return "**Could not answer.**"
    if answer.value is not None:
        return f"**Answer: {answer.value}**"
    return {
        "yes": "**Ruling: Yes**",
        "no": "**Ruling: No**",
    }.get(answer.verdict, "**No ruling**: the loaded rules do not settle this.")


def answer_message(answer: Answer, base_url: str) -> dict[str, Any]:
    """Verdict in the content; question, short answer, link and citations in one embed."""
    url = answer_url(base_url, answer.answer_id)
    link = f"\n\n[Full answer]({url})" if url else ""
    body = answer.answer.strip() or (answer.error or "")
    if answer.error and answer.answer.strip():
        body = f"{body}\n\n{answer.error}"
    short = L.truncate(body, min(SHORT_ANSWER_MAX, L.EMBED_DESCRIPTION_MAX - L.measure(link)))
    embed: dict[str, Any] = {
        "title": L.truncate(L.squash(answer.question) or "Question", L.EMBED_TITLE_MAX),
        "color": VERDICT_COLORS.get(answer.verdict, VERDICT_COLORS["unknown"]),
    }
    if short or link:
        embed["description"] = (short + link).strip()
    if url:
        embed["url"] = url
    if answer.game:
        embed["footer"] = {"text": L.truncate(f"Arbiter · {answer.game}", L.EMBED_FOOTER_MAX)}
    fields = [
        _field(f"{c.rule} · {c.doc}", "> " + L.truncate(L.squash(c.quote), QUOTE_MAX))
        for c in answer.citations[:MAX_CITATIONS]
    ]
    more = "more citations" + (" on the web page" if url else "")
    fit_fields(embed, fields, more=more, total=len(answer.citations))
    message: dict[str, Any] = {
        "content": L.truncate(_verdict_line(answer), L.CONTENT_MAX),
        "embeds": [embed],
        "allowed_mentions": NO_MENTIONS,
    }
    components = choice_components(answer)
    if components and answer.clarify is not None:
        # The one decision between this abstention and a ruling, as buttons under it.
        message["content"] = L.truncate(f"{message['content']}\n{answer.clarify.prompt}", L.CONTENT_MAX)
        message["components"] = components
    return message


def _as_dict(value: Any) -> dict[str, Any]:
    if isinstance(value, BaseModel):
        return value.model_dump()
    return dict(value) if isinstance(value, dict) else {}


def rule_message(result: dict[str, Any]) -> dict[str, Any]:
    """A rule (``services.rule`` result) with its subrules as fields."""
    rule = _as_dict(result.get("rule"))
    number = str(rule.get("number", "?"))
    heading = L.squash(str(rule.get("heading", "")))
    title = f"{number} {heading}".strip() if heading and heading not in rule.get("text", "") else number
    embed: dict[str, Any] = {"title": L.truncate(title, L.EMBED_TITLE_MAX)}
    text = str(rule.get("text", "")).strip()
    if text:
        embed["description"] = L.truncate(text, 3000)
    source = " ".join(
        str(p) for p in (result.get("game"), rule.get("title") or rule.get("doc"), rule.get("version")) if p
    )
    if source:
        embed["footer"] = {"text": L.truncate(source, L.EMBED_FOOTER_MAX)}
    children = [_as_dict(c) for c in result.get("children") or []]
    fields = [_field(str(c.get("number", "?")), str(c.get("text", "")), 400) for c in children]
    fit_fields(embed, fields, more="more subrules")
    return {"embeds": [embed], "allowed_mentions": NO_MENTIONS}


def card_message(found: CardRulings) -> dict[str, Any]:
    """A card's text, and the rules on the choices it makes as fields."""
    card = found.card
    kinds = ", ".join(card.types)
    embed: dict[str, Any] = {"title": L.truncate(card.name, L.EMBED_TITLE_MAX),
                             "description": L.truncate(card.text.strip() or "(no rules text)", 3000),
                             "footer": {"text": L.truncate(" · ".join(p for p in (card.game, kinds) if p), L.EMBED_FOOTER_MAX)}}
    fields = [_field(f"{r.number} · {r.doc}", "> " + L.truncate(L.squash(r.text), QUOTE_MAX)) for r in found.rules]
    fit_fields(embed, fields, more="more rules")
    return {"embeds": [embed], "allowed_mentions": NO_MENTIONS}


def games_message(games: list[GameInfo]) -> dict[str, Any]:
    if not games:
        return text_message("No games are loaded yet: the rules corpus has not been ingested.")
    embed: dict[str, Any] = {"title": "Loaded games"}
    fields = []
    for game in games:
        lines = [
            f"• {d.title or d.id}" + (f" ({d.version})" if d.version else "") + f": {d.rules} rules"
            for d in game.documents
        ]
        if game.cards:
            lines.append(f"• {game.cards} cards")
        fields.append(_field(f"{game.name or game.id} (id: {game.id})", "\n".join(lines) or "—"))
    fit_fields(embed, fields, more="more games")
    return {"embeds": [embed], "allowed_mentions": NO_MENTIONS}


__all__ = [
    "NO_MENTIONS",
    "answer_message",
    "answer_url",
    "card_message",
    "fit_fields",
    "games_message",
    "rule_message",
    "text_message",
]
