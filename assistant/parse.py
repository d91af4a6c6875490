"""Question -> engine scenario. The parse is inspectable: every part records the words that
produced it (``because``), which ``arbiter ask --explain`` prints.

Order: the ability (a named card or known example, quoted text, or a described ability),
the question kind (:mod:`assistant.intents`), then the situation (objects, stats, what
happened before resolution) and the engine question. Anything the parse cannot fill with
confidence makes it fail, and the answer abstains."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from assistant.abilities import NUM, parse_ability
from assistant.coverage import baseline_spans, credited_spans, cues, polarity, uncovered
from assistant.intents import KindClassifier, kind_words
from assistant.known import KNOWN, KnownAbility
from assistant.textnorm import fold, normalise, number_of, outside_quotes, quoted_spans
from assistant.words import is_negation, tokens
from ingest.errors import ArbiterError


class ParseFailure(ArbiterError, ValueError):
    """The question could not be turned into a scenario with confidence."""

    #: The reason holds for any reading (a rule fact's wording does not settle it either).
    conclusive: ClassVar[bool] = False


class UnclearReferent(ParseFailure):
    """The question points at one object ("that one") of several it describes: a rule
    fact's wording, which points at nothing, does not say which either."""

    conclusive = True


@dataclass
class Parse:
    game: str
    kind: str
    scenario: dict[str, Any] | None = None
    # Several scenarios whose engine verdicts combine ("does it choose ANY targets?").
    alternatives: list[dict[str, Any]] = field(default_factory=list)
    combine: str = "single"  # single | any | invert
    because: list[tuple[str, str]] = field(default_factory=list)
    confidence: float = 0.0
    ability_name: str | None = None
    negated: bool = False
    """The question asks whether a negated statement is true: invert the verdict."""
    negation: str = ""


def _n(word: str | None, default: int | None = None) -> int | None:
    if word is None:
        return default
    v = number_of(word)
    return default if v is None else v


# ------------------------------------------------------------------ ability sources


def _denied(clause: str) -> bool:
    """An override clause that denies itself ("(the text doesn't defer it)"): it does not hold."""
    return any(is_negation(w) for w in tokens(clause))


_DESCRIBED: list[tuple[str, str, str]] = [
    # "whose text identifies only game objects (as targets)": the one target type its text names.
    ((r"\b(?:identif(?:y|ies)|names?|lists?|mentions?|refers? to) only (?P<t>players?|arena spaces?|game objects?)"
      r"(?: as (?:a |the |its )?(?:targets?|target types?|target slots?))?"), "typed", "ability"),
    (r"\bonly (?:identifies|names|mentions|refers to) (?:game )?objects\b", "Choose a game object", "ability"),
    # (pattern in the question, ability text in the grammar's words, ability kind)
    (r"\bnext (?:event|card|spell) you play\b|\bfuture target\b|\brefer(?:s|ring)? to (?:a |the )?future\b", "future", "event"),
    (r"\b(?:effect|ability|event|card|spell) (?:that|which) (?:only )?deals? (?:it |them |him |her )?(?:\d+ )?damage\b", "Deal 3 damage to an enemy", "event"),
    # "damage that is dealt (but not taken)": the rule's own generic damage ability.
    (r"\bdamage (?:that|which) (?:is|was|gets) dealt\b", "Deal 3 damage to a minion", "event"),
    # "an ability whose only effect (on its target) is dealing damage" (target.3.7's case).
    (r"\bonly effect(?: on (?:its|the|that) target)? is (?:to )?deal(?:ing|s)? (?:it )?(?:\d+ )?damage\b", "Deal 3 damage to an enemy", "event"),
    (r"\b(?:hidden )?hand\b.*\b(?:chosen|choose|pick)|\b(?:chosen|choose|picked)\b.*\bhand\b", "hand", "spell"),
    # "pick" describes the ability, not the player's own choosing ("if I pick 0 of them").
    (r"(?<!\bi )(?<!\byou )(?<!\bwe )(?<!\bthey )\bpick\b(?! (?:\d|none|nothing|zero|no\b|any\b|which))", "Pick a unit", "spell"),
    (r"\b(?:mentioned|named|appears?|referred to) only in (?:an? |the |its )?(?P<role>cost|replacement effect|trigger(?:ing)? condition)", "role", "spell"),
    (r"\b(?:has|have|lets?|makes?|asks?) (?:my |an? |the |their )?(?:opponent|other player|another player)s? (?:to )?(?:choose|pick|select)", "other_player", "spell"),
    (r"\b(?:card|spell|ability|effect) (?:that )?(?:chooses|targets|picks) (?:that |a |an |one )?player", "Choose a player", "spell"),
    (r"\b(?:card|spell|ability|effect) (?:that )?(?:chooses|targets) (?:a |an |one )?(?:specific |particular |single )?unit\b", "Choose a unit", "spell"),
    (r"\b(?:a |the )?(?:player|you|they|opponent) must (?:make a choice|choose|pick|select)\b", "You must kill a unit", "spell"),
    (r"\bdamage (?:i|you|it|that|we) deals?\b", "Deal 3 damage to a minion", "event"),
    (r"\b(?P<neg>doesn't |does not |don't |do not |never )?(?:identify|identifies|name|names|list|lists) (?:an? |the )?(?P<t>players?|arena spaces?|game objects?|objects?) as (?:a |the |its )?target types?", "typed", "ability"),
    (r"\bbasic (?:attack|thwart|power)\b|\bmake an? (?:attack|thwart)\b", "basic", "basic_power"),
    (r"\battack[- ]label", "Attack an enemy", "event"),
    (r"\bthwart(?:[- ]label\w*)? (?:ability|effect|card|event)\b|\bthwart[- ]label", "Thwart a scheme", "event"),
    (r"\b(?:damage|damaging) (?:effect|ability|event|card|spell)\b", "Deal 3 damage to a minion", "event"),
    (r"\bheals?\b[^.?;]{0,40}?\band (?:also )?read(?:y|ies)\b", "Heal a character. Ready that character.", "event"),
    (r"\breadies\b|\bready a character\b", "Ready a character", "event"),
    (r"\bsearch", "Search your deck", "event"),
    # "the draw step" / "my draw phase" names a step, not an ability that draws.
    (r"\bdraws?\b(?! (?:step|phase))", "Draw 1 card", "event"),
]


@dataclass
class AbilityPick:
    ability: dict[str, Any]
    because: list[tuple[str, str]]
    name: str | None = None
    game: str | None = None
    quoted: str | None = None
    asked_type: str | None = None
    """A described ability that names the type of object the question is about."""
    kinds: tuple[str, ...] = ()
    """For a known rules example: the question kinds its rule decides (others abstain)."""
    unread: tuple[str, ...] = ()
    """Words of the ability's text that its reading did not use (a partial read)."""


# An instruction the question describes in its own words, after the thing that carries it
# ("a spell that deals 4 damage split among ...", "my event readies a character") or leading
# the question ("Kill a unit at a battlefield — ..."). Only instruction verbs that a
# situation rarely uses on its own head a candidate; the candidate is the ability only when
# the ability grammar reads every word of it.
_HEADS = (r"deals?|kills?|destroys?|defeats?|stuns?|ready|readies|exhausts?|heals?|removes?|places?|adds?"
          r"|draws?|banish(?:es)?|recycles?|returns?|discards?|gains?|loses?|gives?|split")
_CARRIER = (r"(?:spell|ability|card|event|effect|trigger|power|attack|upgrade|support|attachment|text)s?"
            r"(?:\s+(?:that|which|will|would|can|could|to))?")
_INSTRUCTION = re.compile(rf"\b{_CARRIER}\s+(?P<t>(?:{_HEADS})\b[^.?!;,:()]*)"
                          rf"|^\s*(?P<lead>(?:{_HEADS})\b[^.?!;:()]*?)\s*(?:—|–|:|\s-\s)", re.IGNORECASE)
_INSTRUCTION_END = re.compile(r"\s+(?:is|are|was|were|does|do|did|can|could|will|would|should|must|may|and (?:i|you|my|the|it|they)"
                              r"|but|so|if|when|whenever|while|before|after|because|since|even|though|although)\b.*$",
                              re.IGNORECASE)


def _instruction(outside: str) -> AbilityPick | None:
    for m in _INSTRUCTION.finditer(outside):
        raw = m.group("t") or m.group("lead") or ""
        text = _INSTRUCTION_END.sub("", raw).strip()
        if len(text.split()) < 2:
            continue
        pa = parse_ability(text)
        if pa is not None and not pa.unread:
            return AbilityPick(pa.ability, [("ability", text)] + pa.because)
    return None


_LABEL = re.compile(r"\b(?P<a>attack|thwart)[- ]label(?:l)?ed\b|\blabel(?:l)?ed\s+(?:as\s+)?(?:an?\s+)?(?P<b>attack|thwart)\b",
                    re.IGNORECASE)


def _known(text: str) -> KnownAbility | None:
    f = fold(text)
    for k in KNOWN:
        for n in (k.name, *k.aliases, k.name.split(",")[0]):
            if fold(n) and fold(n) in f:
                return k
    return None


def _apply_patch(ability: dict[str, Any], patch: dict[str, dict[str, Any]]) -> dict[str, Any]:
    out = copy.deepcopy(ability)
    for eff in out["effects"]:
        eff.update(copy.deepcopy(patch.get(eff["id"], {})))
    return out


class Parser:
    """Stateless per question; holds the classifier and the card-name table."""

    def __init__(self, classifier: KindClassifier, card_lookup: Any = None) -> None:
        self.classifier = classifier
        self.card_lookup = card_lookup  # callable(name) -> (name, game, text) | None

    # .............................................................. the ability
    def ability(self, q: str, outside: str) -> AbilityPick | None:
        known = _known(q)
        if known is not None:
            pa = parse_ability(known.text, known.kind)
            if pa is not None:
                ab = _apply_patch(pa.ability, known.patch)
                ab["name"] = known.name
                return AbilityPick(ab, [("ability", f"known example {known.name}")] + pa.because,
                                   known.name, known.game, kinds=known.decides)
        if self.card_lookup is not None:
            hit = self.card_lookup(q)
            if hit is not None:
                name, game, text = hit
                pa = parse_ability(text)
                if pa is not None:
                    pa.ability["name"] = name
                    return AbilityPick(pa.ability, [("ability", f"card {name}")] + pa.because, name, game, unread=pa.unread)
        for qs in quoted_spans(q):
            if qs.text.lower() in {"pick", "may", "choose", "target"}:
                continue
            pa = parse_ability(qs.text)
            if pa is None and re.fullmatch(r"(?:any number|up to(?: \d+| X)?)", qs.text, re.IGNORECASE):
                # A quoted quantifier inside a described ability ('affects "any number" of
                # units'): read the quantifier together with the noun phrase after it.
                tail = re.match(r"\s*(of \w+(?: \w+)?)", q[qs.end:]) if qs.text.lower().startswith("any") else \
                    re.match(r"\s*(\d+ \w+)" if qs.text.lower() == "up to" else r"\s*(\w+(?: \w+)?)", q[qs.end:])
                if tail:
                    pa = parse_ability("affect " + re.sub(r"\bX\b", "2", qs.text) + " " + tail.group(1))
                    if pa is not None:
                        pa.because.append(("quantifier's noun", tail.group(1)))
            if pa is None and re.match(r"(?:each|every|all|an?|up to|any number of|choose)\b", qs.text, re.IGNORECASE):
                # A quoted selection without its instruction ("'each enemy' ability"); a
                # variable count ("up to X targets") reads as 2: the rules treat every X alike.
                pa = parse_ability(("" if qs.text.lower().startswith("choose") else "affect ")
                                   + re.sub(r"\bX\b", "2", qs.text))
            if pa is not None:
                because = [("ability", f'"{qs.text}"')] + pa.because
                label = _LABEL.search(outside)
                if label is not None:
                    # "an attack-labeled event: '...'": the label the question gives the text.
                    word = (label.group("a") or label.group("b")).lower()
                    pa.ability["labels"] = sorted(set(pa.ability.get("labels", [])) | {word})
                    because.append((f"labels=[{word}]", label.group(0)))
                # The words just before the quote can say what role the text plays.
                role = re.search(r"\b(?:(?:additional )?(?P<c>cost)|(?P<r>replacement effect)|(?P<t>trigger(?:ing)? condition))\s*(?:of|is|reads|says|:)?\s*[\"']?$",
                                 q[max(0, qs.start - 40):qs.start + 1].rstrip("\"'"), re.IGNORECASE)
                if role:
                    kind_ = "cost" if role.group("c") else "replacement" if role.group("r") else "trigger_condition"
                    for e in pa.ability["effects"]:
                        e["selection"]["kind"] = kind_
                    because.append((f"selection={kind_}", role.group(0).strip()))
                return AbilityPick(pa.ability, because, quoted=qs.text, unread=pa.unread)
        said = re.search(r"\b(?:says|reads|that says|saying|with the text|text is)\s+(?P<t>[^.?!]+)", outside, re.IGNORECASE)
        if said:
            pa = parse_ability(said.group("t"))
            if pa is not None:
                return AbilityPick(pa.ability, [("ability", said.group(0))] + pa.because, unread=pa.unread)
        verbs = r"(?:deals?|kills?|stuns?|read(?:y|ies)|exhausts?|removes?|heals?|banish(?:es)?|destroys?|recycles?|affects?)"
        bare = re.search(rf"(?:^\s*(?:for|with|about|regarding)\s+|\b(?:an?|the|my|this) (?:effect|spell|ability|card|event) (?:that )?)(?P<t>{verbs}\b[^.?!;,]+?)(?=[.?!;,]|\s+(?:is|are|does|do|can|will)\s|$)",
                         outside, re.IGNORECASE)
        if not bare:
            # "Kill all units at a battlefield: does that card ...": the card text leads.
            bare = re.match(rf"^\s*(?P<t>{verbs}\b[^:?;]+?)\s*(?::|\s-\s)", outside, re.IGNORECASE)
        if bare:
            pa = parse_ability(bare.group("t"))
            if pa is not None:
                return AbilityPick(pa.ability, [("ability", bare.group(0))] + pa.because, unread=pa.unread)
        instr = _instruction(outside)
        if instr is not None:
            return instr
        req = re.search(rf"\b(?:requires?|requiring|needs?|needing|that needs) (?P<n>{NUM}|an?) target (?P<noun>units?|minions?|enem(?:y|ies)|characters?|players?)", outside, re.IGNORECASE)
        if req:
            n = req.group("n")
            text = f"Kill {n if n.lower() not in {'a', 'an'} else 'a'} {req.group('noun')}"
            pa = parse_ability(text)
            if pa is not None:
                return AbilityPick(pa.ability, [("ability", req.group(0))] + pa.because)
        for rx, text, kind in _DESCRIBED:
            m = re.search(rx, outside, re.IGNORECASE) or re.search(rx, q, re.IGNORECASE)
            if not m:
                continue
            if text == "future":
                ab = {"kind": kind, "text": m.group(0), "effects": [
                    {"id": "e1", "action": "buff", "text": m.group(0), "selection": {"kind": "future", "pool": {"types": ["event"]}}}]}
                return AbilityPick(ab, [("ability", m.group(0)), ("e1.selection=future", m.group(0))])
            if text == "role":
                role = m.group("role").lower()
                kind_ = "cost" if role == "cost" else "replacement" if role.startswith("repl") else "trigger_condition"
                ab = {"kind": "spell", "text": m.group(0), "effects": [
                    {"id": "e1", "action": "kill", "text": m.group(0),
                     "selection": {"kind": kind_, "pool": {"types": ["unit"]}}}]}
                return AbilityPick(ab, [("ability", m.group(0)), (f"e1.selection={kind_}", m.group(0))])
            if text == "other_player":
                ab = {"kind": "spell", "text": m.group(0), "effects": [
                    {"id": "e1", "action": "kill", "text": m.group(0),
                     "selection": {"kind": "other_player", "chooser": "other_player", "pool": {"types": ["unit"]}}}]}
                return AbilityPick(ab, [("ability", m.group(0)), ("e1.selection=other_player", m.group(0))])
            if text == "typed":
                t = m.group("t").lower().rstrip("s")
                t = {"arena space": "arena_space", "game object": "game_object", "object": "game_object"}.get(t, t)
                if m.groupdict().get("neg"):
                    types = ["player"] if t == "game_object" else ["game_object"]
                else:
                    types = [t]
                ab = {"kind": "ability", "text": m.group(0), "effects": [
                    {"id": "e1", "action": "other", "text": m.group(0),
                     "selection": {"kind": "choose", "pool": {"types": types}}}]}
                return AbilityPick(ab, [("ability", m.group(0)), (f"e1.pool.types={types}", m.group(0))], asked_type=t)
            if text == "hand":
                ab = {"kind": "spell", "text": m.group(0), "effects": [
                    {"id": "e1", "action": "discard", "text": m.group(0),
                     "selection": {"kind": "choose", "pool": {"types": ["card"], "zone": "hand", "controller": "opponent"}}}]}
                return AbilityPick(ab, [("ability", m.group(0)), ("e1.pool.zone=hand", m.group(0))])
            if text == "basic":
                label = "thwart" if "thwart" in m.group(0).lower() else "attack"
                stat = {"attack": "atk", "thwart": "thw"}[label]
                target = "Thwart a scheme" if label == "thwart" else "Attack an enemy"
                pa = parse_ability(target, kind)
                assert pa is not None
                pa.ability.update(labels=[label], uses_stat=stat, source="hero1")
                return AbilityPick(pa.ability, [("ability", m.group(0)), ("uses_stat", stat)] + pa.because)
            pa = parse_ability(text, kind)
            if pa is not None:
                if "attack" in text.lower():
                    pa.ability["labels"] = ["attack"]
                if "thwart" in text.lower():
                    pa.ability["labels"] = ["thwart"]
                return AbilityPick(pa.ability, [("ability", m.group(0))] + pa.because)
        return None


