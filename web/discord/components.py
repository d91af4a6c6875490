"""Message components for a clarification: buttons (a select menu when there are more than
five choices), and the ``custom_id`` that brings a click back to its option.

A ``custom_id`` holds at most 100 characters, far less than a question, so it names the
stored answer and the option's place: ``clarify:ANSWER_ID:N`` (a button) or
``clarify:ANSWER_ID`` with the chosen value ``N`` (a select menu).
"""

from __future__ import annotations

from typing import Any

from assistant.answer import Answer
from web.discord import limits as L

ACTION_ROW, BUTTON, STRING_SELECT = 1, 2, 3
PRIMARY = 1
BUTTONS_MAX = 5
SELECT_OPTIONS_MAX = 25
LABEL_MAX = 80
CUSTOM_ID_MAX = 100
PREFIX = "clarify"


def choice_components(answer: Answer) -> list[dict[str, Any]]:
    """The answer's clarification as components; none without one or without an answer_id."""
    if answer.clarify is None or not answer.answer_id or not answer.clarify.options:
        return []
    labels = [L.truncate(L.squash(o.label) or "?", LABEL_MAX) for o in answer.clarify.options]
    base = f"{PREFIX}:{answer.answer_id}"
    if len(labels) <= BUTTONS_MAX:
        buttons = [{"type": BUTTON, "style": PRIMARY, "label": label, "custom_id": f"{base}:{n}"}
                   for n, label in enumerate(labels)]
        return [{"type": ACTION_ROW, "components": buttons}]
    select = {"type": STRING_SELECT, "custom_id": base, "placeholder": L.truncate(answer.clarify.prompt, 150),
              "options": [{"label": label, "value": str(n)} for n, label in enumerate(labels[:SELECT_OPTIONS_MAX])]}
    return [{"type": ACTION_ROW, "components": [select]}]


def parse_choice(custom_id: str, values: list[str]) -> tuple[str, int] | None:
    """(answer_id, option index) of a click, or None for a custom_id that is not ours."""
    parts = custom_id.split(":")
    if len(parts) == 3 and parts[0] == PREFIX and parts[2].isdigit():
        return parts[1], int(parts[2])
    if len(parts) == 2 and parts[0] == PREFIX and len(values) == 1 and values[0].isdigit():
        return parts[1], int(values[0])
    return None


def component_problems(rows: Any, where: str = "components") -> list[str]:
    """Problems of a message's components (Discord's limits for rows, buttons and selects)."""
    if not isinstance(rows, list) or len(rows) > 5:
        return [f"{where}: expected a list of at most 5 action rows"]
    problems: list[str] = []
    for i, row in enumerate(rows):
        inner = row.get("components") if isinstance(row, dict) else None
        if not isinstance(row, dict) or row.get("type") != ACTION_ROW or not isinstance(inner, list) or not inner:
            problems.append(f"{where}[{i}]: expected an action row with components")
            continue
        if len(inner) > BUTTONS_MAX:
            problems.append(f"{where}[{i}]: more than {BUTTONS_MAX} components")
        for j, c in enumerate(inner):
            w = f"{where}[{i}].components[{j}]"
            cid = c.get("custom_id", "")
            if not isinstance(cid, str) or not 1 <= len(cid) <= CUSTOM_ID_MAX:
                problems.append(f"{w}.custom_id: 1 to {CUSTOM_ID_MAX} characters")
            if c.get("type") == BUTTON:
                if not 1 <= len(str(c.get("label", ""))) <= LABEL_MAX:
                    problems.append(f"{w}.label: 1 to {LABEL_MAX} characters")
            elif c.get("type") == STRING_SELECT:
                if len(inner) != 1:
                    problems.append(f"{w}: a select menu fills its row alone")
                opts = c.get("options", [])
                if not 1 <= len(opts) <= SELECT_OPTIONS_MAX:
                    problems.append(f"{w}.options: 1 to {SELECT_OPTIONS_MAX}")
                problems += [f"{w}.options: label or value longer than 100"
                             for o in opts if len(str(o.get("label", ""))) > 100 or len(str(o.get("value", ""))) > 100]
            else:
                problems.append(f"{w}.type: {c.get('type')!r} is not a button or a string select")
    return problems


__all__ = ["choice_components", "component_problems", "parse_choice"]
