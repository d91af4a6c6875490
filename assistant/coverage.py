"""Coverage and polarity: does the parse account for every word that changes the question?

A template parse can match a familiar question while ignoring a word that reverses or
qualifies it ("Is it true that X *can't* ...", "... *unless* duplicates are allowed",
"may I choose *only* two", "is the cost *taken into account*"). Two mechanisms guard
against that:

* :func:`polarity` finds a negation inside an asserted proposition ("Is it true that S",
  "S, right?") and says the engine verdict must be inverted.
* :func:`uncovered` lists the logic cues of the question (negations, conditions,
  exceptions, quantity comparisons, predicates the engine has no notion of) that no part
  of the parse credited. Any such cue makes the answer abstain: a wrong ruling is worse
  than ``unknown``.

The cue lexicon is the small closed class of English function words and phrases that
carry logic; it names no game and no question.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

# Category -> pattern. Every match must be credited by the parse (or by polarity).
# Predicates whose meaning is the negation of the property they name ("stops being a
# target" = is not a target, "fails to enter the queue" = does not enter it). Inside an
# asserted or asked proposition they invert the engine's verdict (see :func:`polarity`).
NEG_PREDICATE = (r"\bstop(?:s|ped|ping)? (?:being|counting as)\b|\bceas(?:e|es|ed|ing) (?:to|being)\b"
                 r"|\bfail(?:s|ed|ing)? to\b|\bno longer\b|\b(?:is |are |be )?unable to\b|\bnone of\b"
                 r"|\b(?:barred|forbidden|prohibited|prevented|precluded|kept|excluded|disqualified) from\b|\bforbidden to\b"
                 # Round 4: adjectives and participles that name the absence of a property
                 # ("illegal for X to ...", "non-targeting", "not allowed", "invalid").
                 r"|\b(?:illegal|impossible|invalid|not allowed|not permitted|disallowed|prohibited) (?:for|to)\b"
                 r"|\b(?:cancel(?:l)?ed|negated|nullified|voided|countered)\b|\bnon-?target(?:ing|ed)\b|\bnot (?:allowed|permitted)\b|\bdisallowed\b|\bprohibited\b"
                 r"|\b(?:impossible|invalid|illegal)(?=\s*\?)|\binvalid (?=(?:target|choice)s?\b)"
                 # Round 5: "unplayable" = not playable (355.8 decides the positive).
                 r"|\bun(?:playable|castable|usable|targetable)\b"
                 r"|\bstop(?:s|ped)? (?:\w+ ){1,3}?from\b"
                 # Round 7: "X prevents a hero from making ..." = the hero cannot make it.
                 r"|\bprevent(?:s|ed)? (?:\w+ ){1,3}?from (?=\w+ing\b)")
# Every other word that carries negation. Default-deny: outside the ability's quoted text,
# one of these that no part of the parse accounts for makes the answer abstain.
NEG_WORDS = (r"\bnone\b|\bnothing\b|\bempty\b|\b(?:ha(?:s|ve|d|ving)|there(?: is| was|.s)?) no effect\b|\bwith no effect\b(?! \w+ing\b| (?:allow|permit|say|instruct|tell|let)\w*)|\bneither\b|\bnor\b|\bwithout\b|\blos(?:e|es|ing|t)\b|\bunable\b"
             r"|\bprevent\w*|\bforbid\w*|\bprohibit\w*|\bdisallow\w*|\bnobody\b|\bno one\b|\brefus\w*"
             r"|\bbarred\b|\bfizzl\w*|\bstops?\b|\bstopped\b|\bceas\w*|\bfail\w*|\bimpossible\b|\binvalid\b"
             r"|\bun(?:playable|castable|usable|targetable)\b|\bexclud\w*|\bnon-?target\w*|\bcancel\w*|\bnegat(?:e|es|ed|ing)\b|\bnullif\w*|\bvoid\w*|\bcounter(?:s|ed|ing)?\b")

CUES: list[tuple[str, str]] = [
    ("negation", r"\b(?:not|never|no longer|neither|nor)\b|n't\b|\bcannot\b|\bexempt from\b|" + NEG_PREDICATE + "|" + NEG_WORDS
     # "there's no valid target", "no units in play": the situation lacks what the
     # engine's reading would assume.
     + r"|\bno (?:\w+ )?(?:valid|legal|possible|available|eligible|other)\b"
     + r"|\bno (?:targets?|units?|minions?|enem(?:y|ies)|cards?|choices?|schemes?|threat|characters?|allies|heroes)\b"),
    # "doesn't need every enemy to be a valid target": a necessity denied is not the
    # property denied; no reading checks what an ability needs.
    # "does it need every scheme to be a valid target?": a requirement on all of them is
    # asked, not whether one is valid.
    ("necessity", (r"(?:n't|\bnot|\bnever) (?:\w+ )?(?:need|require|have to|has to)\b"
                  r"|\b(?:need|needs|require|requires|have to|has to) (?:every|all|each|both)\b")),
    ("condition", r"\bunless\b|\bexcept(?:ion)?s?\b|\bonly if\b|\bprovided that\b"),
    ("express", (r"\b(?:expressly|explicitly|specifically)\b|\b(?:permits?|allows?|instructs?|requires?|defers?)\b"
                 r"(?= (?:a |an |the |it |that |duplicate|redistribut|new |fewer|more |the choice|choices))")),
    ("quantity", (r"\b(?:more|fewer|less|greater) than\b|\bat (?:least|most)\b|\bonly \d+\b|\bonly (?:one|two|three|some)\b"
                  r"|\bboth\b|\b(?:the )?same (?:\w+ )?(?:object|target|unit|card|player|one|thing|slot|guy|dude|minion|enem\w+|character|ally|hero|villain|scheme|recruit|legend|creature|permanent)s?\b|\btwice\b|\bextra\b|\badditional\b"
                  r"|\b(?:a )?different (?:\w+ )?(?:objects?|targets?|units?|cards?|players?|ones?|minions?|enem\w+|characters?|all(?:y|ies)|heroe?s?|schemes?|legends?|creatures?|permanents?)\b"
                  r"|\bnew (?:targets?|units?|enem\w+|choices?|objects?|recruits?)\b")),
    ("contrast", r"\brather than\b|\bother than\b|\binstead of\b|\binstead(?=\s*[?.!]|\s*$)|\bas a whole\b|\bon its own\b|\beach target on\b"),
    ("predicate", (r"\bautomatic\w*|\b(?:no|without) targeting\b|\bignor\w*|\bundo(?:ne)?\b|\breverse\w*|\btaken into account\b|\bconsidered\b|\bchecked\b"
                   r"|\bwait(?:ing)? until\b|\bput off\b|\bpostpone\w*|\bhow much\b")),
]
_CUES = [(c, re.compile(p, re.IGNORECASE)) for c, p in CUES]

# Statements of the default case carry no condition ("with no exception", "says nothing
# about redistribution", "without an effect saying so"): they are credited as such.
_BASELINE = re.compile(
    r"\b(?:with no|without (?:any |an? )?|no)\s*(?:stated |express |explicit |expressed |written )?(?:exceptions?|minimum|instructions?|permission)\b"
    r"|\bsays? nothing about\b[^.?;]*|\bdoes(?:n't| not) (?:say|mention) anything about\b[^.?;]*"
    r"|\b(?:does(?:n't| not)|do(?:n't| not)|never) (?:expressly |explicitly )?(?:permit|allow|instruct|require|mention)s?\b[^.?;,]*"
    # "(the text doesn't say otherwise)", "doesn't say duplicates are allowed": the default case.
    r"|\b(?:does(?:n't| not)|do(?:n't| not)|never) (?:say|state)s? (?:otherwise|so|anything else)\b"
    r"|\b(?:does(?:n't| not)|do(?:n't| not)|never) (?:say|state)s? (?:that )?[\w ]{1,30}? (?:are|is) (?:allowed|permitted)\b"
    # "if nothing lets me", "with nothing in the text allowing it": no permission, the default.
    r"|\b(?:nothing|no (?:card|effect|ability|rule|text))(?: (?:in|on) (?:the|my|its|that) (?:\w+ )?(?:text|ability|card|spell))? (?:lets?|letting|allows?|allowing|permits?|permitting|says? (?:i|you|we) can)\b"
    # "... targeting or not?", "whether or not": the question's own two sides, not a negation.
    r"|\bwhether or not\b|\bor not(?=\s*(?:[?.!]|$))"
    # "we weren't sure if that counts": the asker's doubt about what is asked, not the situation.
    r"|\b(?:i|we|they) (?:were|was|are|am) not (?:sure|certain) (?:if|whether) (?:that|it|this) (?:counts?|is|works?)\b",
    re.IGNORECASE)

# An asserted proposition whose truth is asked about.
_ASSERT_HEAD = re.compile(
    r"\b(?:is it (?:true|correct|right|the case|accurate|so)|am i (?:right|correct) (?:in thinking|to think)?"
    r"|would it be (?:true|correct|right)|do i understand correctly|so it(?:'s| is) (?:true|correct))\s+(?:that\s+)?",
    re.IGNORECASE)
_ASSERT_TAIL = re.compile(r",\s*(?:right|correct|yes|true|no|isn't it|is that right|am i right)\s*\?\s*$", re.IGNORECASE)
_NEG = re.compile(r"\b(?:not|never|no longer)\b|n't\b|\bcannot\b|\bexempt from\b", re.IGNORECASE)
_NEG_PRED = re.compile(NEG_PREDICATE, re.IGNORECASE)
# A clause that describes the situation rather than asserting the property: a negative
# predicate after one of these words (in the same clause) is not the asked property.
_SUBORDINATE = re.compile(r"\b(?:that|which|who|whose|if|when|whenever|once|after|before|because|since|while|until|unless|where)\b",
                          re.IGNORECASE)
_DIRECT = re.compile(r"^\s*(?:[\w' ,-]{0,60}?[:,]\s+)?(?:does|do|did|is|are|was|were|will|would|can|could|must|should|has|have)\b",
                     re.IGNORECASE)


def _main_clause(text: str, at: int, lo: int) -> bool:
    """Whether position ``at`` lies in a main clause: no subordinating word between the
    last clause boundary (comma, semicolon, start of the proposition) and ``at``."""
    seg = text[lo:at]
    cut = max(seg.rfind(","), seg.rfind(";"), seg.rfind(":"))
    seg = seg[cut + 1:] if cut >= 0 else seg
    seg = re.sub(r'"[^"]*"', " ", seg)
    return _SUBORDINATE.search(seg) is None
# A leading negative auxiliary ("Isn't it a target?", "Can't I ...?") asks the positive
# question; it is credited, not inverted.
_NEG_AUX = re.compile(r"^\s*(?:\w+[,:]\s+)?(?:isn't|aren't|doesn't|don't|can't|won't|wouldn't|shouldn't|couldn't|mustn't)\b",
                      re.IGNORECASE)


@dataclass(frozen=True)
class Cue:
    category: str
    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Polarity:
    """``negated``: the question asserts the negation of what the engine checks."""

    negated: bool
    spans: tuple[tuple[int, int], ...] = ()
    words: str = ""


def cues(text: str) -> list[Cue]:
    out: list[Cue] = []
    for cat, rx in _CUES:
        for m in rx.finditer(text):
            out.append(Cue(cat, m.group(0), m.start(), m.end()))
    return out


def polarity(text: str, protected: Iterable[tuple[int, int]] = ()) -> Polarity:
    """Whether ``text`` asks about the truth of a negated proposition. Negations inside
    ``protected`` spans (restriction phrases such as "cannot take damage", quoted ability
    text) describe the situation and do not count."""
    prot = list(protected)

    def free(m: re.Match[str]) -> bool:
        return not any(a <= m.start() < b for a, b in prot)

    spans: list[tuple[int, int]] = []
    m = _NEG_AUX.match(text)
    if m:
        spans.append((m.start(), m.end()))
    claim = asked_claim(text)
    if claim is not None:
        # "B says you can't play it. Is B right?" asks whether B's claim is true: the claim
        # is the asserted proposition (one negation in it inverts; two are left uncovered).
        (lo, hi), said = claim
        negs = [n for n in _NEG.finditer(text, lo, hi) if free(n)]
        negs += [n for n in _NEG_PRED.finditer(text, lo, hi) if free(n) and not any(a.start() <= n.start() < a.end() for a in negs)]
        if len(negs) == 1:
            n = negs[0]
            return Polarity(True, (*spans, said, (n.start(), n.end())), n.group(0))
        if not negs:
            return Polarity(False, (*spans, said))
        return Polarity(False, tuple(spans))
    head = _ASSERT_HEAD.search(text)
    tail = _ASSERT_TAIL.search(text)
    if head or tail:
        lo = head.end() if head else 0
        hi = tail.start() if tail else len(text)
        negs = [n for n in _NEG.finditer(text, lo, hi) if free(n)]
        preds = [n for n in _NEG_PRED.finditer(text, lo, hi) if free(n)
                 and not any(a.start() <= n.start() < a.end() for a in negs)]
        if preds and not all(_main_clause(text, n.start(), lo) for n in preds):
            # A negative predicate in a subordinate clause ("when it fails to ...") describes
            # the situation, not the asserted property: never inverted, left uncovered.
            return Polarity(False, tuple(spans))
        negs = sorted(negs + preds, key=lambda n: n.start())
        if tail:
            spans.append((tail.start(), tail.end()))
        if head:
            spans.append((head.start(), head.end()))
        if len(negs) == 1:
            n = negs[0]
            spans.append((n.start(), n.end()))
            return Polarity(True, tuple(spans), n.group(0))
        if len(negs) > 1:
            # Double negation inside one statement: too easy to misread; leave uncovered.
            return Polarity(False, tuple(spans))
    # A direct question whose asked predicate is negative ("Does it fail to enter the
    # queue?", "Does the unit stop being a target?"): the engine checks the positive.
    # Only the asking sentence's main predicate counts: "Two targets became illegal. Is
    # playing it impossible?" inverts on "impossible", never on the situation's "illegal".
    lo = ask_start(text)
    dm = _DIRECT.match(text[lo:])
    if not head and not tail and dm:
        preds = [n for n in _NEG_PRED.finditer(text, lo) if free(n)]
        plain = [n for n in _NEG.finditer(text, lo) if free(n) and not any(p.start() <= n.start() < p.end() for p in preds)]
        if len(preds) == 1 and not plain and _main_clause(text, preds[0].start(), lo + dm.end()):
            n = preds[0]
            return Polarity(True, tuple(spans) + ((n.start(), n.end()),), n.group(0))
    # A predicate that is itself negative ("exempt from needing a target").
    for n in re.finditer(r"\bexempt from\b|\bfree from (?:having to|needing)\b", text, re.IGNORECASE):
        if free(n):
            return Polarity(True, tuple(spans) + ((n.start(), n.end()),), n.group(0))
    return Polarity(False, tuple(spans))


_WHO = r"(?:player\s+)?(?:[ab]|i|he|she|opp|opponent|my\s+\w+|your\s+\w+)"
_IS_WHO_RIGHT = re.compile(r"\b(?:is|am)\s+(?P<who>" + _WHO + r")\s*(?:right|correct)?\s*\?\s*$", re.IGNORECASE)
# The verbs that state a player's claim ("B says ...", "my opp insists ...").
CLAIM_VERBS = r"says?|said|claims?|claimed|argues?|argued|insists?|insisted|thinks?|believes?"
_SAYS = re.compile(r"(?:^|(?<=[\s,.;:]))(?P<who>" + _WHO + r")\s+(?:" + CLAIM_VERBS + r")"
                   r"\s+(?:that\s+)?(?P<claim>[^.;?!]+)", re.IGNORECASE)


def _who(w: str) -> str:
    w = re.sub(r"^player\s+", "", w.strip().lower())
    return "opp" if w == "opponent" else w


def asked_claim(text: str) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """In "A says X. B says Y. Is B right?", the span of the claim asked about (Y) and the
    span from its claimant to the end (the words that ask it); None for any other form or
    when the asked claimant made no claim or more than one."""
    asked = _IS_WHO_RIGHT.search(text)
    if asked is None:
        return None
    who = _who(asked.group("who"))
    mine = [m for m in _SAYS.finditer(text, 0, asked.start()) if _who(m.group("who")) == who]
    if len(mine) != 1:
        return None
    m = mine[0]
    return (m.start("claim"), m.end("claim")), (m.start(), m.start("claim"))


def ask_start(text: str) -> int:
    """Offset of the asking sentence (the last one; earlier ones describe the situation)."""
    starts = [m.end() for m in re.finditer(r"(?<=[.;!])\s+(?=\S)", text) if m.end() < len(text.rstrip()) - 1]
    return starts[-1] if starts else 0


def baseline_spans(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _BASELINE.finditer(text)]


def credited_spans(text: str, words: Iterable[str]) -> list[tuple[int, int]]:
    """Spans of ``text`` the parse credited: every occurrence of each recorded word string."""
    low = text.lower()
    out: list[tuple[int, int]] = []
    for w in words:
        w = (w or "").strip().lower()
        if len(w) < 2:
            continue
        start = 0
        while True:
            i = low.find(w, start)
            if i < 0:
                break
            out.append((i, i + len(w)))
            start = i + 1
    return out


def uncovered(text: str, credited: Iterable[tuple[int, int]]) -> list[Cue]:
    """The cues of ``text`` that lie outside every credited span."""
    spans = list(credited)
    return [c for c in cues(text) if not any(a <= c.start and c.end <= b for a, b in spans)]
