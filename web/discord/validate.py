"""Discord's payload rules as checks: each function returns the list of problems (empty = valid).

Written from Discord's documentation: interaction response types (Receiving and Responding),
message flags and embed limits (Message resource), command naming and option rules
(Application Commands). Used by the tests on every payload the endpoint produces, and by
``register`` before anything is sent to Discord.
"""

from __future__ import annotations

import re
from typing import Any

from web.discord import limits as L

# Interaction callback types (Receiving and Responding > Interaction Callback Type).
PONG = 1
CHANNEL_MESSAGE_WITH_SOURCE = 4
DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE = 5
AUTOCOMPLETE_RESULT = 8
# Message flags an interaction response may set (Message resource > Message Flags).
SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
SUPPRESS_NOTIFICATIONS = 1 << 12
RESPONSE_FLAGS = SUPPRESS_EMBEDS | EPHEMERAL | SUPPRESS_NOTIFICATIONS
# Editing a webhook message may only toggle SUPPRESS_EMBEDS.
EDIT_FLAGS = SUPPRESS_EMBEDS
# Application command option types (Application Commands > Option Type).
OPTION_TYPES = set(range(1, 12))
# Option types that may carry choices / min_length / max_length.
STRING, INTEGER, NUMBER = 3, 4, 10
# CHAT_INPUT names: ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$, lowercase where a lowercase
# variant exists. Python's re has no \p{..}: [\w'-] is the same set for the names we use.
_NAME = re.compile(r"^[-_'\w]{1,32}$")

_EMBED_KEYS = {
    "title", "type", "description", "url", "timestamp", "color", "footer", "image",
    "thumbnail", "video", "provider", "author", "fields",
}
_MESSAGE_KEYS = {
    "tts", "content", "embeds", "allowed_mentions", "flags", "components", "attachments", "poll",
}


def _str_within(value: Any, where: str, lo: int, hi: int) -> list[str]:
    if not isinstance(value, str):
        return [f"{where}: expected a string, got {type(value).__name__}"]
    n = L.measure(value)
    if not lo <= n <= hi:
        return [f"{where}: length {n} outside {lo}..{hi}"]
    return []


def embed_problems(embed: Any, where: str = "embed") -> tuple[list[str], int]:
    """Problems of one embed, and its character total toward the 6,000 limit."""
    if not isinstance(embed, dict):
        return [f"{where}: expected an object"], 0
    problems = [f"{where}: unknown key {k!r}" for k in embed if k not in _EMBED_KEYS]
    total = 0
    for key, hi in (("title", L.EMBED_TITLE_MAX), ("description", L.EMBED_DESCRIPTION_MAX)):
        if key in embed:
            problems += _str_within(embed[key], f"{where}.{key}", 1, hi)
            total += L.measure(str(embed[key]))
    if "url" in embed and not str(embed["url"]).startswith(("http://", "https://")):
        problems.append(f"{where}.url: not an http(s) URL")
    if "color" in embed and not (isinstance(embed["color"], int) and 0 <= embed["color"] <= 0xFFFFFF):
        problems.append(f"{where}.color: not a 24-bit integer")
    for key, sub, hi in (("footer", "text", L.EMBED_FOOTER_MAX), ("author", "name", L.EMBED_AUTHOR_NAME_MAX)):
        if key in embed:
            part = embed[key]
            if not isinstance(part, dict) or sub not in part:
                problems.append(f"{where}.{key}: needs {sub!r}")
                continue
            problems += _str_within(part[sub], f"{where}.{key}.{sub}", 1, hi)
            total += L.measure(str(part[sub]))
    fields = embed.get("fields", [])
    if not isinstance(fields, list):
        return problems + [f"{where}.fields: expected a list"], total
    if len(fields) > L.EMBED_FIELDS_MAX:
        problems.append(f"{where}.fields: {len(fields)} > {L.EMBED_FIELDS_MAX}")
    for i, field in enumerate(fields):
        fw = f"{where}.fields[{i}]"
        if not isinstance(field, dict) or "name" not in field or "value" not in field:
            problems.append(f"{fw}: needs name and value")
            continue
        problems += _str_within(field["name"], f"{fw}.name", 1, L.EMBED_FIELD_NAME_MAX)
        problems += _str_within(field["value"], f"{fw}.value", 1, L.EMBED_FIELD_VALUE_MAX)
        if "inline" in field and not isinstance(field["inline"], bool):
            problems.append(f"{fw}.inline: expected a boolean")
        total += L.measure(str(field["name"])) + L.measure(str(field["value"]))
    return problems, total


