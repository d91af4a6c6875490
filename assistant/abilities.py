"""A small grammar of ability text: quoted card text -> the engine's ``Ability``.

It reads instructions clause by clause: an optional "you may", a verb (kill, stun, deal N
damage to, ready, remove N threat from, draw, choose N targets, ...) and an object phrase
with its quantifier ("a", "all", "each", "up to 2", "any number of", "your", "that", "its
controller", "the next"), allegiance ("friendly", "enemy") and location ("at a
battlefield", "at battlefields"). Each part records the words that produced it, so
``--explain`` can show them. Whether a selection *targets* is never decided here: that is
the engine's policy (the grammar only says how the effect selects).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from assistant.textnorm import number_of, words_to_digits
from assistant.words import content_words, is_negation, tokens

NUM = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)"

# verb pattern -> engine action; the amount group (if any) is named ``n``.
_VERBS: list[tuple[str, str]] = [
    (r"deals? damage equal to (?:its|their|that unit's|my) might,? split(?: among| between)?", "split_damage"),
    (rf"split (?P<n>{NUM}) damage (?:among|between)", "split_damage"),
    (rf"deals? (?P<n>{NUM}) damage,? (?:split|divided) (?:among|between)", "split_damage"),
    (rf"deals? (?:(?P<n>{NUM}) )?(?:damage )?(?:to|against)", "deal_damage"),
    (r"deals? damage", "deal_damage"),
    (r"kills?|destroys?|defeats?", "kill"),
    (r"stuns?", "stun"),
    (r"ready|readies", "ready"),
    (r"exhausts?", "exhaust"),
    (rf"heals?(?: (?P<n>{NUM}))?(?: damage)?(?: (?:from|on))?", "heal"),
    (rf"removes? (?P<n>{NUM}) threat (?:from|on)", "remove_threat"),
    (r"removes? threat (?:from|on)", "remove_threat"),
    (rf"(?:places?|adds?) (?P<n>{NUM}) threat (?:to|on)", "add_threat"),
    (rf"draws? (?P<n>{NUM})?(?: cards?)?", "draw"),
    (r"search(?:es)?", "search"),
    (r"moves?", "move"),
    (r"banish(?:es)?", "banish"),
    (r"recycles?", "recycle"),
    (r"returns?", "return"),
    (r"discards?", "discard"),
    (rf"gains? (?P<n>{NUM}) life", "gain_life"),
    (rf"loses? (?P<n>{NUM}) life", "lose_life"),
    (r"thwarts?", "thwart"),
    (r"attacks?", "attack"),
    (r"plays?", "play"),
    (r"gives?", "buff"),
    (r"picks?", "other"),
    (r"affects?", "other"),
    (r"chooses?|selects?|targets?", "other"),
]

_NOUNS: dict[str, tuple[str, ...]] = {
    "unit": ("unit",), "legend": ("legend",), "minion": ("minion",), "enemy": ("enemy",),
    "scheme": ("scheme",), "character": ("character",), "hero": ("hero",), "villain": ("villain",),
    "ally": ("ally",), "player": ("player",), "card": ("card",), "target": ("game_object",),
    "game object": ("game_object",), "object": ("game_object",), "battlefield": ("battlefield",),
    "gear": ("gear",), "rune": ("rune",), "champion": ("champion",), "spell": ("spell",),
    "event": ("event",), "opponent": ("player",), "creature": ("creature",),
}
_NOUN_RE = (
    r"(?P<noun>game objects?|objects?|units?|legends?|minions?|enem(?:y|ies)|schemes?|characters?|"
    r"heroe?s?|villains?|all(?:y|ies)|players?|cards?|targets?|battlefields?|gears?|runes?|"
    r"champions?|spells?|events?|opponents?|creatures?)"
)
_QUANT_RE = (
    rf"(?P<quant>any number of|up to (?:{NUM})|all(?: of the)?|each|every|the next|your|my|"
    rf"that|those|these|the|its|their|an? target|a|an|one|target|{NUM})"
)
_ADJ_RE = r"(?P<adj>(?:(?:friendly|enemy|opposing|other|another|an opponent's|opponent's|ready|exhausted)\s+)*)"
# Determiners decide whether one particular battlefield is meant ("a", "one", "a single", "that",
# "the same": it is chosen, guide p1) or the set of all of them ("battlefields", "every/each/any").
_LOC_RE = (r"(?P<loc>\s+at\s+(?:(?P<locq>a single|a|an|one|1|single|any|that|the same|different|each|every|all)\s+)?"
           r"battlefields?|\s+here|\s+there)?")
_OBJ = re.compile(rf"\b(?:{_QUANT_RE}\s+)?{_ADJ_RE}{_NOUN_RE}\b{_LOC_RE}", re.IGNORECASE)
_SELF = re.compile(r"\b(?:me|myself|this (?:unit|card|character)|itself)\b", re.IGNORECASE)


@dataclass
class Clause:
    """One instruction and the words each part came from."""

    text: str
    effect: dict[str, Any]
    because: list[tuple[str, str]] = field(default_factory=list)


def _singular(noun: str) -> str:
    n = noun.lower()
    for key in sorted(_NOUNS, key=len, reverse=True):
        if n.startswith((key, key.rstrip("y"))):
            return key
    if n.startswith("enem"):
        return "enemy"
    if n.startswith("all"):
        return "ally"
    return n.rstrip("s")


_ONE_LOCATION = {"a", "an", "one", "1", "a single", "single", "that", "the same"}


def _pool(noun: str, adj: str, loc: str | None, locq: str | None, quant: str) -> dict[str, Any]:
    key = _singular(noun)
    types = list(_NOUNS.get(key, (key,)))
    pool: dict[str, Any] = {"types": types}
    adj_l = adj.lower()
    if "friendly" in adj_l or quant.lower() in {"your", "my"}:
        pool["controller"] = "you"
    elif any(w in adj_l for w in ("enemy", "opposing", "opponent")):
        pool["controller"] = "opponent"
    if loc:
        l = loc.strip().lower()
        if l in {"here", "there"}:
            pool["location"] = {"kind": None, "scope": "here"}
        else:
            scope = "one" if (locq or "").lower() in _ONE_LOCATION else "any"
            pool["location"] = {"kind": "battlefield", "scope": scope}
    return pool


def _count(quant: str) -> dict[str, Any]:
    q = quant.lower()
    if q == "any number of":
        return {"mode": "any_number", "n": None}
    if q.startswith("up to"):
        return {"mode": "up_to", "n": number_of(q.split()[-1])}
    n = number_of(q)
    if n is not None and q not in {"a", "an"}:
        return {"mode": "exactly", "n": n}
    return {"mode": "exactly", "n": 1}


def _split_clauses(text: str) -> list[str]:
    text = re.sub(r"\s+", " ", text.strip())
    parts = re.split(r"(?<=[.;])\s+|;\s*|,\s*then\s+|\.\s*$", text)
    out: list[str] = []
    for p in parts:
        p = p.strip(" .;,")
        if not p:
            continue
        # "heals and readies a character": one object, two actions.
        m = re.match(r"^(?P<a>\w+s?) and (?P<b>\w+s?) (?P<rest>.+)$", p, re.IGNORECASE)
        if m and _verb(m.group("a")) and _verb(m.group("b")):
            out.append(f"{m.group('a')} {m.group('rest')}")
            out.append(f"{m.group('b')} that {m.group('rest').split(' ', 1)[-1]}")
            continue
        out.append(p)
    return out


def _verb(word: str) -> str | None:
    for pat, action in _VERBS:
        if re.fullmatch(pat, word, re.IGNORECASE):
            return action
    return None


def parse_clause(clause: str, index: int, previous: list[Clause]) -> Clause | None:
    """One instruction -> an effect dict for the engine, or None when no verb is found."""
    text = clause
    because: list[tuple[str, str]] = []
    eff: dict[str, Any] = {"id": f"e{index}", "text": clause}
    low = words_to_digits(clause)
    sel: dict[str, Any] = {"kind": "choose"}
    # "deals 2 damage to a minion and exhausts it": several effects on one target
    # (Marvel Champions target.3.4), unlike a separate "... Stun that enemy." sentence.
    tail = re.search(r"\s+and (?:then )?(?P<v>\w+) (?:it|them)\s*$", low, re.IGNORECASE)
    if tail and _verb(tail.group("v")):
        extra = _verb(tail.group("v"))
        eff["extra_actions"] = [extra]
        because.append((f"extra_actions=[{extra}]", tail.group(0).strip()))
        low = low[: tail.start()]

    m = re.match(r"^(?:(?:when|whenever|after)\b[^,]*,\s*)", low, re.IGNORECASE)
    condition = None
    if m:
        condition = m.group(0)
        low = low[m.end():]
    if re.match(r"^(?:when|whenever)\b", low, re.IGNORECASE):
        # The whole clause is a trigger condition ("When a unit dies").
        obj = _OBJ.search(low)
        pool = _pool(obj.group("noun"), obj.group("adj") or "", None, None, obj.group("quant") or "") if obj else {}
        eff.update(action="other", selection={"kind": "trigger_condition", "pool": pool})
        return Clause(text, eff, [("selection", clause)])
    cost = re.match(r"^as an additional cost(?: to play this)?,?\s*", low, re.IGNORECASE)
    if cost:
        sel["kind"] = "cost"
        because.append(("selection=cost", cost.group(0).strip()))
        low = low[cost.end():]
    may = re.match(r"^(?:you|i|they|its controller|the player)?\s*may\s+", low, re.IGNORECASE)
    if may:
        eff["optional"] = True
        because.append(("optional", may.group(0).strip()))
        low = low[may.end():]
    must = re.match(r"^(?:you|they|each player)\s+must\s+", low, re.IGNORECASE)
    if must:
        sel["kind"] = "must"
        because.append(("selection=must", must.group(0).strip()))
        low = low[must.end():]
    subject = None
    subj = re.match(r"^(?P<s>its controller|their controller|that unit's controller|it|they|that unit|you|each player|each opponent)\s+(?=\w)", low, re.IGNORECASE)
    if subj and not re.match(r"^(?:you|it)\s+(?:may|must)\b", low, re.IGNORECASE):
        subject = subj.group("s").lower()
        low = low[subj.end():]

    action = None
    vm = None
    for pat, act in _VERBS:
        vm = re.match(rf"^(?:{pat})\b", low, re.IGNORECASE)
        if vm:
            action = act
            break
    if action is None or vm is None:
        return None
    because.append((f"action={action}", vm.group(0)))
    eff["action"] = action
    n = vm.groupdict().get("n")
    if n:
        eff["amount"] = number_of(n)
    verb_word = vm.group(0).split()[0].lower()
    rest = low[vm.end():].strip()

    if verb_word.startswith("pick"):
        sel["kind"] = "pick"
        because.append(("selection=pick", vm.group(0)))
    if subject in {"its controller", "their controller", "that unit's controller"} and previous:
        # "its controller draws 2": the player is found from the earlier object.
        sel.update(kind="reference", refers_to=previous[-1].effect["id"], ref_role="controller", pool={"types": ["player"]})
        because.append(("selection=reference(controller)", subject))
        eff["selection"] = sel
        return Clause(text, eff, because)
    if subject in {"each player", "each opponent"}:
        sel["kind"] = "other_player"
        sel["chooser"] = "each_player"
        because.append(("selection=other_player", subject))
    if action == "split_damage" and vm.group(0).lower().startswith("deal") and previous:
        eff["amount_from"] = {"stat": "might", "effect": previous[-1].effect["id"]}
        because.append(("amount_from=might", vm.group(0)))
    if action in {"draw", "gain_life", "lose_life"} and subject in {None, "you"}:
        sel.update(kind="fixed", pool={"types": ["player"], "controller": "you"})
        eff["selection"] = sel
        because.append(("selection=fixed(you)", clause))
        return Clause(text, eff, because)
    if action == "search":
        sel.update(kind="search")
        eff["selection"] = sel
        because.append(("selection=search", vm.group(0)))
        return Clause(text, eff, because)

    obj = _OBJ.search(rest)
    if (_SELF.match(rest) or (subject == "it" and not obj and previous)) and _SELF.match(rest):
        sel.update(kind="self")
        because.append(("selection=self", _SELF.match(rest).group(0)))  # type: ignore[union-attr]
        eff["selection"] = sel
        return Clause(text, eff, because)
    if obj is None:
        if re.match(r"^(?:it|them|that)\b", rest, re.IGNORECASE) and previous:
            sel.update(kind="reference", refers_to=previous[-1].effect["id"], ref_role="same")
            because.append(("selection=reference", rest.split()[0]))
            eff["selection"] = sel
            return Clause(text, eff, because)
        return None
    quant = obj.group("quant") or ""
    ql = quant.lower()
    if not ql and obj.group("noun").lower().endswith("s"):
        ql = "all"  # "units at battlefields" with no quantifier names a set
    noun = obj.group("noun")
    pool = _pool(noun, obj.group("adj") or "", obj.group("loc"), obj.group("locq"), quant)
    because.append((f"pool.types={pool.get('types') or pool.get('traits')}", obj.group(0)))
    if sel["kind"] in {"choose"}:
        if ql in {"all", "all of the", "each", "every"}:
            sel["kind"] = "all"
            because.append(("selection=all", quant))
        elif ql in {"your", "my"} and not noun.lower().endswith("s"):
            sel["kind"] = "fixed"
            because.append(("selection=fixed", f"{quant} {noun}"))
        elif ql in {"that", "those", "these", "its", "their"} and previous:
            sel.update(kind="reference", refers_to=previous[-1].effect["id"], ref_role="same")
            because.append(("selection=reference", f"{quant} {noun}"))
        elif ql == "the next":
            sel["kind"] = "future"
            because.append(("selection=future", obj.group(0)))
        else:
            sel["count"] = _count(quant)
            because.append((f"count={sel['count']['mode']} {sel['count'].get('n')}", quant))
    elif sel["kind"] in {"pick", "cost", "must", "other_player"}:
        sel["count"] = _count(quant) if ql not in {"all", "each", "every"} else {"mode": "exactly", "n": 1}
    if ql in {"your", "my"} and "controller" not in pool:
        pool["controller"] = "you"
    sel["pool"] = pool
    if action == "split_damage":
        sel["divides_amount"] = True
        if ql in {"all", "each", "every"} or noun.lower().endswith("s") and ql not in NUM:
            sel["kind"] = "choose"
            sel["count"] = {"mode": "any_number", "n": None}
    tail = rest[obj.end():]
    ctl = re.match(r"\s*(?P<w>you|they|its controller|their controller) controls?\b", tail, re.IGNORECASE)
    if ctl:
        # "the unit you control": the pool is the chooser's own objects.
        if ctl.group("w").lower() == "you" and "controller" not in pool:
            pool["controller"] = "you"
        because.append(("pool.controller", ctl.group(0).strip()))
    duration = re.search(r"\b(?:this turn|until (?:the )?end of (?:the |this )?turn)\b", clause, re.IGNORECASE)
    if duration:
        # How long a change lasts never changes what is chosen or when (355.7-355.16 choose
        # objects; a duration only limits the effect afterwards).
        because.append(("duration (not a choice)", duration.group(0)))
    gm = re.search(rf"with (?:a )?total might (?:of )?(?P<n>{NUM}) or less", tail, re.IGNORECASE)
    if gm:
        sel["group"] = {"stat": "might", "max_total": number_of(gm.group("n")), "same_location": bool(pool.get("location"))}
        because.append(("group=total might", gm.group(0)))
    eff["selection"] = sel
    if condition:
        because.append(("condition", condition))
    return Clause(text, eff, because)


@dataclass
class ParsedAbility:
    ability: dict[str, Any]
    because: list[tuple[str, str]]
    unread: tuple[str, ...] = ()
    """Words of the text that no part of the reading used (a clause that did not parse,
    words after the object, a negation): a partial read of the text."""


def unread_words(text: str, evidence: list[str]) -> tuple[str, ...]:
    """The content words and negations of ``text`` that no evidence string contains."""
    seen = content_words(" ".join(evidence)) | {w for e in evidence for w in tokens(e) if is_negation(w)}
    out = [w for w in tokens(words_to_digits(text))
           if (w not in seen if is_negation(w) else not content_words(w) <= seen)]
    return tuple(dict.fromkeys(out))


def parse_ability(text: str, kind: str = "spell") -> ParsedAbility | None:
    """Ability text -> ``engine.scenario.Ability`` as a dict, or None if no clause parses."""
    clauses: list[Clause] = []
    for i, raw in enumerate(_split_clauses(text), start=1):
        c = parse_clause(raw, len(clauses) + 1, clauses)
        if c is not None:
            clauses.append(c)
    if not clauses:
        return None
    labels = sorted({c.effect["action"] for c in clauses if c.effect["action"] in {"attack", "thwart"}})
    ability = {"kind": kind, "text": text, "labels": labels, "effects": [c.effect for c in clauses]}
    because = [(f"{c.effect['id']}.{part}", words) for c in clauses for part, words in c.because]
    return ParsedAbility(ability, because, unread_words(text, [words for _, words in because]))