# ------------------------------------------------------------------ situation helpers

_RESTRICTIONS = [
    (r"can(?:no|')t take damage|cannot be damaged|can't be damaged|immune to damage", "cannot_take_damage"),
    (r"can(?:no|')t be attacked|cannot be attacked|unattackable", "cannot_be_attacked"),
    (r"can(?:no|')t be thwarted|cannot be thwarted", "cannot_be_thwarted"),
    (r"can(?:no|')t (?:be )?ready|cannot (?:be )?ready|can't be readied|cannot be readied", "cannot_ready"),
    (r"can(?:no|')t be stunned", "cannot_be_stunned"),
    # "prevented from <verb>ing" negates an ability to act; it is no damage prevention.
    (r"prevent(?:s|ed)?\b(?! (?:\w+ ){0,3}?from \w+ing\b)|will be blocked", "damage_prevented"),
    (r"can(?:no|')t be targeted|untargetable", "cannot_be_targeted"),
]
_TYPE_WORDS = [
    (r"\bminions?\b", "minion"), (r"\bvillains?\b", "villain"), (r"\bheroe?s?\b", "hero"),
    (r"\ball(?:y|ies)\b", "ally"), (r"\bcharacters?\b", "ally"), (r"\benem(?:y|ies)\b", "minion"),
    (r"\bschemes?\b", "side_scheme"), (r"\blegends?\b", "legend"), (r"\bunits?\b", "unit"),
    (r"\bplayers?\b", "player"), (r"\bcards?\b", "card"),
]


def _object_type(effect: dict[str, Any], game_default: str = "game_object") -> str:
    pool = effect.get("selection", {}).get("pool", {})
    types = pool.get("types") or []
    traits = pool.get("traits") or []
    if "enemy" in traits + types:
        return "minion"
    if "character" in traits + types:
        return "ally"
    if types:
        t = types[0]
        return {"scheme": "side_scheme"}.get(t, t)
    return game_default


def _controller_for(effect: dict[str, Any]) -> str:
    c = effect.get("selection", {}).get("pool", {}).get("controller", "any")
    return "you" if c == "you" else "opp"


# A clause that says some chosen targets became illegal: its subject counts them.
_ILLEGAL_CLAUSE = re.compile(
    r"(?P<subj>[^.;,?!:\u2014]*?)\b(?:is|are|was|were|becomes?|became|goes|go|went|gets?|got|turns?|turned|'s|s)?\s*"
    r"(?:now\s+|already\s+)?(?:illegal|invalid|gone(?:/illegal)?|no longer (?:legal|valid))\b")
_TOTAL = re.compile(r"\b(\d+) (?:of (?:my |its |the )?)?(?:chosen |enemy |opposing |friendly |legal |different )?"
                    r"(?:targets?|units?|enem(?:y|ies)|minions?|characters?|recruits?|objects?)\b")
_SINGLE = re.compile(r"\b(?:the|my|its|that|this|a|an|one|1)\s+(?:only\s+|single\s+|sole\s+|chosen\s+|original\s+)?"
                     r"(?:\w+\s+)?(?:target|unit|minion|enemy|character|creature|one|object)(?:'s)?\s*$|^\s*(?:it|it's|its)\s*$")
_OTHERS_LEGAL = re.compile(r"\b(?:the other(?: one| target)?|the remaining|the rest|the legal (?:one|target)s?|"
                           r"(?:is|are|stays?|remains?) (?:still )?(?:fine|legal|valid)|still (?:legal|valid|fine))\b")


# After an object's noun: the stat a basic power uses ("a hero with ATK 0", "whose THW is 0").
_SOURCE_STAT = re.compile(r"\s*(?:'s\s+|with\s+(?:an?\s+)?(?:\d+\s+)?|whose\s+|has\s+(?:an?\s+)?(?:\d+\s+)?|of\s+)(?:atk|thw|sch)\b",
                          re.IGNORECASE)


def illegal_stated(low: str, ability: dict[str, Any] | None) -> tuple[int, int, str, str] | None:
    """(targets chosen, of which illegal, the words saying so, the words giving the total)
    from a clause that says a counted subject became illegal ("two targets, one goes
    illegal", "the unit's gone by resolution"), or None. The total comes from a stated
    count of targets, or from the ability choosing exactly one; "the other / remaining
    legal one" says at least one stayed legal (one more than the illegal ones, which rules
    alike for any larger number)."""
    for m in _ILLEGAL_CLAUSE.finditer(low):
        subj = m.group("subj").strip()
        subj = re.sub(r"^(?:and|but|so|then|when|if|because|since|once|after|before)\s+", "", subj)
        num = re.search(r"\b(\d+)\b(?!.*\b\d+\b)", subj)
        if num and not re.search(r"\b\d+\s+(?:damage|might|atk|thw)\b", subj):
            illegal = int(num.group(1))
        elif _SINGLE.search(subj) or not subj:
            illegal = 1
        else:
            continue
        counts = [(int(t.group(1)), t.group(0)) for t in _TOTAL.finditer(low) if t.start() < m.end()]
        stated = [c for c in counts if c[0] > illegal]
        if stated:
            total, total_words = max(stated)
        else:
            eff = _first_choose(ability) if ability else None
            n = (eff or {}).get("selection", {}).get("count", {})
            others = _OTHERS_LEGAL.search(low)
            if others:
                total, total_words = illegal + 1, others.group(0)
            elif illegal == 1 and n.get("mode") == "exactly" and n.get("n") == 1:
                total, total_words = 1, "the ability's one target"
            else:
                continue
        return total, illegal, m.group(0).strip(), total_words
    return None


def _first_choose(ability: dict[str, Any]) -> dict[str, Any] | None:
    for e in ability["effects"]:
        if e.get("selection", {}).get("kind", "choose") == "choose":
            return e
    return None


def _split_effect(ability: dict[str, Any]) -> dict[str, Any] | None:
    for e in ability["effects"]:
        if e.get("selection", {}).get("divides_amount") or e.get("selection", {}).get("group"):
            return e
    return None


_UP = (r"(?:gains?|gained|gets?|got|grows?|grew|grown|increase[sd]?|rises?|rose|risen|goes up|went up|buff(?:s|ed)?"
       r"|pump(?:s|ed)?|boost(?:s|ed)?|raise[sd]?)")
_DOWN = (r"(?:drops?|dropped|reduce[sd]?|falls?|fell|fallen|goes down|went down|lower(?:s|ed)?|shrinks?|shrank|shrunk"
         r"|decrease[sd]?|debuff(?:s|ed)?|nerf(?:s|ed)?|weaken(?:s|ed)?|cut|loses?|lost)")


def stat_change(text: str) -> tuple[str, int, str] | None:
    """A Might change before resolution: ("set_stat", N, words) for "... to N Might" whatever
    the verb ("drops to 3", "gets shrunk to 3", "got buffed to 2"); ("modify_stat", +/-N,
    words) for "+N Might", "gains N Might", "loses N Might", "reduced by N"."""
    low = text.lower()
    m = re.search(rf"\b(?:{_UP}|{_DOWN}|becomes?|became|goes|went|is now|are now|now)\b(?: \w+){{0,3}}? to (\d+)(?:[- ]?might)?\b", low)
    if m:
        return "set_stat", int(m.group(1)), m.group(0)
    # "... and is now at 2 Might": the current value after a change, stated as a state.
    m = re.search(r"\b(?:is|are|was|were|stands?|sits?) now at (\d+)[- ]?might\b|\bnow (?:has|at|with) (\d+)[- ]?might\b", low)
    if m:
        return "set_stat", int(m.group(1) or m.group(2)), m.group(0)
    m = re.search(rf"\b(?P<v>{_UP}|{_DOWN})\b(?: \w+){{0,2}}? (?:by )?(?P<s>[+-])?(?P<n>\d+)[- ]?might\b|(?P<s2>[+-])(?P<n2>\d+)[- ]?might\b", low)
    if m:
        if m.group("n2"):
            n = int(m.group("n2"))
            return "modify_stat", -n if m.group("s2") == "-" else n, m.group(0)
        n = int(m.group("n"))
        down = re.fullmatch(_DOWN, m.group("v")) is not None or m.group("s") == "-"
        return "modify_stat", -n if down else n, m.group(0)
    return None


_SIDE_NONE = re.compile(
    r"\bonly (?:the )?main scheme\b[^.?;]*\bthreat|\bmain scheme (?:is|was) the only (?:scheme|one)\b[^.?;]*"
    r"|\bno (?:other|side) schemes?\b[^.?;]*|\bside schemes? (?:have|has|with) no threat\b"
    r"|\bonly scheme (?:with|that has|having) threat\b|\bno side scheme has threat\b")
_SIDE_SOME = re.compile(
    r"\b(?:a|one|the|another|some) side schemes? (?:also )?(?:has|have|with|holds?)\b(?: \d+)? threat\b"
    r"|\bside schemes? (?:both |also )?(?:has|have|with|holds?)(?: \d+)? threat\b"
    r"|\bmain scheme and (?:a|one|the|another) side scheme (?:both |each )?(?:have|has|with)\b(?: \d+)? threat\b"
    r"|\b(?:other|another) schemes? (?:also )?(?:has|have|with)\b(?: \d+)? threat\b"
    r"|\bat least (?:1|one) (?:side |other )?scheme\b[^.?;]*\bthreat\b")


def _scheme_threat(low: str) -> tuple[int, int, str]:
    """(main scheme threat, side scheme threat, words) for a crisis-icon question; the
    side scheme's threat must be stated one way or the other (target.4: the ability can
    be used only if some scheme can lose threat)."""
    main = 0 if re.search(r"\bmain scheme (?:has|with) no threat\b", low) else 3
    none, some = _SIDE_NONE.search(low), _SIDE_SOME.search(low)
    if bool(none) == bool(some):
        raise ParseFailure("I could not tell whether any scheme besides the main scheme has threat.")
    m = none or some
    assert m is not None
    return main, 0 if none else 2, m.group(0)


def _mights(q: str) -> list[int]:
    return [int(x) for x in re.findall(r"\b(\d+)[- ]?Might\b", q, re.IGNORECASE)]


@dataclass
class World:
    """Objects the parse creates, as engine dicts."""

    objects: list[dict[str, Any]] = field(default_factory=list)
    locations: list[dict[str, Any]] = field(default_factory=list)
    zones: list[dict[str, Any]] = field(default_factory=list)
    crisis: int = 0
    players: list[dict[str, Any]] = field(default_factory=lambda: [{"id": "you"}, {"id": "opp"}])

    def add(self, prefix: str, type_: str, controller: str = "opp", **kw: Any) -> str:
        oid = f"{prefix}{sum(1 for o in self.objects if o['id'].startswith(prefix)) + 1}"
        obj: dict[str, Any] = {"id": oid, "type": type_, "controller": controller}
        obj.update(kw)
        self.objects.append(obj)
        return oid

    def battlefield(self) -> str:
        if not self.locations:
            self.locations.append({"id": "bf1", "kind": "battlefield"})
        return self.locations[0]["id"]

    def state(self) -> dict[str, Any]:
        return {"players": self.players, "objects": self.objects, "zones": self.zones,
                "locations": self.locations, "crisis_icons": self.crisis}


def _candidates(w: World, effect: dict[str, Any], n: int, stats: list[dict[str, int]] | None = None,
                restrictions: list[str] | None = None) -> list[str]:
    """``n`` objects that fit the effect's pool."""
    t = _object_type(effect)
    if t == "player":
        return ["opp", "you"][:n]
    pool = effect.get("selection", {}).get("pool", {})
    kw: dict[str, Any] = {}
    if pool.get("location") or t == "unit":
        kw.update(zone="battlefield", location=w.battlefield())
    ids = []
    for i in range(n):
        extra = dict(kw)
        if stats:
            extra["stats"] = stats[i] if i < len(stats) else stats[-1]
        if restrictions:
            extra["restrictions"] = restrictions
        ids.append(w.add("o", t, _controller_for(effect), **extra))
    return ids