def message_problems(data: Any, *, edit: bool = False, where: str = "data") -> list[str]:
    """Problems of a message body: an interaction response's ``data`` or, with ``edit``, the
    body of an Edit Original Interaction Response PATCH."""
    if not isinstance(data, dict):
        return [f"{where}: expected an object"]
    problems = [f"{where}: unknown key {k!r}" for k in data if k not in _MESSAGE_KEYS]
    if "content" in data:
        problems += _str_within(data["content"], f"{where}.content", 0, L.CONTENT_MAX)
    embeds = data.get("embeds", [])
    if not isinstance(embeds, list):
        problems.append(f"{where}.embeds: expected a list")
        embeds = []
    if len(embeds) > L.EMBEDS_PER_MESSAGE_MAX:
        problems.append(f"{where}.embeds: {len(embeds)} > {L.EMBEDS_PER_MESSAGE_MAX}")
    total = 0
    for i, embed in enumerate(embeds):
        p, t = embed_problems(embed, f"{where}.embeds[{i}]")
        problems += p
        total += t
    if total > L.EMBED_TOTAL_MAX:
        problems.append(f"{where}.embeds: {total} characters in total > {L.EMBED_TOTAL_MAX}")
    if not data.get("content") and not embeds and not edit:
        problems.append(f"{where}: a message needs content or an embed")
    if "flags" in data:
        allowed = EDIT_FLAGS if edit else RESPONSE_FLAGS
        flags = data["flags"]
        if not isinstance(flags, int) or flags & ~allowed:
            problems.append(f"{where}.flags: {flags!r} sets bits outside {allowed}")
    if "components" in data:
        from web.discord.components import component_problems

        problems += component_problems(data["components"], f"{where}.components")
    mentions = data.get("allowed_mentions")
    if mentions is not None and (
        not isinstance(mentions, dict) or not isinstance(mentions.get("parse", []), list)
    ):
        problems.append(f"{where}.allowed_mentions: malformed")
    return problems


def response_problems(response: Any) -> list[str]:
    """Problems of an interaction response (the endpoint's JSON reply to Discord)."""
    if not isinstance(response, dict) or not isinstance(response.get("type"), int):
        return ["response: needs an integer 'type'"]
    kind = response["type"]
    extra = [k for k in response if k not in {"type", "data"}]
    problems = [f"response: unknown key {k!r}" for k in extra]
    if kind == PONG:
        return problems + (["response: PONG carries no data"] if response.get("data") else [])
    if kind == DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
        data = response.get("data") or {}
        if set(data) - {"flags"}:
            problems.append("response: a deferred response may carry only flags")
        flags = data.get("flags", 0)
        if not isinstance(flags, int) or flags & ~EPHEMERAL:
            problems.append(f"response.data.flags: {flags!r} (only EPHEMERAL applies)")
        return problems
    if kind == CHANNEL_MESSAGE_WITH_SOURCE:
        if "data" not in response:
            return problems + ["response: a message response needs data"]
        return problems + message_problems(response["data"])
    if kind == AUTOCOMPLETE_RESULT:
        choices = (response.get("data") or {}).get("choices")
        if not isinstance(choices, list) or len(choices) > L.COMMAND_CHOICES_MAX:
            return problems + [f"response.data.choices: a list of at most {L.COMMAND_CHOICES_MAX}"]
        for i, c in enumerate(choices):
            where = f"response.data.choices[{i}]"
            problems += _str_within(c.get("name") if isinstance(c, dict) else None, f"{where}.name", 1, 100)
            problems += _str_within(c.get("value") if isinstance(c, dict) else None, f"{where}.value", 1, 100)
        return problems
    return problems + [f"response: type {kind} is not one this endpoint sends"]