# ------------------------------------------------------------------ the parse


def _outside_quotes(q: str) -> str:
    return outside_quotes(q)


_ASK = re.compile(r"\b(?:can|could|may|might i|is|are|does|do|must|will|would|should|am i)\b(?![^?]*[.;]\s)", re.IGNORECASE)


def ask_clause(text: str) -> str:
    """The sentence that asks (the last one): "X happened; Y changed. Can I ...?" -> "Can I ...?"."""
    # A sentence may end inside quoted card text ('... "choose 3 targets." How many ...').
    parts = re.split(r"(?<=[.;:!])\s+|(?<=[.!?][\"'\u201d])\s+|;\s*|\s+-\s+", text.strip())
    parts = [p for p in parts if p.strip()]
    return parts[-1] if parts else text


def _scn(game: str, ability: dict[str, Any], w: World, question: dict[str, Any],
         timeline: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"schema_version": 1, "game": game, "ability": ability, "state": w.state(),
            "timeline": timeline or {}, "question": question}


def _generic(kind: str = "spell", text: str = "Kill a unit") -> dict[str, Any]:
    pa = parse_ability(text, kind)
    assert pa is not None
    return pa.ability


# Card text that itself instructs moving a lost portion ("reassign its damage to another
# target", "redistribute it"), not denying it ("do not reassign").
_REASSIGN_INSTRUCTION = re.compile(r"^(?:(?!\b(?:not|n't|never|cannot|can't)\b).)*\b(?:reassign|redistribute|reallocate)\b", re.IGNORECASE)
_FIXED = re.compile(r"\b(?:locked(?: in)?|lock(?:s|ed)? in|stay(?:s)? (?:locked|fixed|the same|put|as (?:they are|chosen))|fixed|final"
                    r"|permanent|set in stone|frozen|stuck)\b", re.IGNORECASE)
_ABILITY_ITSELF = re.compile(
    r"\b(?:target|choose|pick|select)\w* itself\b|\b(?:spell|ability)(?: \w+){0,2}? itself\b|\bits? own ability\b", re.IGNORECASE)
# The property asked about is the absence of targeting.
_NEG_PROPERTY = re.compile(
    r"\bautomatic(?:ally)?(?: selection| selected| included| chosen)?\b(?:[^?]*?\b(?:with )?(?:no|without) targeting\b)?"
    r"|\b(?:with )?(?:no|without) targeting\b|\buntargeted\b"
    r"|\b(?:just |only |merely )?(?:a |its )?location restriction\b(?: rather than (?:a |being )?target(?:ed)?\b)?"
    r"|\b(?:rather than|instead of) (?:a |being )?target(?:ed)?\b", re.IGNORECASE)


# Asked-object phrases: the object is named by a property it must have in the scenario.
_ASKED_OBJECT = re.compile(
    r"\b(?:the|that|this|its)\s+(?P<props>(?:(?:only|remaining|surviving|other|last|legal|illegal|valid|invalid|lone|still)\s+){1,3})"
    r"(?:1|target|unit|object|minion|enemy|recruit)s?\b(?!\s+(?:of|at|from))", re.IGNORECASE)

# Anaphora to a single object the situation singled out ("does it affect that one?").
_ANAPHOR = re.compile(r"\b(?:that|this|the) (?:1|one)\b(?! of\b)|\b(?:that|this) (?:target|unit|object|minion)\b(?! (?:of|at|from)\b)|\b(?:affects?|hit|hits|damages?|kills?) (?:it|that|this)\s*\?",
                      re.IGNORECASE)

# Plural anaphora to the group the situation singled out ("Are those two affected?",
# "does it affect them?"): the group must have exactly the stated size when one is given.
_ANAPHOR_PLURAL = re.compile(
    r"\b(?:those|these|the) (?P<n>\d+)\b(?! of\b)(?: (?:targets?|units?|objects?|ones?|minions?|enem(?:y|ies)))?"
    r"|\b(?:those|these)(?: (?:targets?|units?|objects?|ones|minions|enemies))?\b(?! of\b)"
    r"|\b(?:affects?|hit|hits|damages?|kills?) them\b|\b(?:are|were) they\b", re.IGNORECASE)

# "is the unit (still) the thing being targeted", "are the units targeted": the subject
# of an asking clause about being targeted.
_ASKED_SUBJECT = re.compile(r"\b(?:is|are) (?:the|that|this|those|these) (?P<n>[a-z]+) (?:(?:still|really|actually|the thing|one|what|being|that gets?|gets?) )*targeted\b")
# The object of targeting in an asking sentence: "targeting my guy", "target him", "is that
# guy targeted" (pronouns and the ability's own words are read elsewhere).
_TARGETED_OBJECT = re.compile(
    r"\btarget(?:s|ing|ed)?\s+(?P<obj>(?:my|your|his|her|their|our|the|that|this|those|these)\s+[a-z]+)\b"
    r"|(?P<obj2>\b(?:my|your|his|her|their|our)\s+[a-z]+)\s+(?:gets?|got|is|was|be|being)\s+targeted\b")
# Words that name the proposed object generically (the reading places them by the pool).
_OBJECT_WORDS = frozenset({"target", "targets", "object", "objects", "one", "thing", "same", "other", "player", "players",
                           "opponent", "opponents", "card", "cards", "space", "spaces", "arena", "game", "own", "first", "second"})
_NOUNS_AVAILABLE = r"units?|minions?|enem(?:y|ies)|targets?|objects?|characters?|all(?:y|ies)|heroe?s|legal targets?|valid targets?"
# "no minions in play", "there aren't any units", "opp doesn't have any units", "nothing to
# target", "with none": the situation has no object of the kind the ability chooses.
_ZERO_AVAILABLE = re.compile(
    r"\b(?:no|0|zero) (?:\w+ )?(?P<n1>" + _NOUNS_AVAILABLE + r")\b(?: (?:in play|anywhere|at all|available|are legal|exist|out|left|on the board))?"
    r"|\bthere (?:are|is|were|was) not any (?:\w+ )?(?P<n2>" + _NOUNS_AVAILABLE + r")\b(?: (?:in play|anywhere|at all|available|out|left|on the board))?"
    r"|\b(?:does|do|did) not have any (?:\w+ )?(?P<n3>" + _NOUNS_AVAILABLE + r")\b(?: (?:in play|anywhere|at all|available|out|left|on the board))?"
    r"|\b(?:units?|minions?|enem(?:y|ies)|targets?) (?:are|is) (?:not )?(?:in play|available)\b.*\bno\b|\bthere are none\b"
    r"|\bnothing (?:to target|targetable|(?:that is |that's )?(?:valid|legal)(?: to target)?)\b|\bwith none\b|\bnone (?:are|is) (?:in play|out|legal|valid|available)\b"
    r"|\b(?:has|have|had|there is|there's) (?:literally |absolutely )?nothing (?:on (?:the )?(?:board|battlefield|field)|in play|out)\b")
_STAT_VALUE = re.compile(r"\b(ATK|THW|SCH)(?: of| is| =)? (\d+)|\b(\d+) (ATK|THW|SCH)\b")
_ASKING_SENTENCE = re.compile(r"[^.?!;]*\?")
_PP_MODIFIER = re.compile(
    r"(?P<head>\b(?:units?|minions?|enem(?:y|ies)|cards?|objects?|legends?|characters?|schemes?|ones?|targets?)\b)"
    r"(?P<pp>\s+(?:at|on|in|from|of)\s+(?:(?:a|an|the|that|this|its|their|each|every|another|any|my|your|1)\s+)?"
    r"(?:[\w'-]+\s+)?(?:battlefields?|locations?|zones?|places?|lanes?|areas?)\b)", re.IGNORECASE)