def _option_problems(option: Any, where: str) -> tuple[list[str], int]:
    if not isinstance(option, dict):
        return [f"{where}: expected an object"], 0
    problems: list[str] = []
    if option.get("type") not in OPTION_TYPES:
        problems.append(f"{where}.type: {option.get('type')!r} is not an option type")
    name = option.get("name", "")
    if not isinstance(name, str) or not _NAME.match(name) or name != name.lower():
        problems.append(f"{where}.name: {name!r} is not a valid lowercase option name")
    problems += _str_within(option.get("description"), f"{where}.description", 1, L.COMMAND_DESCRIPTION_MAX)
    combined = L.measure(str(name)) + L.measure(str(option.get("description", "")))
    choices = option.get("choices", [])
    if len(choices) > L.COMMAND_CHOICES_MAX:
        problems.append(f"{where}.choices: more than {L.COMMAND_CHOICES_MAX}")
    for c in choices:
        combined += L.measure(str(c.get("name", ""))) + L.measure(str(c.get("value", "")))
    for key in ("min_length", "max_length"):
        if key in option:
            if option.get("type") != STRING:
                problems.append(f"{where}.{key}: only for string options")
            elif not 0 <= option[key] <= L.OPTION_STRING_LENGTH_MAX:
                problems.append(f"{where}.{key}: outside 0..{L.OPTION_STRING_LENGTH_MAX}")
    return problems, combined


def command_problems(command: Any) -> list[str]:
    """Problems of a CHAT_INPUT command definition (a Bulk Overwrite body element)."""
    if not isinstance(command, dict):
        return ["command: expected an object"]
    name = command.get("name", "")
    where = f"command {name!r}"
    problems: list[str] = []
    if command.get("type", 1) != 1:
        problems.append(f"{where}: only CHAT_INPUT (type 1) commands are built here")
    if not isinstance(name, str) or not _NAME.match(name) or name != name.lower():
        problems.append(f"{where}: invalid name")
    problems += _str_within(command.get("description"), f"{where}.description", 1, L.COMMAND_DESCRIPTION_MAX)
    combined = L.measure(str(name)) + L.measure(str(command.get("description", "")))
    options = command.get("options", [])
    if len(options) > L.COMMAND_OPTIONS_MAX:
        problems.append(f"{where}: more than {L.COMMAND_OPTIONS_MAX} options")
    seen_optional = False
    names: set[str] = set()
    for i, option in enumerate(options):
        p, c = _option_problems(option, f"{where}.options[{i}]")
        problems += p
        combined += c
        if isinstance(option, dict):
            # Required options must be listed before optional ones.
            if option.get("required") and seen_optional:
                problems.append(f"{where}.options[{i}]: required option after an optional one")
            seen_optional = seen_optional or not option.get("required", False)
            if option.get("name") in names:
                problems.append(f"{where}.options[{i}]: duplicate name")
            names.add(str(option.get("name")))
    if combined > L.COMMAND_COMBINED_MAX:
        problems.append(f"{where}: {combined} combined characters > {L.COMMAND_COMBINED_MAX}")
    perms = command.get("default_member_permissions")
    if perms is not None and not (isinstance(perms, str) and perms.isdigit()):
        problems.append(f"{where}.default_member_permissions: must be a string of digits")
    contexts = command.get("contexts")
    if contexts is not None and (not isinstance(contexts, list) or set(contexts) - {0, 1, 2}):
        problems.append(f"{where}.contexts: values must be 0, 1 or 2")
    return problems


__all__ = [
    "CHANNEL_MESSAGE_WITH_SOURCE",
    "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE",
    "EPHEMERAL",
    "PONG",
    "command_problems",
    "embed_problems",
    "message_problems",
    "response_problems",
]