class _Builder:
    def __init__(self, q: str, game: str, pick: AbilityPick | None, kind: str) -> None:
        self.q = q
        self.out = _outside_quotes(q)
        self.low = self.out.lower()
        # The situation's words: the question with only the ability's own quoted text blanked,
        # so a quoted restriction ("an enemy 'cannot take damage'") is still read.
        sit = q
        for qs in quoted_spans(q):
            if pick is not None and pick.quoted is not None and qs.text == pick.quoted:
                sit = sit[: qs.start] + " " * (qs.end - qs.start) + sit[qs.end:]
        self.sit = sit.lower()
        self.game = game
        self.pick = pick
        self.kind = kind
        self.because: list[tuple[str, str]] = list(pick.because) if pick else []

    def need_ability(self) -> dict[str, Any]:
        if self.pick is None:
            raise ParseFailure("I could not tell which ability or card the question is about.")
        return self.pick.ability

    def note(self, part: str, words: str) -> None:
        self.because.append((part, words))

    def _exception_clause(self, m: re.Match[str], what: str) -> None:
        """"P unless the text permits C": the statement restates a rule with its exception.
        The engine checks P in the default case (no such permission), which is what the
        statement asserts outside its exception; the clause is credited as that reading."""
        u = re.search(r"\bunless\b", self.low[max(0, m.start() - 25):m.end()])
        if u:
            start = max(0, m.start() - 25) + u.start()
            self.note(f"exception clause ({what}): checked without it", self.low[start:m.end()])

    # ....................................................................
    def is_target(self) -> Parse:
        neg = _NEG_PROPERTY.search(ask_clause(self.low))
        p = self._is_target()
        if neg:
            # The asked property is the absence of targeting ("automatic selection with no
            # targeting"): the engine checks targeting, and the verdict is inverted.
            q = p.scenario["question"] if p.scenario else {}
            if p.combine != "single" or q.get("kind") != "is_target":
                raise ParseFailure("The question negates targeting of no particular part.")
            self.note("question asks the negation of targeting: verdict inverted", neg.group(0))
            p.because = self.because
            p.combine = "invert"
        return p

    def _is_target(self) -> Parse:
        low = self.low
        m_never = re.search(r"\b(?:never|not|n't|nowhere)\b(?:(?!\bnot\b|\bnever\b|n't\b)[^.?])*\b(?:says?|saying|uses?|mentions?|contains?|appears?)\b[^.?]*\bchoose\b"
                            r"|\bchoose\b[^.?]*\b(?:appears? nowhere|never appears|is not|isn't)\b[^.?]*|\bwithout (?:ever )?(?:saying|using|the word) \W?choose\W?", low)
        if m_never:
            self.note("the text need not say 'choose' to target", m_never.group(0))
        if self.pick is None:
            if not re.search(r"\bitself\b|\bits? own ability\b|\bsource\b|\bcard (?:it|that) comes from\b|\bcreated it\b", low):
                raise ParseFailure("I could not tell which ability or card the question is about.")
            kind = "activated" if "activated" in low else "triggered" if "triggered" in low else "spell"
            ability = _generic(kind)
            self.note("ability", f"a generic {kind} ability")
        else:
            ability = self.need_ability()
        w = World()
        if self.pick is not None and self.pick.asked_type:
            t = self._asked_type(self.pick.asked_type)
            oid = "opp" if t == "player" else w.add("o", t, "opp")
            self.note(f"question: is a {t} a legal target", t)
            return self._one(ability, w, {"kind": "valid_target", "effect": ability["effects"][0]["id"], "object": oid})
        e1 = ability["effects"][0]
        tl: dict[str, Any] = {}
        # "itself" names the ability only as the object of targeting or after "spell"/"ability";
        # after any other noun ("the battlefield itself", "the unit itself") it only stresses
        # that noun, which the subject search below reads.
        if _ABILITY_ITSELF.search(low) and "source" not in low:
            self.note("question.part=ability", "itself")
            return self._one(ability, w, {"kind": "is_target", "effect": e1["id"], "part": "ability"})
        if re.search(r"\b(?:own )?source\b|\bcard (?:it|that) comes from\b|\bcreated it\b", low):
            self.note("question.part=source", "source")
            ability["source"] = w.add("src", "unit", "you", zone="battlefield", location=w.battlefield())
            return self._one(ability, w, {"kind": "is_target", "effect": e1["id"], "part": "source"})
        m = re.search(r"\b(?:only|exactly) (?:1|one|a single) (?:(?:enemy|friendly|legal) )?(?:unit|minion|target|object|option)|"
                      r"\b(?:just|only) 1 (?:legal )?(?:option|choice|unit|target)\b|\bsole (?:unit|target|option)\b", low)
        if m:
            eff = _first_choose(ability) or e1
            oid = _candidates(w, eff, 1)[0]
            self.note("state: one legal object", m.group(0))
            return self._one(ability, w, {"kind": "is_target", "effect": eff["id"], "object": oid})
        dm = re.search(r"\bdecline\w*(?: to \w+)?|\bchoose not to\b(?: \w+)?|\b(?:don't|didn't|do not|did not) (?:stun|kill|do|perform)\b|\bnot to (?:stun|kill|do|perform)\b", low)
        if dm:
            tl = {"resolution": {"perform_optional": False}}
            self.note("timeline.perform_optional=false", dm.group(0))
        am = re.search(r"\btarget(?:s|ing)? (?:an?|the|that|any|my) (?P<t>arena spaces?)\b", ask_clause(low))
        if am and not any("arena_space" in e.get("selection", {}).get("pool", {}).get("types", []) for e in ability["effects"]):
            # 11.4.1: the proposed object is of a target type the text may not identify.
            self.note("question: an Arena Space as a target", am.group(0))
            oid = w.add("o", "arena_space", "opp")
            return self._one(ability, w, {"kind": "valid_target", "effect": e1["id"], "object": oid})
        if re.search(r"\btarget(?:s|ing)? (?:a|the|that|any) player\b|\b(?:a|the|that) player (?:be |is |was )?(?:targeted|a target)\b", ask_clause(low)) and not any(_object_type(e) == "player" or e.get("action") == "draw" for e in ability["effects"]):
            _candidates(w, e1, 1)
            self.note("question: a player as a target of an ability that does not name players", "a player")
            return self._one(ability, w, {"kind": "valid_target", "effect": e1["id"], "object": "opp"})
        # 355.7-355.10: whether a part is targeted does not depend on how many objects are
        # present or chosen (the single-option case above is the rules' own one), so a count
        # in the situation is read and credited as not changing the verdict.
        for cm in re.finditer(r"\b(?:choose|chose|chosen|pick\w*|select\w*)?\s*(?<![\w.])\d+\b(?: (?:enemy |friendly |other |of (?:them|those|the \w+) )?(?:units?|minions?|enem(?:y|ies)|legends?|objects?|cards?|targets?|players?))?", low):
            if re.search(r"\d", cm.group(0)) and not re.search(r"might|atk|thw|sch", low[cm.end(): cm.end() + 7]):
                self.note("count of objects (does not change targeting)", cm.group(0).strip())
        # Which part is asked about.
        eff, part = self._subject(ability)
        if eff is None:
            # "does it choose any targets?" / "does it target?": any part targeted.
            alts = []
            for e in ability["effects"]:
                alts.append(_scn(self.game, ability, w, {"kind": "is_target", "effect": e["id"], "part": "selected"}, tl))
                if e.get("selection", {}).get("pool", {}).get("location"):
                    alts.append(_scn(self.game, ability, w, {"kind": "is_target", "effect": e["id"], "part": "location"}, tl))
            self.note("question: any part targeted", "target")
            return Parse(self.game, "is_target", alts[0], alts, "any" if len(alts) > 1 else "single", self.because)
        return self._one(ability, w, {"kind": "is_target", "effect": eff["id"], "part": part}, tl)

    def _subject(self, ability: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
        # The asking sentence names the subject; earlier sentences describe the situation.
        ask = ask_clause(self.low)
        asking = [a for a in _ASKING_SENTENCE.findall(outside_quotes(self.low)) if a.strip()]
        if len(asking) > 1:
            # "the unit is what's targeted, right? the bf is just where it has to be?": two
            # asking sentences about two parts ask two things; one reading answers one.
            kept = list(self.because)
            subjects = {(e["id"] if e else None, part) for e, part in (self._subject_in(ability, a) for a in asking)}
            self.because = kept
            if len(subjects) > 1:
                raise ParseFailure("The question asks about two parts of the ability in two sentences; I can check only one at a time.")
        if ask != self.low:
            got = self._subject_in(ability, ask)
            if got[0] is not None:
                return got
            named = _TARGETED_OBJECT.search(outside_quotes(ask))
            if named is not None:
                # The asking sentence names what is targeted ("does it count as targeting my
                # guy?") in words no type reads: the situation's nouns are not its subject.
                raise ParseFailure(f"I could not tell which object '{named.group('obj') or named.group('obj2')}' refers to.")
        return self._subject_in(ability, self.low)

    def _subject_in(self, ability: dict[str, Any], low: str) -> tuple[dict[str, Any] | None, str]:
        effs = ability["effects"]
        # The subject is the head noun phrase: a prepositional modifier after it ("each unit
        # at that battlefield", "the cards in that zone") says where it is, not what is asked.
        pp = list(_PP_MODIFIER.finditer(low))
        for m in pp:
            self.note("prepositional modifier of the subject (not the subject)", m.group("pp"))
        low = _PP_MODIFIER.sub(lambda m: m.group("head"), low)
        # "is the unit the thing being targeted, with the battlefield just limiting ...": the
        # asking clause's own subject, when it is an object the ability selects, is what is
        # asked about, whatever else the sentence says about the battlefield.
        said = _ASKED_SUBJECT.search(outside_quotes(low))
        if said:
            for rx, t in _TYPE_WORDS:
                if re.fullmatch(rx, said.group("n")):
                    for e in effs:
                        if _object_type(e) == t:
                            self.note(f"question.effect={e['id']} (the asked subject)", said.group(0))
                            return e, "selected"
        if re.search(r"\bbattlefields?\b|\blocation\b", low):
            for e in effs:
                if e.get("selection", {}).get("pool", {}).get("location"):
                    self.note("question.part=location", "battlefield")
                    return e, "location"
            if re.search(r"\b(?:is|are) (?:the |that |a )?battlefields? (?:\w+ )?(?:a |one of the )?target", low):
                raise ParseFailure("The question asks about a battlefield the ability does not mention.")
        if re.search(r"\bplayer\b|\bwho draws\b|\bcontroller\b|\bopponent\b", low):
            for e in effs:
                if _object_type(e) == "player" or e.get("action") == "draw":
                    self.note(f"question.effect={e['id']} (player)", "player")
                    return e, "selected"
        for rx, t in _TYPE_WORDS:
            if re.search(rx, low):
                for e in effs:
                    if _object_type(e) == t or (t == "minion" and _object_type(e) == "minion"):
                        self.note(f"question.effect={e['id']}", re.search(rx, low).group(0))  # type: ignore[union-attr]
                        return e, "selected"
        if re.search(r"\b(?:chosen|picked|selected) (?:units?|ones?|cards?|objects?)\b|\bthat (?:unit|card|object)\b", low):
            self.note("question.effect=e1", "chosen")
            return effs[0], "selected"
        return None, "selected"

    def _asked_type(self, named: str) -> str:
        """The type the question asks about: a target type the question names outside the
        ability's description ("... identifies only game objects. May a player be chosen?");
        none -> the type the description names; two different ones -> abstain."""
        desc = next((w.lower() for part, w in self.because if part.startswith("e1.pool.types=")), "")
        rest = self.low.replace(desc, " ") if desc else self.low
        types = {{"arena space": "arena_space", "game object": "game_object"}.get(x, x)
                 for x in (m.group(1).lower().rstrip("s") for m in
                           re.finditer(r"\b(players?|arena spaces?|game objects?)\b", rest))}
        if len(types) > 1:
            raise ParseFailure("The question names more than one target type; I could not tell which one it asks about.")
        if types:
            t = types.pop()
            if t != named:
                self.note(f"asked type={t}", re.search(r"\b(?:players?|arena spaces?|game objects?)\b", rest).group(0))  # type: ignore[union-attr]
            return t
        return named

    def _one(self, ability: dict[str, Any], w: World, question: dict[str, Any],
             tl: dict[str, Any] | None = None) -> Parse:
        return Parse(self.game, self.kind, _scn(self.game, ability, w, question, tl), [], "single", self.because)

    # ....................................................................
    def _restrictions(self) -> list[str]:
        out = []
        for rx, r in _RESTRICTIONS:
            m = re.search(rx, self.sit)
            if m:
                out.append(r)
                self.note(f"restriction={r}", m.group(0))
        return out

    def valid_target(self) -> Parse:
        ability = self.need_ability()
        w = World()
        eff = _first_choose(ability) or ability["effects"][0]
        vm = re.search(r"\bused to (\w+)\b", ask_clause(self.low))
        if vm:
            verb = vm.group(1)[:4]
            hits = [e for e in ability["effects"] if e.get("text", "").lower().lstrip().startswith(verb)]
            if not hits:
                raise ParseFailure(f"The ability does not {vm.group(1)} anything.")
            eff = hits[0]
            self.note(f"question.effect={eff['id']}", vm.group(0))
        if eff.get("selection", {}).get("kind", "choose") not in {"choose", "reference", "all"}:
            raise ParseFailure("The ability has no choice of target for the question to ask about.")
        # The object proposed as the target may be of another target type than the ability's
        # pool (a player, an Arena Space): the question is about that object, not the pool.
        am = re.search(r"\btarget (?:(?:an?|the|that|this|one|my|your|their|its) )?(?P<t>players?|opponents?|you\b|arena spaces?|game objects?)",
                       ask_clause(self.low))
        if am:
            t = {"opponent": "player", "you": "player", "arena space": "arena_space", "game object": "game_object"}.get(
                am.group("t").lower().rstrip("s"), am.group("t").lower().rstrip("s"))
            types = eff.get("selection", {}).get("pool", {}).get("types", [])
            if t not in types:
                self.note(f"question: a {t} as the target", am.group(0))
                oid = "opp" if t == "player" else w.add("o", t, "opp")
                return self._one(ability, w, {"kind": "valid_target", "effect": eff["id"], "object": oid})
        self._proposed_object_read()
        restr = self._restrictions()
        stats: dict[str, int] = {}
        if re.search(r"\bhas (?:some )?damage\b|\bdamaged\b", self.low):
            stats["damage"] = 2
            self.note("stats.damage=2", "has damage")
        t = _object_type(eff)
        # The object described first ("a scheme with threat ... by a hero whose THW is 0").
        # "a character with ATK 0": the object whose stat the ability uses is its source (the
        # attacker), not the object proposed as the target.
        source_stat = bool(ability.get("uses_stat"))
        found = [(m.start(), tt) for rx, tt in _TYPE_WORDS if tt != "player"
                 # "a card that deals damage" names the ability, not the asked object.
                 for m in [re.search(rx + r"(?= (?:that|whose|with|which))(?! (?:that|which) (?:only )?(?:deals?|kills?|heals?|readies|removes?|stuns?|says|reads)\b)", self.low)]
                 if m and not (source_stat and _SOURCE_STAT.match(self.low, m.end()))]
        if found:
            t = min(found)[1]
        else:
            # The object the asking sentence proposes ("can the villain be chosen for ...")
            # may be of another type than the pool: the engine checks it against the pool.
            ask_out = ask_clause(self.out.lower())
            named = sorted((m.start(), tt, m.group(0)) for rx, tt in _TYPE_WORDS if tt not in {"player", "card"}
                           for m in re.finditer(rx, ask_out)
                           if not (source_stat and _SOURCE_STAT.match(ask_out, m.end())))
            if named and named[0][1] != t:
                t = named[0][1]
                self.note(f"the proposed object is a {t}", named[0][2])
        if t == "side_scheme":
            stats.setdefault("threat", 2)
        kw: dict[str, Any] = {"stats": stats, "restrictions": restr}
        oid = w.add("o", t, _controller_for(eff), **kw)
        if ability.get("uses_stat") and ability.get("source"):
            sm = _STAT_VALUE.search(self.out)
            val = int(sm.group(2) or sm.group(3)) if sm else 1
            if sm:
                self.note(f"source {ability['uses_stat']}={val}", sm.group(0))
                self._note_restated(sm, ability["uses_stat"], val)
            w.add("hero", "hero", "you", stats={ability["uses_stat"]: val})
        return self._one(ability, w, {"kind": "valid_target", "effect": eff["id"], "object": oid})

    def _proposed_object_read(self) -> None:
        """The asking sentence's proposed target must be an object the reading can place:
        "target the Sentry itself" (the ability's own source) or "target my guy" in words no
        type reads is not the situation's default object."""
        ask = outside_quotes(ask_clause(self.low))
        own = re.search(r"\btarget(?:s|ing)?\s+(?:(?:the|that|this|my|your|its|his|her)\s+)?(?:[a-z]+\s+)?(?:itself|himself|herself|themselves)\b", ask)
        if own:
            raise ParseFailure(f"I could not tell which object '{own.group(0)}' proposes as the target.")
        named = _TARGETED_OBJECT.search(ask)
        if named is not None:
            noun = (named.group("obj") or named.group("obj2")).split()[-1]
            if not any(re.fullmatch(rx, noun) for rx, _ in _TYPE_WORDS) and noun not in _OBJECT_WORDS:
                raise ParseFailure(f"I could not tell which object '{named.group('obj') or named.group('obj2')}' refers to.")

    def needs_target(self) -> Parse:
        ability = self.need_ability()
        w = World()
        eff = _first_choose(ability) or ability["effects"][0]
        m = re.search(r"\btarget that can (?:be )?(\w+)", self.low)
        if m:
            # "need a target that can be attacked": is one that cannot be attacked invalid?
            restr = [r for rx, r in _RESTRICTIONS if re.search(rx, "cannot be " + m.group(1))]
            if not restr:
                raise ParseFailure("I could not tell which requirement the question is about.")
            oid = w.add("o", _object_type(eff), _controller_for(eff), restrictions=restr)
            self.note("inverted: a target lacking it is invalid", m.group(0))
            p = self._one(ability, w, {"kind": "valid_target", "effect": eff["id"], "object": oid})
            p.combine = "invert"
            return p
        # "does it need a target to be initiated?": can it be initiated with nothing to target?
        w.players = [{"id": "you", "deck_size": 10}, {"id": "opp", "deck_size": 10}]
        if ability.get("uses_stat") and ability.get("source"):
            ability["source"] = w.add("hero", "hero", "you", stats={ability["uses_stat"]: 1})
        self.note("inverted: can it be played with no targets available", "need a target")
        p = self._one(ability, w, {"kind": "can_play"})
        p.combine = "invert"
        return p

    def _note_restated(self, first: re.Match[str], stat: str, val: int) -> None:
        """The same stat value said again ("THW 0" ... "a 0 THW hero") is read by that slot."""
        for again in _STAT_VALUE.finditer(self.out):
            if again.start() != first.start() and int(again.group(2) or again.group(3)) == val:
                self.note(f"source {stat}={val} (restated)", again.group(0))

    def _count_available(self, eff: dict[str, Any] | None = None) -> int | None:
        low = self.low
        zero = list(_ZERO_AVAILABLE.finditer(low))
        if zero:
            named = {g for m in zero for g in (m.group("n1"), m.group("n2"), m.group("n3")) if g}
            pool = eff.get("selection", {}).get("pool", {}) if eff else {}
            kinds = set(pool.get("types") or []) | set(pool.get("traits") or [])
            for n in named:
                t = next((tt for rx, tt in _TYPE_WORDS if re.fullmatch(rx, n)), None)
                if eff is not None and t is not None and (t != _object_type(eff) or "enemy" in kinds and n.startswith("minion")):
                    # "no minions out" when the ability may also choose the villain: the
                    # absence of one kind is not the absence of every legal choice.
                    raise ParseFailure(f"The question says there are no {n}, but the ability can choose other objects too.")
            for m in zero:
                self.note("state: none available", m.group(0))
            return 0
        m = re.search(r"\b(?:only|just) (\d+) (?:\w+ )?(?:legal |valid |available )?(?:targets?|units?|minions?|enem(?:y|ies)|objects?|ones)\b"
                      r"|\b(?:with|there are|there is|has) (\d+) (?:legal|valid|available|possible) (?:targets?|units?|options?)\b"
                      r"|\b(?:only|just|but only|but just) (\d+) (?:is|are) (?:legal|valid|available)\b"
                      r"|\bat least (\d+) (?:\w+ )?(?:is|are) (?:a )?(?:valid|legal)(?: targets?)?\b", low)
        if m:
            n = int(next(g for g in m.groups() if g))
            self.note(f"state: {n} available", m.group(0))
            return n
        return None

    def can_play(self) -> Parse:
        if self.pick is None and re.search(r"\b(?:illegal|impossible)\b.*\blater\b|\blater\b.*\b(?:illegal|impossible)\b|\bdeterministic\w*|\bforce\w* an? illegal\b(?: \w+)?|\bcertain to\b[^?]*\billegal\b", self.low):
            self.pick = AbilityPick(_generic("spell", "Kill a unit"), [("ability", "a generic spell")])
            self.because.extend(self.pick.because)
        ability = self.need_ability()
        w = World()
        low = self.low
        eff = _first_choose(ability) or ability["effects"][0]
        play: dict[str, Any] = {}
        if re.search(r"\bcrisis\b", low):
            w.crisis = 1
            self.note("state.crisis_icons=1", "crisis")
            main_threat, side, words = _scheme_threat(low)
            w.add("ms", "main_scheme", "opp", traits=["main_scheme"], stats={"threat": main_threat})
            w.add("ss", "side_scheme", "opp", stats={"threat": side})
            self.note(f"state: main scheme threat {main_threat}, side scheme threat {side}", words)
            return self._one(ability, w, {"kind": "can_play"})
        fewer = re.search(r"\b(?:its |the )?text (?:expressly |explicitly )?(?:permits|allows) fewer(?: targets)?\b", low)
        if fewer:
            for e in ability["effects"]:
                cnt = e.get("selection", {}).get("count")
                if cnt and cnt.get("mode") == "exactly":
                    cnt["mode"] = "up_to"
            self.note("the text permits fewer targets: an up-to count", fewer.group(0))
        trig = re.search(r"\bdoes (?:the|it|this|that) (?:ability )?(?:still )?trigger\b", low)
        if trig:
            self.note("question: does it trigger (not: does it enter the queue)", trig.group(0))
        loc = re.search(r"\b(?:on|to|at|onto|into) (?:a|the|another|an opponent's|my opponent's) battlefield(?: that)? (?P<who>i|you|my opponent|an opponent|they|he|she)? ?(?P<neg>don't |do not |doesn't |does not )?(?:control|controls)\b"
                        r"|\b(?:on|to|at|onto|into) (?:an? |the |my )?(?P<opp>opponent's|enemy|opposing) battlefield\b", low)
        if loc and any(e.get("constraints") for e in ability["effects"]):
            mine = not loc.group("neg") and not loc.group("opp") and (loc.group("who") or "i") in {"i", "you"}
            bf = {"id": "bf1", "kind": "battlefield", "controller": "you" if mine else "opp"}
            w.locations.append(bf)
            play["play_location"] = "bf1"
            _candidates(w, eff, 1)
            self.note(f"play.play_location=a battlefield {'you' if mine else 'an opponent'} control(s)", loc.group(0))
            return self._one(ability, w, {"kind": "can_play"}, {"play": play})
        if any(e.get("constraints") for e in ability["effects"]):
            # 355.17: the ability's choice carries a requirement; a question that names no
            # location for it is not one the requirement decides.
            raise ParseFailure("The question does not say where the unit would be played.")
        if ability.get("uses_stat"):
            m = _STAT_VALUE.search(self.out)
            val = int(m.group(2) or m.group(3)) if m else 1
            src = w.add("hero", "hero", "you", stats={ability["uses_stat"]: val})
            ability["source"] = src
            self.note(f"source {ability['uses_stat']}={val}", m.group(0) if m else "hero")
            if m:
                self._note_restated(m, ability["uses_stat"], val)
            t = _object_type(eff)
            for rx, tt in _TYPE_WORDS:
                if re.search(r"(?:against|on) (?:a |an |the )?" + rx.strip("\\b"), low) and tt != "hero":
                    t = tt
            stats = {"threat": 2} if t.endswith("scheme") else {}
            oid = w.add("o", t, "opp", stats=stats)
            play["targets"] = [{"effect": eff["id"], "objects": [oid]}]
            return self._one(ability, w, {"kind": "can_play"}, {"play": play})
        dm = re.search(r"\b(?:illegal|impossible)\b.*\blater\b|\blater\b.*\b(?:illegal|impossible)\b|\bdeterministic\w*|\bforce\w* an? illegal\b(?: \w+)?|\bcertain to\b[^?]*\billegal\b", low)
        if dm:
            play["deterministically_illegal"] = True
            no_alt = re.search(r"\bno (?:other )?(?:choice|option|alternative)s?\b|\bonly (?:choice|option)\b", low)
            has_alt = re.search(r"\b(?:another|other|2|two|several) (?:legal )?(?:options?|choices?|alternatives?)\b", low)
            if not no_alt and not has_alt:
                raise ParseFailure("I could not tell whether the player had another option.")
            alt = not no_alt
            play["had_alternative"] = alt
            self.note("play.deterministically_illegal", dm.group(0))
            self.note(f"play.had_alternative={alt}", (has_alt or no_alt).group(0))  # type: ignore[union-attr]
            _candidates(w, eff, 2)
            return self._one(ability, w, {"kind": "can_play"}, {"play": play})
        n = self._count_available(eff)
        if n is None:
            n = 3
            # Not said: the answer states it (the ruling for a board with legal targets).
            self.note("there are legal targets in play", "default")
        restr = self._restrictions()
        if restr and not re.search(r"\b(?:every|all|each|both|the only|none of the)\b", low):
            raise ParseFailure("I could not tell which objects the restriction applies to.")
        if restr:
            self.note("every candidate has the restriction", re.search(r"\b(?:every|all|each|both|the only|none of the)\b(?: \w+){0,3}", low).group(0))  # type: ignore[union-attr]
        ids = _candidates(w, eff, n, restrictions=restr or None) if _object_type(eff) != "player" else []
        zero = list(re.finditer(r"\bwith (?:0|zero|no) targets?\b|\bwithout (?:0 |zero |any |an? )?targets?\b|\bchoos\w+ (?:0|zero|no|nothing|none)\b(?: (?:units?|targets?))?"
                                r"|\bno targets? chosen\b|\bwithout (?:choosing |picking |selecting )?(?:any(?:thing)?|a single|one)\b(?: targets?)?", low))
        if zero:
            # 355.13 / 11.4.3: played with no targets chosen; every wording of that is credited.
            play["targets"] = [{"effect": eff["id"], "objects": []}]
            for m in zero:
                self.note("play.targets=[]", m.group(0))
        else:
            m = re.search(r"\bwith (?:only )?(\d+) targets?\b", low)
            if m:
                k = int(m.group(1))
                play["targets"] = [{"effect": eff["id"], "objects": ids[:k]}]
                self.note(f"play.targets={k}", m.group(0))
        question: dict[str, Any] = {"kind": "can_play", "stage": "trigger"} if trig else {"kind": "can_play"}
        return self._one(ability, w, question, {"play": play} if play else None)

    # .................................................................... splits
    def _split_setup(self) -> tuple[dict[str, Any], World, dict[str, Any], list[str], str]:
        """Alpha-Strike-like: a friendly unit's Might split among chosen enemy units."""
        ability = self.need_ability()
        w = World()
        se = _split_effect(ability)
        if se is None:
            raise ParseFailure("The ability does not split an amount among targets.")
        low = self.low
        mights = _mights(self.out)
        m0 = re.search(r"\b(?:at|has|had|having|with|of|began at|starts? at|started at) (\d+) might\b", low)
        start = int(m0.group(1)) if m0 else (mights[0] if mights else None)
        n_t = re.search(r"\b(\d+) (?:enemy |opposing |legal |different )?(?:targets?|enemy units?|units?|enemies)\b(?: (?:are |were )?(?:chosen|picked|selected|targeted))?", low)
        chose = re.search(r"\b(?:chose|choose|picked|selected|targeted|targeting|choosing|with) (\d+) ", low)
        n = int(chose.group(1)) if chose else int(n_t.group(1)) if n_t else None
        play: dict[str, Any] = {"targets": []}
        tl: dict[str, Any] = {"play": play, "events": []}
        if se.get("amount_from"):
            src_eff = se["amount_from"]["effect"]
            if start is None:
                start = 5
            u0 = w.add("u", "unit", "you", zone="battlefield", location=w.battlefield(), stats={"might": start})
            sm = m0 or re.search(rf"\b{start}[- ]?might\b", low)
            self.note(f"friendly unit Might={start}", sm.group(0) if sm else "default")
            play["targets"].append({"effect": src_eff, "objects": [u0]})
        else:
            u0 = ""
        if n is None:
            n = 2
        self.note(f"targets chosen={n}", (chose or n_t).group(0) if (chose or n_t) else "default")
        ids = [w.add("u", "unit", "opp", zone="battlefield", location=w.battlefield(), stats={"might": 2}) for _ in range(n)]
        play["targets"].append({"effect": se["id"], "objects": ids})
        ch = stat_change(low)
        if ch and u0:
            kind_, val, words = ch
            tl["events"].append({"kind": kind_, "object": u0, "stat": "might", "value": val})
            self.note(f"event: Might {'set to' if kind_ == 'set_stat' else 'changed by'} {val}", words)
        return ability, w, tl, ids, se["id"]

    # How-many-dropped: the negative predicates that name dropping ("cease to be targets",
    # "stop being targeted", "are no longer targets", "lose") are the asked quantity itself.
    _DROP_PRED = re.compile(r"\bhow many\b[^?]*?\b(?:ceas\w* (?:to be|being)|stop\w* being|(?:are|is) no longer|no longer (?:be|count as)|los(?:e|t)|fail\w* to (?:stay|remain))"
                            r"\b(?: (?:targets?|targeted))?", re.IGNORECASE)

    # What a question asking for the dropped targets says: a dropping verb, or that some must go.
    _DROP_ASKED = re.compile(r"\b(?:drop|lose|lost|remove|cease|stop|give up|discard|shed|release|let go|no longer|must|have to|"
                             r"has to|need to|needs to|should|forced|required)\b", re.IGNORECASE)

    def targets_to_drop(self) -> Parse:
        ask = ask_clause(self.low)
        if not self._DROP_ASKED.search(ask):
            # "what's the max number of enemy units I can choose?" asks a bound, not a drop.
            raise ParseFailure("I could not tell that the question asks how many targets must be dropped.")
        ability, w, tl, _ids, eid = self._split_setup()
        dp = self._DROP_PRED.search(ask)
        if dp:
            self.note("asked quantity: targets dropped", dp.group(0))
        return self._one(ability, w, {"kind": "targets_to_drop", "effect": eid}, tl)

    def targets_to_keep(self) -> Parse:
        ability, w, tl, _ids, eid = self._split_setup()
        return self._one(ability, w, {"kind": "targets_to_drop", "effect": eid, "count": "keep"}, tl)

    def add_target(self) -> Parse:
        ability = self.need_ability()
        if _split_effect(ability) is not None and _split_effect(ability).get("selection", {}).get("group"):  # type: ignore[union-attr]
            ability, w, tl, ids, eid = self._group_setup(default_ok=True)
        elif _split_effect(ability) is not None:
            ability, w, tl, ids, eid = self._split_setup()
        else:
            w = World()
            eff = _first_choose(ability) or ability["effects"][0]
            ids = _candidates(w, eff, 2)
            eid = eff["id"]
            tl = {"play": {"targets": [{"effect": eid, "objects": ids[:1]}]}}
        new = w.add("new", "unit", "opp", zone="battlefield", location=w.battlefield(), stats={"might": 1})
        m = re.search(r"\b(?:that |which |i )?(?:was not|wasn't|were not|weren't|did not|didn't|had not|hadn't|never)\b(?: \w+){0,2}? (?:originally |initially |already )?(?:chosen|choose|picked|pick|selected|targeted)\b(?: \w+)?", low := self.low)
        m2 = re.search(r"\b(?:new|extra|additional|fresh|another|more)\b(?: \w+)?", low)
        self.note("a new object not chosen at play", m.group(0) if m else m2.group(0) if m2 else "new")
        if m and m2:
            self.note("a new object", m2.group(0))
        return self._one(ability, w, {"kind": "add_target", "effect": eid, "object": new}, tl)

    def _group_setup(self, default_ok: bool = False) -> tuple[dict[str, Any], World, dict[str, Any], list[str], str]:
        """Fox-Fire-like: chosen units with a group Might limit, some changed in response."""
        ability = self.need_ability()
        w = World()
        ge = _split_effect(ability)
        if ge is None or not ge["selection"].get("group"):
            raise ParseFailure("The ability has no group requirement.")
        low = self.low
        # The situation sentences say what was chosen; the asking sentence names a subset.
        situation = low[: len(low) - len(ask_clause(low))]
        m = re.search(r"\b(\d+) (\d+)[- ]?might (?:units?|recruits?|enem\w+|targets?)", situation) \
            or re.search(r"\b(\d+) (?:units?|recruits?|targets?)\b[^.;]*?\b(?:at|with|of) (\d+) might", situation) \
            or re.search(r"\b(\d+) (\d+)[- ]?might (?:units?|recruits?|enem\w+|targets?)", low)
        if m:
            n, base = int(m.group(1)), int(m.group(2))
        else:
            m = re.search(r"\b(\d+) (?:units?|recruits?|targets?)\b[^.;]*?\b(?:at|with|of) (\d+) might", low)
            if not m:
                if not default_ok:
                    raise ParseFailure("I could not tell how many units were chosen and their Might.")
                n, base = 2, 1
            else:
                n, base = int(m.group(1)), int(m.group(2))
        self.note(f"{n} chosen units of Might {base}", m.group(0) if m else "default")
        bf = w.battlefield()
        ids = [w.add("u", "unit", "opp", zone="battlefield", location=bf, stats={"might": base}) for _ in range(n)]
        tl: dict[str, Any] = {"play": {"targets": [{"effect": ge["id"], "objects": ids}]}, "events": []}
        ch = re.search(rf"\b(1|2|3|4|one|two|three|four) (?:of them |of those |of the \w+ )?(?:became|become|becomes|{_UP}|{_DOWN}|went to|goes to|is now|are now|now (?:has|have))\b(?: \w+){{0,2}}? [+-]?(\d+)[- ]?might", low)
        self.changed: list[str] = []
        if ch:
            k = _n(ch.group(1), 1) or 1
            val = int(ch.group(2))
            sc = stat_change(ch.group(0))
            plus = sc is not None and sc[0] == "modify_stat"
            if plus and sc is not None:
                val = sc[1]
            for oid in ids[:k]:
                if plus:
                    tl["events"].append({"kind": "modify_stat", "object": oid, "stat": "might", "value": val})
                else:
                    tl["events"].append({"kind": "set_stat", "object": oid, "stat": "might", "value": val})
            self.changed = ids[:k]
            self.note(f"event: {k} changed Might {'+' if plus else '='}{val}", ch.group(0))
        died = re.search(r"\b(1|one|2|two) (?:of them )?(?:died|dies|left play|was killed|were killed|is gone)", low)
        if died:
            k = _n(died.group(1), 1) or 1
            alive = [i for i in ids if i not in self.changed]
            for oid in alive[-k:]:
                tl["events"].append({"kind": "leave_play", "object": oid})
            self.note(f"event: {k} left play", died.group(0))
        tot = re.search(r"\btotal(?:ing|ling|s)?(?: (?:is|of|now|becomes|became))* (\d+)\b", low)
        if tot:
            now = sum(self._might_after(w, tl)[i] for i in ids)
            if int(tot.group(1)) != now:
                raise ParseFailure(f"The stated total {tot.group(1)} does not match the units described ({now}).")
            self.note(f"stated total {now} checked", tot.group(0))
        mv = re.search(r"\b(?:moved|move|moves) to (?:another|a different|a second) battlefield", low)
        if mv:
            w.locations.append({"id": "bf2", "kind": "battlefield"})
            for oid in ids:
                tl["events"].append({"kind": "move", "object": oid, "location": "bf2"})
            self.note("event: moved to another battlefield", mv.group(0))
        return ability, w, tl, ids, ge["id"]

    def legal_subset(self) -> Parse:
        ability = self.need_ability()
        se = _split_effect(ability)
        low = self.low
        if se is not None and se["selection"].get("group"):
            ability, w, tl, ids, eid = self._group_setup()
            am = re.search(r"\b(?:all|every|each)\b(?: \w+)? (?:of )?(?:them|units|three|four|\d+)\b|\ball \d+\b", ask_clause(low)) \
                or re.search(r"\bkill(?:ing)? all\b|\bkill(?:ing)? (?:every|each)\b", ask_clause(low))
            if am:
                subset = list(ids)
                if re.search(r"\d+", am.group(0)) and int(re.findall(r"\d+", am.group(0))[-1]) != len(ids):
                    raise ParseFailure(f"'{am.group(0)}' does not match the {len(ids)} chosen units.")
                self.note("subset=all chosen", am.group(0))
            else:
                subset = []
                picks = list(re.finditer(r"\b(?:(?P<k>\d+|both) of (?:the|those|these|its|my) )?(?P<q>the|that|this|one|a|1|both|2|two|3|three)\s+(?P<m>\d+)[- ]?might\b",
                                         ask_clause(low)))
                if not picks:
                    raise ParseFailure("I could not tell which units the question asks to keep.")
                vals = self._might_after(w, tl)
                for pm in picks:
                    qty = pm.group("k") or pm.group("q")
                    k = 2 if qty in {"both", "2", "two"} else 3 if qty in {"3", "three"} else 1
                    pool = [i for i in ids if vals[i] == int(pm.group("m")) and i not in subset]
                    if len(pool) < k:
                        raise ParseFailure(f"No {k} chosen unit(s) at {pm.group('m')} Might to match '{pm.group(0)}'.")
                    subset.extend(pool[:k])
                    self.note(f"subset += {pool[:k]}", pm.group(0))
            return self._one(ability, w, {"kind": "legal_subset", "effect": eid, "objects": subset}, tl)
        ability, w, tl, ids, eid = self._split_setup()
        m = re.search(r"\bkeep (?:all )?(\d+)\b", low) or re.search(
            r"\b(\d+)\b(?: of (?:them|those|these|the \w+|my \w+))? (?:remain|stay|survive|be kept|continue)\w*(?: as)? (?:targets?|targeted)\b", ask_clause(low))
        if m:
            k = int(m.group(1))
            self.note(f"subset: keep {k}", m.group(0))
            return self._one(ability, w, {"kind": "legal_subset", "effect": eid, "objects": ids[:k]}, tl)
        m = re.search(r"\bdrop (\d+)\b", low)
        if m:
            k = len(ids) - int(m.group(1))
            self.note(f"subset: keep {k}", m.group(0))
            cm = re.search(r"\ball (?:\d+ )?(?:of )?(?:the )?damage on (?:1|one|a single|the last)(?: 1)?", low)
            if cm and k == 1:
                self.note("subset: all the damage on the one kept", cm.group(0))
            return self._one(ability, w, {"kind": "legal_subset", "effect": eid, "objects": ids[:max(k, 0)]}, tl)
        cm = re.search(r"\bconcentrat\w*|\ball (?:\d+ )?(?:of )?(?:the )?damage on (?:1|one|a single|the last)(?: 1)?", low)
        if cm:
            self.note("subset: keep 1", cm.group(0))
            return self._one(ability, w, {"kind": "legal_subset", "effect": eid, "objects": ids[:1]}, tl)
        raise ParseFailure("I could not tell which targets the question asks to keep.")

    @staticmethod
    def _might_after(w: World, tl: dict[str, Any]) -> dict[str, int]:
        vals = {o["id"]: o.get("stats", {}).get("might", 0) for o in w.objects}
        for ev in tl.get("events", []):
            if ev["kind"] == "set_stat":
                vals[ev["object"]] = ev["value"]
            elif ev["kind"] == "modify_stat":
                vals[ev["object"]] += ev["value"]
        return vals

    def legal_targets(self) -> Parse:
        if self.pick is None and re.search(r"\bslots?\b|\btwice\b", self.low):
            self.pick = AbilityPick(_generic("ability", "Choose 2 targets"), [("ability", "a generic ability with 2 target slots")])
            self.because.extend(self.pick.because)
        ability = self.need_ability()
        low = self.low
        if _split_effect(ability) is not None and not _split_effect(ability)["selection"].get("group"):  # type: ignore[index]
            ability, w, tl, ids, eid = self._split_setup()
            return self._one(ability, w, {"kind": "legal_targets", "effect": eid, "objects": ids}, tl)
        w = World()
        eff = _first_choose(ability) or ability["effects"][0]
        dup = re.search(r"\bslots?\b|\btwice\b|\bsame (?:game )?(?:object|target|unit|card|player)\b", low)
        if dup:
            if eff["selection"].get("count", {}).get("n", 1) in (None, 1):
                eff["selection"]["count"] = {"mode": "exactly", "n": 2}
            oid = _candidates(w, eff, 2)[0]
            for m in re.finditer(r"\b(?:one|1|a single|the same|same) (?:game )?(?:object|target|unit|card|player)\b(?:(?!n't\b|\bnot\b|\bcannot\b|\bnever\b)[^?])*?\b(?:(?:fill|occupy|take up|use)\b[^?]*?\bslots?|twice|for both|both (?:slots|targets)|(?:2|two|both)(?: of (?:its|the))? (?:target )?slots)"
                                 r"|\b(?:of|for) the same (?:ability|spell|card)\b", low):
                self.note("the same object in two slots", m.group(0))
            perm = re.search(r"(?:\b(?:if|when|where|suppose|assuming|given that)\b[^?,.]*?)?\b(?:expressly |explicitly |specifically )?(?:permits?|allows?|lets?)\b[^?,.]*?\bduplicates?(?: targets?)?", low)
            if perm and not re.search(r"\b(?:not|n't|never|unless|without)\b", low[max(0, perm.start() - 25):perm.end()]):
                eff["selection"]["duplicates"] = True
                self.note("selection.duplicates=true (the text expressly permits it)", perm.group(0))
            elif perm:
                self._exception_clause(perm, "duplicates")
            self.note("objects=[same, same]", dup.group(0))
            return self._one(ability, w, {"kind": "legal_targets", "effect": eff["id"], "objects": [oid, oid]})
        m = re.search(r"\b(?:choos\w*|chose|pick\w*|select\w*)\s+(0|zero|no|nothing|none)\b", low)
        if m:
            _candidates(w, eff, 2)
            self.note("objects=[]", m.group(0))
            # "... and play it without (any) targets": the same empty choice, restated.
            for z in re.finditer(r"\bwithout (?:any |a single )?targets?\b|\bwith (?:0|zero|no) targets?\b", low):
                self.note("objects=[] (restated)", z.group(0))
            return self._one(ability, w, {"kind": "legal_targets", "effect": eff["id"], "objects": []})
        m = re.search(r"\b(?:choose|pick|select|target|name)\s+(?:only |just )?(\d+)\b(?! ?(?:damage|might))", ask_clause(low)) \
            or re.search(r"\b(?:choose|pick|select|target|name)\s+(?:only |just )?(\d+)\b(?! ?(?:damage|might))", low)\
            or re.search(r"\b(?:is|are|would be)\s+(\d+)\s+(?:targets?\s+)?(?:an?\s+)?(?:permitted|allowed|legal|valid|acceptable|possible|permissible)"
                         r"(?:\s+(?:number|count|amount)(?: of targets)?)?\b|\bare\s+(\d+)\s+(?:[\w-]+\s+)?targets\s+(?:permitted|allowed|legal|acceptable|okay|ok)\b",
                         ask_clause(low)) \
            or re.search(r"\b(\d+)\s+(?:[\w-]+\s+){0,2}?(?:units?|targets?|enem(?:y|ies)|minions?|objects?|recruits?|characters?|cards?)"
                         r"\s+(?:\w+\s+)?be\s+(?:chosen|picked|selected|targeted|named)\b", ask_clause(low))
        if m:
            k = int(next(g for g in m.groups() if g is not None))
            ids = _candidates(w, eff, k)
            self.note(f"objects={k}", m.group(0))
            return self._one(ability, w, {"kind": "legal_targets", "effect": eff["id"], "objects": ids})
        raise ParseFailure("I could not tell which targets the question proposes.")

    # .................................................................. resolution
    def _resolution_setup(self) -> tuple[dict[str, Any], World, dict[str, Any], list[str], list[str]]:
        low = self.low
        # The words between "N targets" and "illegal" hold no other count or clause ("3 targets
        # and 2 become illegal" says 2 of 3, read below).
        m = re.search(r"\b(\d+|all|both|every) (?:of (?:the |its |my |their |an? |[\w-]+'s ){0,2})?(\d+)? ?targets?\b(?:(?!\band\b|\bbut\b|\d)[^.?])*\b(?:are|is|were|was|become|became|becomes|went|goes|go|turn(?:s|ed)?|got|gets)\s+(?:now )?illegal", low)
        m2 = re.search(r"\ball (?:of )?(?:its |the )?targets?\b[^.?]*\billegal|\bevery target\b[^.?]*\billegal"
                       r"|\btargets? (?:are|were|become|became) all\b[^.?]*\billegal|\bno (?:legal|remaining) targets?\b|\bnone of (?:its|the) targets? (?:is|are) legal", low)
        total = 3
        if m and m.group(2):
            total = int(m.group(2))
        illegal_n = total if (m2 or (m and m.group(1) in {"all", "every"})) else int(m.group(1)) if m and m.group(1).isdigit() else None
        if m and m.group(1) == "both":
            illegal_n, total = 2, int(m.group(2)) if m.group(2) else 2
        tn = re.search(r"\b(\d+) targets?,? (?:and|but) (?:then )?(\d+)(?: of them)? (?:is|are|was|were|become|becomes|became|go|goes|went|turn(?:s|ed)?|get|gets|got) (?:now )?illegal\b", low)
        if illegal_n is None and tn and int(tn.group(2)) <= int(tn.group(1)):
            total, illegal_n, m = int(tn.group(1)), int(tn.group(2)), tn
        lg = re.search(r"\b(?:only )?(\d+) of (?:the |its |an? |[\w-]+'s ){0,2}(\d+) targets? (?:is|are|remains?|stays?) (?:still )?(?:legal|valid)\b", low)
        if illegal_n is None and lg:
            total, illegal_n = int(lg.group(2)), int(lg.group(2)) - int(lg.group(1))
            m = lg
        # "3 targets were chosen and only 1 is still legal": the total, then the legal count.
        tot = re.search(r"\b(\d+) targets? (?:were |are |was |have been |had been )?(?:chosen|picked|selected|named)\b"
                        r"|\b(?:chose|picked|selected|named) (\d+) targets?\b", low)
        left = re.search(r"\bonly (\d+)(?: of (?:them|those|these))? (?:is|are|remains?|stays?) (?:still )?(?:legal|valid)\b", low)
        if illegal_n is None and tot and left and int(left.group(1)) <= int(tot.group(1) or tot.group(2)):
            total = int(tot.group(1) or tot.group(2))
            illegal_n = total - int(left.group(1))
            self.note(f"{total} targets chosen", tot.group(0))
            m = left
        il = re.search(r"\b(?:an?|the) illegal target\b", low)
        if illegal_n is None and il and self.kind == "affected":
            total, illegal_n = 2, 1
            m = il
        only = re.search(r"\b(?:the|its|my) (?:only|single|sole) target (?:is|was|becomes|became|went|goes|turns|turned|got|gets) (?:now )?illegal", low)
        if illegal_n is None and only:
            total, illegal_n, m = 1, 1, only
        if illegal_n is None:
            said = illegal_stated(low, self.pick.ability if self.pick else None)
            if said is None:
                raise ParseFailure("I could not tell how many targets became illegal.")
            total, illegal_n, stated, total_words = said
            self.note(f"{total} targets chosen", total_words)
        else:
            stated = (m or m2).group(0)  # type: ignore[union-attr]
        total = max(total, illegal_n)
        self.note(f"{illegal_n} of {total} targets illegal at resolution", stated)
        ability = self.pick.ability if self.pick and _first_choose(self.pick.ability) else None
        if ability is None:
            pa = parse_ability(f"Choose {total} targets")
            assert pa is not None
            ability = pa.ability
            self.note("ability", f"a generic ability with {total} targets")
        eff = _first_choose(ability) or ability["effects"][0]
        w = World()
        ids = _candidates(w, eff, total)
        tl: dict[str, Any] = {"play": {"targets": [{"effect": eff["id"], "objects": ids}]},
                              "events": [{"kind": "become_illegal", "object": i} for i in ids[:illegal_n]]}
        return ability, w, tl, ids, ids[illegal_n:]

    def effect_performed(self) -> Parse:
        ability, w, tl, _ids, _legal = self._resolution_setup()
        m = re.search(r"\b(gain|lose|draw|heal)[- ]?(?:life|cards?)?\b", self.low)
        untargeted = {"gain": "Gain 2 life", "lose": "Lose 2 life", "draw": "Draw 1 card", "heal": "Gain 2 life"}[m.group(1)] if m else "Gain 2 life"
        extra = parse_ability(untargeted)
        assert extra is not None
        e = extra.ability["effects"][0]
        e["id"] = f"e{len(ability['effects']) + 1}"
        ability = copy.deepcopy(ability)
        ability["effects"].append(e)
        self.note(f"untargeted {e['id']}", m.group(0) if m else "untargeted")
        return self._one(ability, w, {"kind": "effect_performed", "effect": e["id"]}, tl)

    def affected(self) -> Parse:
        if re.search(r"\b(?:an?|the) illegal target\b", self.low) and not re.search(r"\b\d+ of\b|\ball\b|\bevery\b|\bboth\b", self.low):
            ability, w, tl, ids, legal = self._resolution_setup()
            return self._one(ability, w, {"kind": "affected", "object": ids[0]}, tl)
        inv = re.search(r"\b(?:an?|the|one) (?:\w+ )?(?:that|which|who) (?:is not|isn't|is no longer|isn't still|has stopped being) (?:a )?(?:valid|legal) (?:target|choice)\b", self.low)
        if inv and self.pick is not None:
            ability = self.pick.ability
            eff = _first_choose(ability) or ability["effects"][0]
            w = World()
            ids = _candidates(w, eff, 2)
            tl: dict[str, Any] = {"events": [{"kind": "become_illegal", "object": ids[1]}]}
            if eff.get("selection", {}).get("kind", "choose") == "choose":
                tl["play"] = {"targets": [{"effect": eff["id"], "objects": ids}]}
            self.note("an element that is not a valid target at resolution", inv.group(0))
            return self._one(ability, w, {"kind": "affected", "effect": eff["id"], "object": ids[1]}, tl)
        ability, w, tl, ids, legal = self._resolution_setup()
        asked = self._bind_asked(ids, legal)
        if asked is not None:
            return self._one(ability, w, {"kind": "affected", "object": asked}, tl)
        if not legal:
            return self._one(ability, w, {"kind": "affected", "object": ids[0]}, tl)
        return self._one(ability, w, {"kind": "affected", "object": legal[0]}, tl)

    def _bind_asked(self, ids: list[str], legal: list[str]) -> str | None:
        """Asked-object accounting: "the remaining legal one", "the other one", "the
        illegal target" binds to the one scenario object with that property; a phrase
        that fits none (or several) makes the parse fail."""
        m = _ASKED_OBJECT.search(ask_clause(self.low))
        if m is None:
            return self._bind_anaphor(ids, legal)
        props = set(re.findall(r"\w+", m.group("props").lower()))
        illegal = [i for i in ids if i not in legal]
        if props & {"illegal", "invalid"}:
            pool = illegal
        elif props & {"remaining", "surviving", "legal", "valid", "other", "last", "lone", "still"}:
            pool = legal
        elif props == {"only"}:
            pool = ids if len(ids) == 1 else []
        else:
            pool = []
        plural = m.group(0).lower().endswith("s")
        if (len(pool) != 1 and not plural) or not pool:
            raise ParseFailure(f"I could not tell which object '{m.group(0)}' refers to.")
        self.note(f"asked object={pool[0]} ({'illegal' if pool is illegal else 'legal'})", m.group(0))
        return pool[0]

    def _bind_anaphor(self, ids: list[str], legal: list[str]) -> str | None:
        """Anaphora: "that one", "this one", "affect it" bind to the object the situation
        singled out: the last legality the situation states ("only 1 is still legal" ->
        the legal ones; "1 became illegal" -> the illegal ones) must name exactly one object."""
        ask = ask_clause(self.low)
        a = _ANAPHOR.search(ask)
        if a is None:
            return self._bind_plural_anaphor(ids, legal)
        situation = self.low[: len(self.low) - len(ask)]
        said = list(re.finditer(r"\b(?:illegal|invalid|no longer (?:legal|valid)|(?:legal|valid))\b", situation))
        if not said:
            raise ParseFailure(f"I could not tell which object '{a.group(0)}' refers to.")
        illegal = [i for i in ids if i not in legal]
        word = said[-1].group(0)
        pool = illegal if word in {"illegal", "invalid"} or word.startswith("no longer") else legal
        if len(pool) > 1:
            raise UnclearReferent(f"'{a.group(0)}' could be any of the {len(pool)} {'illegal' if pool is illegal else 'legal'} "
                               "targets the question describes.")
        if not pool:
            raise ParseFailure(f"I could not tell which object '{a.group(0)}' refers to.")
        self.note(f"asked object={pool[0]} ({'illegal' if pool is illegal else 'legal'}: the one the situation singled out)",
                  a.group(0))
        return pool[0]

    def _bind_plural_anaphor(self, ids: list[str], legal: list[str]) -> str | None:
        """"those two", "them": the group the situation's last legality word singled out
        ("2 of 3 targets are illegal. Are those two affected?" -> the illegal ones). Every
        member shares that property, so one stands for all; a stated size must match."""
        ask = ask_clause(self.low)
        a = _ANAPHOR_PLURAL.search(ask)
        if a is None:
            return None
        situation = self.low[: len(self.low) - len(ask)]
        said = list(re.finditer(r"\b(?:illegal|invalid|no longer (?:legal|valid)|(?:legal|valid))\b", situation))
        if not said:
            raise ParseFailure(f"I could not tell which objects '{a.group(0)}' refers to.")
        illegal = [i for i in ids if i not in legal]
        word = said[-1].group(0)
        pool = illegal if word in {"illegal", "invalid"} or word.startswith("no longer") else legal
        n = a.group("n")
        if not pool or (n is not None and int(n) != len(pool)):
            raise ParseFailure(f"I could not tell which objects '{a.group(0)}' refers to.")
        self.note(f"asked objects={','.join(pool)} ({'illegal' if pool is illegal else 'legal'}: the group the situation singled out)",
                  a.group(0))
        return pool[0]

    def portion_reassigned(self) -> Parse:
        ability = self.pick.ability if self.pick else None
        if ability is None or _split_effect(ability) is None:
            pa = parse_ability("Split 4 damage among 2 targets")
            assert pa is not None
            ability = pa.ability
            ability["effects"][0]["selection"]["divides_amount"] = True
            self.note("ability", "a generic distribution among 2 targets")
        eff = _split_effect(ability) or ability["effects"][0]
        red = re.search(r"(?:\b(?:if|when|where|suppose|assuming|given that)\b[^?,.]*?)?\b(?:expressly |explicitly )?(?:instructs?|says?|permits?|allows?|tells?)\b[^?,.]*?\bredistribut\w*", self.low)
        quoted = next((qs for qs in quoted_spans(self.q) if _REASSIGN_INSTRUCTION.search(qs.text)), None)
        if quoted is not None and not red:
            # 11.4.9: the card's own text ("reassign its damage to another target") is the
            # express instruction to redistribute.
            eff["selection"]["redistributes"] = True
            self.note("selection.redistributes=true (the quoted text instructs redistribution)", quoted.text)
        elif red and not re.search(r"\b(?:not|n't|never|nothing|unless|without)\b", self.low[max(0, red.start() - 25):red.end()]):
            eff["selection"]["redistributes"] = True
            self.note("selection.redistributes=true (the text instructs redistribution)", red.group(0))
        elif red:
            self._exception_clause(red, "redistribution")
        main = self.low[: red.start()] if red else self.low
        lost = re.search(r"\b(?:lost|wasted|disappears?|vanish(?:es|ed)?|gone|forfeited)\b", main)
        invert = False
        if lost:
            if re.search(r"\b(?:reassign\w*|redistribut\w*|re-?allocat\w*|shift\w*|moves? (?:over )?to|go(?:es)? to)\b", main):
                raise ParseFailure("The question says both that the portion moves and that it is lost.")
            # The asked property is the converse of reassignment ("the portion is lost").
            self.note("question asks whether the portion is lost: verdict inverted", lost.group(0))
            invert = True
        w = World()
        ids = _candidates(w, eff, 2)
        amount = eff.get("amount") or 4
        tl = {"play": {"targets": [{"effect": eff["id"], "objects": ids}],
                       "distributions": [{"effect": eff["id"], "amounts": {ids[0]: amount // 2, ids[1]: amount - amount // 2}}]},
              "events": [{"kind": "become_illegal", "object": ids[0]}]}
        self._bind_asked(ids, ids[1:])  # "the other target(s)": the ones still legal
        p = self._one(ability, w, {"kind": "portion_reassigned", "effect": eff["id"], "object": ids[0]}, tl)
        if invert:
            p.combine = "invert"
        return p

    # .................................................................. choices
    _CHOICES: ClassVar[list[tuple[str, str]]] = [
        (r"\bmove destination|\bdestination\b|\bwhere (?:it|they|the units?) (?:will )?moves?\b", "move_destination"),
        ((r"\bdamage (?:amount|split)|\bamount (?:of damage|assigned|for each)|\bhow much (?:damage|each target)\b|\bsplit\b|\bdamage (?:each|per) target\b|\bdamage assignment"
         # the thing chosen is the division of an amount: "division", "divide", "allocate", "amounts".
         r"|\bdivi(?:sion|de|ded|ding)\b|\ballocat\w*|\bapportion\w*|\bamounts?\b"), "split_amounts"),
        (r"\bdistribut", "distribution"),
        (r"[\"']may[\"']|\bmay choice\b|\boptional\b|\bwhether to (?:perform|do)\b", "may"),
        (r"\bchoices? (?:that )?(?:this section|the rules?|these rules|this step) (?:doesn't|does not|don't|do not|never) (?:outline|cover|list|mention|describe)\w*", "other"),
        (r"\bdirections?\b", "other"),
        (r"\bmodes?\b", "modes"),
        (r"\bwhere (?:a|the) unit (?:is played|enters|will enter)|\bplay location\b|\blocation (?:for|of) (?:a|the) unit\b", "play_location"),
        (r"\bas (?:i am|you|it is) play", "as_you_play"),
        (r"\bsubset\b", "group_subset"),
        (r"\bdropp?ed targets?\b|\bwhich targets? (?:to )?drop", "dropped_targets"),
        (r"\bspecifically choos\w*|\bchoos\w* (?:one or more |specific )?(?:game )?objects\b", "targets"),
        (r"\btargets?\b", "targets"),
        (r"\bwhich (?:one|legend|unit|card|object)\b", "other"),
    ]

    def choice_timing(self) -> Parse:
        low = self.q.lower()
        choice = None
        # The choice asked about is named in the asking clause ("is the amount going to each
        # target decided ..."); the situation before it ("when a spell splits damage among
        # several targets, ...") only sets the scene.
        asking = ask_clause(low)
        # "do I pick the targets while playing it?": the object of the asked choosing verb
        # is the choice, whatever else the question names ("with split damage, ...").
        verb = re.search(r"\b(?:do|does|did|can|could|must|should|may|will|would) (?:i|you|we|they|players?|the player|the controller)"
                         r" (?:\w+ )?(?:choose|pick|select|decide|assign|declare|name) ", asking)
        scopes = ([asking[verb.end():verb.end() + 40]] if verb else []) + [asking, low]
        for scope in scopes:
            for rx, c in self._CHOICES:
                m = re.search(rx, scope)
                if m:
                    choice = c
                    self.note(f"choice={c}", m.group(0))
                    break
            if choice is not None:
                break
        if choice is None:
            raise ParseFailure("I could not tell which choice the question asks about.")
        # "during this step rather than at resolution": the moment asked about comes first.
        alt = re.search(r"\b(?:rather than|instead of|as opposed to|or (?:do i |does it |must i )?wait)\b.*", low)
        if alt:
            self.note("the alternative moment is not the one asked about", alt.group(0))
            low = low[: alt.start()]
        # "before anything resolves" names a moment earlier than resolution, not resolution.
        early = list(re.finditer(r"\b(?:before|prior to|ahead of) (?:\w+ ){0,2}?(?:resolution|resolves?|resolving|resolved)\b", low))
        m = next((r for r in re.finditer(r"\b(?:resolution|resolves?|resolving|resolved)\b", low)
                  if not any(e.start() <= r.start() < e.end() for e in early)), None)
        # "when I choose the targets": the moment the targets are chosen is finalization.
        m2 = re.search(r"\b(?:played|plays?|playing|cast|finali[sz]\w*|enters?|entering|queue|put on|chain|announced when"
                       r"|this step|making (?:relevant )?choices|(?:choos\w*|chose|pick\w*|select\w*) (?:the |my |its |their )?targets"
                       r"|targets? (?:are|is|get) (?:chosen|picked|selected))\b", low)
        wait = re.search(r"\b(?:wait|put off|postpone|delay|defer)\w*\b[^?]*\buntil\b[^?]*\b(?:resolution|resolves?)\b", low)
        if wait:
            when = "resolution"
            self.note("when=resolution", wait.group(0))
        elif m and (not m2 or m.start() > m2.start()):
            when = "resolution"
            self.note("when=resolution", m.group(0))
        elif m2:
            when = "play"
            self.note("when=play", m2.group(0))
        elif early:
            when = "play"
            self.note("when=play (before resolution)", early[0].group(0))
        else:
            raise ParseFailure("I could not tell which moment the question asks about.")
        ability = self.pick.ability if self.pick else _generic()
        question: dict[str, Any] = {"kind": "choice_timing", "choice": choice, "when": when}
        ov = re.search(r"\b(?:if|when|where|unless)\b[^?,]*?\b(?:text|ability|card)\b[^?,]*?\b(?:requires?|demands?)\b[^?,]*?\b(?:earlier|sooner|before)\b", self.q.lower())
        # "(the text doesn't defer it)" says the default holds: a denied override is none.
        if ov and not _denied(ov.group(0)):
            question["text_requires_earlier"] = True
            self.note("the text requires the choice earlier", ov.group(0))
        df = re.search(r"\b(?:if|when|where)\b[^?,]*?\b(?:text|ability|card)\b[^?,]*?\b(?:explicitly |expressly )?(?:defers?|postpones?|delays?)\b[^?,]*", self.q.lower())
        if df and not _denied(df.group(0)):
            question["text_defers"] = True
            self.note("the text explicitly defers the choice", df.group(0))
        return self._one(ability, World(), question)

    def can_change(self) -> Parse:
        low = self.low
        m = re.search(r"\b(?:if|when|because|since) (?:an?|some|the|its|this) (?:effect|spell|ability|card|text)\b[^?,]*?\b(?:says|instructs|tells|allows|permits|lets)\b[^?,]*", low)
        neg = re.search(r"\bwithout\b[^?,]*|\bunless\b[^?,]*", low)
        instructed = bool(m) and not neg and not re.search(r"\b(?:not|n't|never)\b", m.group(0) if m else "")
        self.note(f"instructed={instructed}", m.group(0) if m and instructed else neg.group(0) if neg else "no instruction")
        ability = self.pick.ability if self.pick else _generic()
        p = self._one(ability, World(), {"kind": "can_change_choices", "instructed": instructed})
        # The asked property may be the converse ("targets stay locked unless ..."): outside
        # the exception clause, a word for staying fixed inverts the engine's "can change".
        main = low[: neg.start()] if neg else low
        fixed = _FIXED.search(main)
        if fixed:
            if re.search(r"\b(?:change|changed|alter|altered|switch|switched|swap|swapped|redirect\w*|revise\w*|modif\w*)\b", main):
                raise ParseFailure("The question says both that the choices change and that they stay fixed.")
            self.note("question asks whether the choices stay fixed: verdict inverted", fixed.group(0))
            p.combine = "invert"
        return p

    # .................................................................. 355.16
    _SUPERLATIVE = re.compile(r"\bwith the (?P<m>most|highest|greatest|largest|least|lowest|fewest|smallest) (?P<s>might|atk|thw|sch|health|hit points|cost)\b",
                              re.IGNORECASE)
    _ASK_SUPER = re.compile(r"\b(?:my|the|our|your) (?:(?P<m1>highest|most|greatest|biggest|strongest|largest|lowest|least|weakest|smallest)[- ](?P<s1>might|atk|thw|sch)\b|(?P<m3>strongest|biggest|weakest) unit\b)"
                            r"|\b(?:unit|one) (?:i|you) control with the (?P<m2>most|highest|least|lowest) (?P<s2>might|atk|thw|sch)\b", re.IGNORECASE)

    def _cost_superlative(self) -> tuple[dict[str, Any], re.Match[str]] | None:
        if self.pick is None:
            return None
        for e in self.pick.ability.get("effects", []):
            if e.get("selection", {}).get("kind") != "cost":
                continue
            m = self._SUPERLATIVE.search(e.get("text", "") or "")
            if m:
                return e, m
        return None

    def has_cost_conflict(self) -> bool:
        return self._cost_superlative() is not None and self._ASK_SUPER.search(ask_clause(self.low)) is not None

    def cost_conflict(self) -> Parse:
        """355.16: a cost that removes "the unit with the most Might" and a target chosen
        for another effect of the same card: choosing the unit the cost will remove forces
        an illegal choice later. Scenario: the player's units at different Might, the
        asked-about one targeted."""
        got = self._cost_superlative()
        assert got is not None and self.pick is not None
        cost, sm = got
        ability = copy.deepcopy(self.pick.ability)
        most = sm.group("m").lower() not in {"least", "lowest", "fewest", "smallest"}
        stat = {"hit points": "health"}.get(sm.group("s").lower(), sm.group("s").lower())
        ask = self._ASK_SUPER.search(ask_clause(self.low))
        assert ask is not None
        asked_word = (ask.group("m1") or ask.group("m2") or ask.group("m3") or "").lower()
        asked_most = asked_word not in {"lowest", "least", "weakest", "smallest"}
        asked_stat = (ask.group("s1") or ask.group("s2") or "might").lower()
        if asked_stat != stat:
            raise ParseFailure("The question asks about another stat than the cost's.")
        for e in ability["effects"]:
            if e["id"] == cost["id"]:
                pool = e["selection"].setdefault("pool", {})
                pool["superlative"] = {"stat": stat, "most": most}
                if re.search(r"\byou control\b|\byour\b", e.get("text", ""), re.IGNORECASE):
                    pool["controller"] = "you"
        others = [e for e in ability["effects"] if e["id"] != cost["id"] and e.get("selection", {}).get("kind", "choose") == "choose"]
        if len(others) != 1:
            raise ParseFailure("I could not tell which effect's target the question is about.")
        eff = others[0]
        w = World()
        bf = w.battlefield()
        hi = w.add("u", "unit", "you", zone="battlefield", location=bf, stats={stat: 5})
        lo = w.add("u", "unit", "you", zone="battlefield", location=bf, stats={stat: 2})
        only = re.search(r"\b(?:my )?only unit\b|\bno other units?\b|\bonly (?:one|1) unit\b", self.low)
        if only:
            w.objects = [o for o in w.objects if o["id"] != lo]
            self.note("state: the player controls only that unit", only.group(0))
        asked = hi if asked_most == most else lo
        self.note(f"cost {cost['id']} removes the unit with the {'most' if most else 'least'} {stat} (355.16)", sm.group(0))
        self.note(f"play: {eff['id']} targets the unit the question names", ask.group(0))
        for wd in re.finditer(r"\bwith (?:the |its |that )?(?:\+\[m\]|buff|bonus|\+\d+ might|pump)", self.low):
            self.note(f"the effect {eff['id']}", wd.group(0))
        tl = {"play": {"targets": [{"effect": eff["id"], "objects": [asked]}]}}
        self.kind = "can_play"
        return self._one(ability, w, {"kind": "can_play"}, tl)

    def is_mandatory(self) -> Parse:
        ability = self.need_ability()
        for e in ability["effects"]:
            if e.get("constraints"):
                self.note(f"constraint of {e['id']}", e["constraints"][0].get("text", ""))
                return self._one(ability, World(), {"kind": "is_mandatory", "effect": e["id"], "constraint": 0})
        raise ParseFailure("The ability has no requirement on how its choice is made.")


# Words that ask whether something is obligatory (355.17: a mandatory requirement).
_OBLIGATION = re.compile(r"\b(?:must|mandatory|required|requires?|forced?|forces|forcing|obliged|obligat\w*|have to|has to|need(?:s)? to|compelled)\b",
                         re.IGNORECASE)
_COST_CONFLICT_KINDS = {"is_target", "valid_target", "can_play", "legal_targets"}


# "only among/to the original(ly chosen) targets": the asked property is that no target
# outside the ones chosen at play is added.
_ONLY_ORIGINALS = re.compile(
    r"\b(?:only|just|solely|exclusively) (?:among|between|to|on|across|over|at|hit\w*|affect\w*|damag\w*) (?:the |its |my |their )?"
    r"(?:original(?:ly)?|initial(?:ly)?|already) (?:(?:chosen|picked|selected|announced) )?(?:targets?|units?|ones)\b", re.IGNORECASE)


# Negative validity predicates: "an invalid target", "excluded / ruled out / disqualified as
# a target", "an ineligible target".
_NOT_VALID = re.compile(
    r"\b(?P<inv>(?:an? |its |their )?(?:invalid|ineligible) (?:target|choice)s?\b)"
    r"|\b(?:excluded|ruled out|disqualified|barred) (?:as|from being) (?:an? |its |their |the )?(?:valid )?(?:target|choice)s?\b", re.IGNORECASE)

# "the whole Ability does nothing", "resolves with no effect", "fizzles": nothing of it happens.
_NO_EFFECT = re.compile(
    r"\b(?:(?:the |its |this )?(?:whole |entire )?(?:ability |spell )?)"
    r"(?:do(?:es)? nothing(?: at all)?|resolves? (?:with|to) no effect|fizzles?|ha(?:s|ve) no effect(?: at all)?)\b", re.IGNORECASE)


def route_known(b: _Builder, kind: str) -> str:
    """A known rules example routes to the question kinds its rule decides; a question
    about it parsed into any other kind abstains rather than meet a generic template.
    An ability whose choice carries a requirement (a play location): a question that asks
    whether that choice is obligatory is an ``is_mandatory`` question (355.17)."""
    pick = b.pick
    constrained = pick is not None and any(e.get("constraints") for e in pick.ability.get("effects", []))
    if constrained and kind != "is_mandatory" and _OBLIGATION.search(ask_clause(b.low)):
        m = _OBLIGATION.search(ask_clause(b.low))
        assert m is not None
        b.note("question kind=is_mandatory (obligation asked about a constrained choice)", m.group(0))
        kind = "is_mandatory"
    if pick is not None and pick.kinds and kind not in pick.kinds:
        raise ParseFailure(f"{pick.name} is a rules example about {'; '.join(kind_words(k) for k in sorted(pick.kinds))}; "
                           f"I could not read this question as one of those.")
    return kind


def build(q_raw: str, game: str, pick: AbilityPick | None, kind: str, confidence: float,
          kind_words: str) -> Parse:
    q = normalise(q_raw)
    b = _Builder(q, game, copy.deepcopy(pick) if pick else None, kind)
    b.note(f"question kind={kind}", kind_words)
    only = _ONLY_ORIGINALS.search(ask_clause(b.low))
    if only is not None and kind != "add_target":
        # "still only among the originally chosen targets" asks whether the set of targets
        # stays closed: the converse of adding a new target (guide: no new target is added).
        b.note("question kind=add_target (asked: restricted to the original targets; verdict inverted)", only.group(0))
        kind = "add_target"
    not_valid = _NOT_VALID.search(ask_clause(b.low)) if kind in {"is_target", "valid_target"} and only is None else None
    if not_valid is not None and kind == "is_target" and not not_valid.group("inv") \
            and not any(re.search(rx, b.sit) for rx, _ in _RESTRICTIONS):
        # "excluded as a target" with no restriction on the object may ask whether it is
        # targeted at all (is_target, whose polarity reading handles it), not its validity.
        not_valid = None
    if not_valid is not None:
        # "Is X an invalid target / excluded / ruled out as a target?" asks the converse of
        # whether X is a valid target.
        b.note("asked: not a valid target (valid_target, verdict inverted)", not_valid.group(0))
        kind = "valid_target"
    nothing = _NO_EFFECT.search(ask_clause(b.low)) if re.search(r"\billegal\b", b.low) and only is None else None
    if nothing is not None:
        # "Does the whole Ability do nothing?" when targets turned illegal asks the converse of
        # whether the rest of its instruction is still performed (11.4.5).
        b.note("asked: the ability resolves with no effect (effect_performed, verdict inverted)", nothing.group(0))
        kind = "effect_performed"
    kind = route_known(b, kind)
    b.kind = kind
    fn = getattr(b, kind, None)
    if fn is None:
        raise ParseFailure(f"I can't yet rule on questions asking {kind_words(kind)}.")
    p: Parse = b.cost_conflict() if kind in _COST_CONFLICT_KINDS and b.has_cost_conflict() else fn()
    if only is not None or nothing is not None or not_valid is not None:
        if p.combine != "single" or p.alternatives:
            raise ParseFailure("I could not combine 'only the original targets' with the rest of the question.")
        p.combine = "invert"
    p.kind = b.kind
    p.because = b.because
    p.confidence = confidence
    p.ability_name = pick.name if pick else None
    return p


def accept(q_raw: str, p: Parse, every_number: bool = False) -> None:
    """Polarity and coverage: mark a negated statement for inversion, and fail when a word
    that changes the question (negation, condition, exception, quantity, a predicate the
    engine has no notion of) is accounted for by no part of the parse."""
    q = normalise(q_raw)
    # The question-kind words are matched loosely (a form can span "is ... isn't a valid
    # target"), so they never account for a negation: only the situation's parts do.
    situation = credited_spans(q, [w for part, w in p.because if not part.startswith("question kind=")])
    credited = credited_spans(q, [w for _, w in p.because])
    quoted = [(s.start, s.end) for s in quoted_spans(q) if " " in s.text or q[s.start] == '"']
    pol = polarity(q, situation + quoted + baseline_spans(q))
    if pol.negated:
        p.negated = True
        p.negation = pol.words
        p.because.append(("polarity=negated: the verdict is inverted", pol.words))
    # Quoted text the parse read as the ability is accounted for; any other quoted words
    # ("an enemy 'cannot take damage'") describe the situation and must be credited.
    used = {w.strip().strip('"').lower() for part, w in p.because if part == "ability"}
    ability_quotes = [(s.start, s.end) for s in quoted_spans(q)
                      if s.text.lower() in used or not any(c.category != "quantity" for c in cues(s.text))]
    known = ability_quotes + list(pol.spans) + baseline_spans(q)
    if p.kind in _CHANGE_KINDS:
        # Changing or adding a target is choosing a different object: the kind reads the word.
        known += [(m.start(), m.end()) for m in _DIFFERENT.finditer(q)]
    if p.kind in COUNTED_KINDS or every_number:
        ab = (p.alternatives[0] if p.alternatives else p.scenario or {}).get("ability", {}) or {}
        _account_numbers(q, credited + known, " ".join([ab.get("text", "")] + [e.get("text", "") for e in ab.get("effects", [])]))
    _account_asked_object(q, credited)
    _one_ability_only(q, p)
    # A slot whose words run across a sentence ("... when it resolves; the text doesn't defer
    # it. B says ...") was matched loosely: it credits no negation inside it.
    tight = [s for s in situation if not _SENTENCE_BREAK.search(q[s[0]:s[1]])]
    left = [c for c in uncovered(q, credited + known)]
    left += [c for c in uncovered(q, tight + known) if c.category == "negation" and c not in left]
    both = _CONTRAST_NOT.search(outside_quotes(q))
    if both is not None and not left:
        # "targets the battlefield and not the units": two propositions, one of them negated;
        # a reading checks one property of one object.
        raise ParseFailure(f"The question states two things at once ('{both.group(0).strip()}'); I can check only one at a time.")
    if left:
        words = ", ".join(repr(c.text) for c in left[:3])
        raise ParseFailure(f"The question says {words}, which my reading of it does not account for.")


# Number accounting: a number the question states (digits, or number words, which
# normalisation turned into digits) changes the scenario; one no part of the parse used
# means the parse missed a fact. Rule numbers ("11.4.5") are references, not facts.
_NUM_TOKEN = re.compile(r"(?<![\w.])[+-]?\d+(?:\.\d+)*(?![\w.]*\d)(?:st|nd|rd|th)?")
_PRONOUN_BEFORE = re.compile(r"\b(?:the|a|an|that|this|which|each|every|any|another|other|last|legal|illegal|valid|invalid|remaining"
                             r"|surviving|new|same|first|chosen|original|final|lone|only|no|just)\s+$", re.IGNORECASE)
_STAT_AFTER = re.compile(r"^[- ]?(?:might|atk|thw|sch|damage|threat|health)\b", re.IGNORECASE)
_NOUN_AFTER = re.compile(r"^\s*(?:of\b|[\w'-]*(?:unit|target|minion|enem|recruit|card|object|player|legend|slot|scheme|choice|option|might|damage|atk|thw|sch)\w*)",
                         re.IGNORECASE)


# The kinds whose scenario is built from the situation's counts and stats (objects chosen,
# changed, illegal, kept): a number those parses leave unused is a fact they missed.
COUNTED_KINDS = {"affected", "effect_performed", "legal_subset", "targets_to_drop", "targets_to_keep", "add_target"}


def _account_numbers(q: str, credited: list[tuple[int, int]], ability_text: str = "") -> None:
    out = outside_quotes(q)
    restated = set(re.findall(r"\d+", normalise(ability_text))) if ability_text else set()
    for m in _NUM_TOKEN.finditer(out):
        tok = m.group(0)
        if "." in tok or tok.lstrip("+-") in restated:
            continue  # a rule number, or the ability's own amount restated
        if tok == "1" and _PRONOUN_BEFORE.search(out[: m.start()]) and not _NOUN_AFTER.match(out[m.end():]):
            continue  # "the remaining one", "which one": a pronoun (see asked-object accounting)
        if tok == "1" and not _STAT_AFTER.match(out[m.end():]) and not re.search(r"\b(?:of|out of)\s+\d", out[m.end(): m.end() + 12]):
            continue  # "one battlefield", "one of them": the indefinite article, not a count or stat
        if not any(a <= m.start() and m.end() <= b for a, b in credited):
            ctx = out[max(0, m.start() - 20): m.end() + 20].strip()
            raise ParseFailure(f"The question gives the number {tok} ('{ctx}'), which my reading of it does not use.")


_CHANGE_KINDS = {"can_change", "can_change_choices", "add_target"}
_DIFFERENT = re.compile(r"\b(?:a )?different (?:\w+ )?\w+", re.IGNORECASE)
_SENTENCE_BREAK = re.compile(r"[.;!?]\s")
_CONTRAST_NOT = re.compile(r"(?:\b(?:and|but)\s+|,\s*)(?:not|never)\s+(?:the|a|an|its|their|his|her|my|your|any|on|to)\b", re.IGNORECASE)


def _account_asked_object(q: str, credited: list[tuple[int, int]]) -> None:
    """Asked-object accounting: "the remaining legal one" must have been bound by the parse."""
    lo = len(q) - len(ask_clause(q))
    for m in _ASKED_OBJECT.finditer(outside_quotes(q), lo):
        if not any(a <= m.start() and m.end() <= b for a, b in credited):
            raise ParseFailure(f"I could not tell which object '{m.group(0)}' refers to.")


def _one_ability_only(q: str, p: Parse) -> None:
    """Two quoted abilities in one question ("Is A non-targeting, like B?") ask about a
    comparison no question kind checks: abstain."""
    texts = {s.text.lower() for s in quoted_spans(q) if len(s.text.split()) >= 2 and parse_ability(s.text) is not None}
    if len(texts) >= 2:
        raise ParseFailure("The question quotes two abilities; I can check only one at a time.")
