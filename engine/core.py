"""The decision core: one handler per question kind, asking the game policy at every
point where games differ. Pure: no I/O, deterministic for a given scenario."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from typing import Any, Protocol, TypeVar

from pydantic import ValidationError

from engine.decision import Decision, Option, RuleRef, Step
from engine.errors import (
    MissingInputError,
    ScenarioValidationError,
    UndecidableError,
    UnknownReferenceError,
)
from engine.policies import Policy, get_policy
from engine.scenario import (
    AddTarget,
    Affected,
    CanChangeChoices,
    CanPlay,
    ChoiceTiming,
    Effect,
    EffectPerformed,
    IsMandatory,
    IsTarget,
    LegalSplit,
    LegalSubset,
    LegalTargets,
    ListOptions,
    PortionReassigned,
    Scenario,
    TargetsToDrop,
    ValidTarget,
)
from engine.world import Entity, World, build_world, pool_failures, superlative_choice

MAX_OPTIONS = 200
"""Enumerations with more legal options than this are not listed."""

REMOVING = frozenset({"kill", "banish", "recycle", "discard", "return"})


def load_scenario(data: str | bytes | dict[str, Any]) -> Scenario:
    """Validate JSON text or a dict into a :class:`Scenario`.

    Raises :class:`ScenarioValidationError` naming the first bad field."""
    try:
        if isinstance(data, dict):
            return Scenario.model_validate(data)
        return Scenario.model_validate_json(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"]) or "(root)"
        raise ScenarioValidationError(f"{err['msg']} ({exc.error_count()} error(s))", loc) from None


def scenario_json_schema() -> dict[str, Any]:
    """The JSON Schema of :class:`Scenario`."""
    return Scenario.model_json_schema()


def decide(scenario: Scenario, policy: Policy | None = None) -> Decision:
    """Decide the scenario's question. ``policy`` defaults to the game's registered one
    (pass e.g. ``RiftboundPolicy(core_doc="riftbound-core-rules-v1.3")`` to cite a fuller
    edition). Raises a :class:`ScenarioError` subclass for malformed scenarios."""
    ctx = _Ctx(scenario, policy or get_policy(scenario.game))
    handler = _HANDLERS[scenario.question.kind]
    return handler(ctx)


def decision_json(decision: Decision) -> str:
    """Stable JSON for a decision."""
    return json.dumps(decision.model_dump(mode="json"), sort_keys=True)


# --------------------------------------------------------------------------- context


class _Ctx:
    def __init__(self, s: Scenario, policy: Policy) -> None:
        self.s = s
        self.ab = s.ability
        self.p = policy
        self.w = build_world(s)
        self.wr = self.w.apply(s.timeline.events)
        self.trace: list[Step] = []
        self.used: list[str] = []
        self._check_refs()

    # ---- references
    def _check_refs(self) -> None:
        ids = {e.id for e in self.ab.effects}
        if len(ids) != len(self.ab.effects):
            raise UnknownReferenceError("duplicate effect id", "ability.effects")
        for i, t in enumerate(self.s.timeline.play.targets):
            self.effect(t.effect, f"timeline.play.targets[{i}].effect")
            for o in t.objects:
                if o not in self.w.entities and o != self.ab.id:
                    raise UnknownReferenceError(f"unknown id {o!r}",
                                                f"timeline.play.targets[{i}].objects")
        for i, ef in enumerate(self.ab.effects):
            ref = ef.selection.refers_to
            if ref is not None and ref not in ids:
                raise UnknownReferenceError(f"unknown effect {ref!r}",
                                            f"ability.effects[{i}].selection.refers_to")
        if self.ab.source is not None and self.ab.source not in self.w.entities:
            raise UnknownReferenceError(f"unknown object {self.ab.source!r}", "ability.source")

    def effect(self, eid: str | None, where: str = "question.effect") -> Effect:
        if eid is None:
            for ef in self.ab.effects:
                if ef.selection.kind == "choose":
                    return ef
            if self.ab.effects:
                return self.ab.effects[0]
            raise MissingInputError("the ability has no effects", "ability.effects")
        for ef in self.ab.effects:
            if ef.id == eid:
                return ef
        raise UnknownReferenceError(f"unknown effect {eid!r}", where)

    def entity(self, eid: str, where: str, w: World | None = None) -> Entity:
        return (w or self.w).get(eid, where)

    # ---- citations and trace
    def concept(self, *names: str) -> str:
        for n in names:
            if self.p.covers(n):
                return n
        return names[0]

    def step(self, concept: str, text: str, result: str) -> None:
        cites = self.p.cite(concept)
        ref = cites[0] if cites else RuleRef(doc="engine", rule=concept)
        self.trace.append(Step(doc=ref.doc, rule=ref.rule, step=text, result=result))
        if cites and concept not in self.used:
            self.used.append(concept)

    def decision(self, verdict: bool, reason: str, decisive: list[str],
                 value: int | None = None, options: list[Option] | None = None) -> Decision:
        rules: list[RuleRef] = []
        for c in [*decisive, *self.used]:
            for r in self.p.cite(c):
                if r not in rules:
                    rules.append(r)
        if not rules:
            raise UndecidableError(f"the loaded {self.p.game} rules do not cover this",
                                   "question")
        return Decision(verdict="yes" if verdict else "no", value=value, rules=rules,
                        reason=reason, trace=self.trace, options=options)

    def undecidable(self, what: str) -> UndecidableError:
        return UndecidableError(f"the loaded {self.p.game} rules do not decide {what}",
                                "question")

    # ---- targeting
    def targeting(self, ef: Effect) -> tuple[bool | None, str]:
        """Is the effect's selection targeting, and the concept behind the answer."""
        sel = ef.selection
        if sel.kind == "choose":
            if sel.chooser != "controller":
                return False, "other_player"  # 355.10.e
            if sel.pool.zone is not None and not self.w.zone_is_public(sel.pool.zone, self.p):
                return False, "hidden_zone"  # 355.10.a
            return True, self.concept("targets_without_choose", "slots", "choose",
                                      "definition")
        if sel.kind == "reference" and sel.ref_role == "same" and sel.refers_to is not None:
            inner, _ = self.targeting(self.effect(sel.refers_to))
            return inner, self.concept("that_target", "derived_reference")
        return self.p.selection_targets.get(sel.kind, (None, sel.kind))

    def slot_effects(self, ef: Effect) -> list[Effect]:
        return [ef]

    def failures(self, e: Entity, ef: Effect, w: World) -> list[tuple[str, str]]:
        """(concept, why) for each reason ``e`` is not a valid target of ``ef``."""
        out: list[tuple[str, str]] = []
        if e.id == self.ab.id:
            return [("self_target", "a spell or ability cannot target itself")]
        pool = ef.selection.pool
        if self.p.type_must_be_identified and pool.types:
            from engine.world import type_matches

            if not type_matches(e, pool.types, self.p):
                return [("type_identified",
                         f"the text identifies only {', '.join(pool.types)} as target type")]
        src = self.ab.source
        src_loc = w.entities[src].location if src is not None and src in w.entities else None
        for why in pool_failures(e, pool, self.ab, w, self.p, src_loc):
            out.append((self.concept("restrictions", "valid_choices_required"), why))
        if not out:
            out.extend(self.p.target_failures(e, ef, self.ab, w, self.step))
        return out

    def candidates(self, ef: Effect, w: World) -> list[str]:
        return sorted(e.id for e in w.entities.values() if not self.failures(e, ef, w))

    def chosen(self, ef: Effect) -> list[str] | None:
        for t in self.s.timeline.play.targets:
            if t.effect == ef.id:
                return list(t.objects)
        return None

    def originals(self, ef: Effect) -> list[str]:
        """The targets chosen for ``ef`` as the ability was played."""
        got = self.chosen(ef)
        if got is not None:
            return got
        sel = ef.selection
        if sel.kind == "reference" and sel.refers_to is not None:
            return self.originals(self.effect(sel.refers_to))
        if sel.kind == "choose":
            raise MissingInputError(f"no targets chosen for effect {ef.id!r}",
                                    "timeline.play.targets")
        return self.candidates(ef, self.w)

    def legal_at_resolution(self, ef: Effect, oid: str) -> tuple[bool, str]:
        e = self.entity(oid, "timeline.play.targets", self.wr)
        f = self.failures(e, ef, self.wr)
        return (not f, f[0][1] if f else "")

    def amount(self, ef: Effect, w: World) -> int:
        af = ef.amount_from
        if af is not None:
            if af.object is not None:
                return self.entity(af.object, "amount_from.object", w).stat(af.stat)
            if af.effect is not None:
                src = self.originals(self.effect(af.effect, "amount_from.effect"))
                if not src:
                    raise MissingInputError("the amount's source was not chosen",
                                            "timeline.play.targets")
                return self.entity(src[0], "amount_from", w).stat(af.stat)
        if ef.amount is None:
            raise MissingInputError(f"effect {ef.id!r} has no amount", "ability.effects.amount")
        return ef.amount


# ------------------------------------------------------------------------- handlers


def _is_target(c: _Ctx) -> Decision:
    q = c.s.question
    assert isinstance(q, IsTarget)
    if q.part == "ability" or q.object == c.ab.id:
        c.step("self_target", "is it the ability itself?", "yes")
        return c.decision(False, "A spell or ability cannot target itself.", ["self_target"])
    if q.part == "source" or (q.object is not None and q.object == c.ab.source):
        ef_src = [ef for ef in c.ab.effects if c.targeting(ef)[0]]
        if q.object is not None and ef_src:
            e = c.entity(q.object, "question.object")
            ok = any(not c.failures(e, ef, c.w) for ef in ef_src)
        else:
            ok = True
        c.step("source_target", "the source and the ability are separate objects",
               "can be targeted" if ok else "outside the target pool")
        return c.decision(ok, "An ability can target its own source: they are separate objects."
                          if ok else "Its text does not select its source.", ["source_target"])
    ef = c.effect(q.effect)
    if q.part == "location":
        lf = ef.selection.pool.location
        if lf is None:
            raise MissingInputError("the effect has no location", "ability.effects.selection")
        if ef.selection.kind == "all" and lf.scope == "one":
            c.step("location_chosen", f"'all ... at a {lf.kind}': the {lf.kind} is chosen",
                   "targeted")
            return c.decision(True, f"It chooses and targets the {lf.kind}, not the objects "
                              "there.", ["location_chosen"])
        if ef.selection.kind == "all":
            c.step("automatic_set", "an automatic set at any location", "not targeted")
            return c.decision(False, f"No particular {lf.kind} is chosen: the set is "
                              "selected automatically.", ["automatic_set"])
        c.step("location_restriction", f"'at a {lf.kind}' restricts where the target is",
               "not targeted")
        return c.decision(False, f"The {lf.kind} is only a location restriction; the "
                          "object there is the target.", ["location_restriction"])
    targeted, concept = c.targeting(ef)
    if targeted is None:
        raise c.undecidable(f"whether a {ef.selection.kind} selection targets")
    c.step(concept, f"effect {ef.id}: selection '{ef.selection.kind}'",
           "targets" if targeted else "does not target")
    decisive = [concept]
    if targeted and ef.optional and c.p.covers("may_targeted"):
        c.step("may_targeted", "'may' does not change targeting", "targeted")
        decisive.insert(0, "may_targeted")
    if targeted and q.object is not None:
        e = c.entity(q.object, "question.object")
        got = c.chosen(ef)
        if got is not None and q.object not in got:
            c.step("no_change", "was it chosen as the ability was played?", "no")
            return c.decision(False, f"{q.object} was not chosen as a target.", ["no_change"])
        fails = c.failures(e, ef, c.w)
        if fails:
            c.step(fails[0][0], f"is {q.object} a legal choice?", fails[0][1])
            return c.decision(False, f"{q.object} is not a legal target: {fails[0][1]}.",
                              [fails[0][0], *decisive])
        if len(c.candidates(ef, c.w)) == 1 and c.p.covers("single_option"):
            c.step("single_option", "it is the only legal option", "still a target")
            decisive.insert(0, "single_option")
            return c.decision(True, "A single legal option is still a target.", decisive)
    if targeted and ef.selection.kind == "choose" and any(
            t == "legend" for t in ef.selection.pool.types) and c.p.covers("friendly_legend"):
        decisive.insert(0, "friendly_legend")
    reason = {
        True: "It targets: the ability specifies what it affects and its controller "
              "chooses.",
        False: c.p.not_target_reasons.get(concept)
        or _NOT_TARGET_REASON.get(concept, "It does not target."),
    }[targeted]
    return c.decision(targeted, reason, decisive)


_NOT_TARGET_REASON = {
    "automatic_set": "The set is selected automatically; nothing is chosen or targeted.",
    "fixed_object": "No choice is ever possible for it, so it is not targeted.",
    "derived_reference": "It is determined from an earlier target, not separately chosen.",
    "pick": "A 'pick' choice does not target.",
    "cost_trigger_replacement": "Objects mentioned only in costs, trigger conditions or "
                                "replacement effects are not targeted.",
    "hidden_zone": "Choices in non-public zones, such as a hand, are not targeted.",
    "other_player": "Choices assigned in whole or part to other players are not targeted.",
    "must": "Choices in an instruction a player must complete are not targeted.",
    "future": "A future reference needs no target.",
    "search": "A search needs only a searchable area, not a target.",
    "cost_ignored": "Costs are not considered for targeting.",
}


def _valid_target(c: _Ctx) -> Decision:
    q = c.s.question
    assert isinstance(q, ValidTarget)
    ef = c.effect(q.effect)
    w = c.w if q.when == "play" else c.wr
    if q.object == c.ab.id:
        c.step("self_target", "is it the ability itself?", "yes")
        return c.decision(False, "A spell or ability cannot target itself.", ["self_target"])
    e = c.entity(q.object, "question.object", w)
    sel = ef.selection
    if sel.kind == "reference" and sel.ref_role == "same" and sel.refers_to is not None \
            and c.p.covers("that_target"):
        # target.3.10: "that [target]" can only be resolved for a valid target of the
        # previous effect.
        prev = c.effect(sel.refers_to)
        pf = c.failures(e, prev, w)
        c.step("that_target", f"is {q.object} a valid target of {prev.id}?",
               pf[0][1] if pf else "yes")
        if pf:
            return c.decision(False, f"'That' refers to the earlier effect's target, and "
                              f"{q.object} is not a valid target for it: {pf[0][1]}.",
                              ["that_target", pf[0][0]])
    fails = c.failures(e, ef, w)
    if fails:
        for con, why in fails:
            c.step(con, f"check {q.object} against effect {ef.id}", why)
        return c.decision(False, f"{q.object} is not a valid target: {fails[0][1]}.",
                          [fails[0][0]])
    decisive = []
    if q.object == c.ab.source:
        c.step("source_target", "the source is a separate object", "may be targeted")
        decisive.append("source_target")
    base = c.concept("any_part", "restrictions", "valid_choices_required")
    if c.p.type_must_be_identified and ef.selection.pool.types:
        # 11.4.1: the text identifies this target type.
        decisive.append("type_identified")
    c.step(base, f"check {q.object} against effect {ef.id}", "valid")
    used = [u for u in c.used if u not in decisive]
    return c.decision(True, f"{q.object} is a valid target.", [*decisive, *used, base])


def _check_choice_set(c: _Ctx, ef: Effect, objs: list[str], w: World,
                      at_play: bool = True) -> tuple[bool, str, list[str]]:
    """Whether ``objs`` is a legal play-time target set for ``ef``: (ok, why, concepts)."""
    sel = ef.selection
    for o in objs:
        if o == c.ab.id:
            return False, "a spell or ability cannot target itself", ["self_target"]
        e = c.entity(o, "timeline.play.targets", w)
        f = c.failures(e, ef, w)
        if f:
            return False, f"{o}: {f[0][1]}", [f[0][0], c.concept("valid_choices_required")]
    if len(set(objs)) != len(objs) and not sel.duplicates:
        return False, "the same object fills two target slots", [
            c.concept("distinct_slots", "valid_choices_required")]
    n = len(objs)
    cnt = sel.count
    if sel.divides_amount:
        amt = c.amount(ef, w)
        if n > amt:
            return False, f"{n} targets but only {amt} to split (each needs at least 1)", [
                "split_max_targets"]
    if cnt.mode == "exactly" and cnt.n is not None and not sel.divides_amount:
        if c.p.min_targets == "at_least_one" and n >= 1:
            pass
        elif n != cnt.n:
            return False, f"exactly {cnt.n} targets are required, {n} chosen", [
                c.concept("exact_count", "valid_choices_required")]
    if cnt.mode == "up_to" and cnt.n is not None and n > cnt.n:
        return False, f"at most {cnt.n} targets", [c.concept("up_to_max", "any_number")]
    if cnt.minimum is not None and n < cnt.minimum:
        return False, f"at least {cnt.minimum} targets", [c.concept("exact_count", "any_number")]
    g = sel.group
    if g is not None:
        ok, why = _group_ok(c, g, objs, w)
        if not ok:
            return False, why, ["group"]
    return True, "", []


def _group_ok(c: _Ctx, g: Any, objs: list[str], w: World) -> tuple[bool, str]:
    ents = [w.entities[o] for o in objs]
    if g.stat is not None:
        total = sum(e.stat(g.stat) for e in ents)
        if g.max_total is not None and total > g.max_total:
            return False, f"total {g.stat} {total} exceeds {g.max_total}"
        if g.min_total is not None and total < g.min_total:
            return False, f"total {g.stat} {total} is below {g.min_total}"
    if g.same_location and len({e.location for e in ents}) > 1:
        return False, "they are not all at the same location"
    return True, ""


def _can_play(c: _Ctx) -> Decision:
    q = c.s.question
    assert isinstance(q, CanPlay)
    if q.stage == "trigger":
        if c.p.too_few != "ceases_to_exist" or not c.p.covers("too_few"):
            raise c.undecidable("whether an ability triggers")
        # 11.4.3: with too few targets it "triggers but is not placed into the Trigger
        # Queue and then ceases to exist": triggering does not depend on its targets.
        c.step("too_few", "does the ability trigger?", "yes, whatever targets are available")
        return c.decision(True, "It triggers; whether it is then placed into the queue depends "
                          "on its targets.", ["too_few"])
    play = c.s.timeline.play
    decisive: list[str] = []
    all_chosen: list[str] = []
    for ef in c.ab.effects:
        sel = ef.selection
        targeted, concept = c.targeting(ef)
        if sel.kind in ("future", "search") and c.p.covers(sel.kind):
            c.step(sel.kind, f"effect {ef.id}: {sel.kind}", "needs no target")
            decisive.append(sel.kind)
            continue
        if not targeted:
            continue
        chosen = c.chosen(ef)
        if chosen is not None:
            ok, why, cons = _check_choice_set(c, ef, chosen, c.w)
            c.step(cons[0] if cons else concept, f"effect {ef.id}: choices {chosen}",
                   "legal" if ok else why)
            if not ok:
                return c.decision(False, f"It can't be played with these choices: {why}.", cons)
            if not chosen:
                decisive.append(c.concept("any_number", "up_to_zero"))
            all_chosen.extend(chosen)
            continue
        cands = c.candidates(ef, c.w)
        cnt = sel.count
        if cnt.mode == "exactly" and not sel.divides_amount:
            need = 1 if c.p.min_targets == "at_least_one" else (cnt.n or 0)
        elif c.p.min_targets == "at_least_one" and sel.kind == "all":
            need = 1
        else:
            need = cnt.minimum or 0
            if sel.divides_amount:
                need = max(need, 1) if cnt.mode == "exactly" else need
        if sel.kind == "all":
            count_concept = c.concept("each")
        elif c.ab.kind == "basic_power" and c.p.covers("basic_power"):
            count_concept = "basic_power"
        elif need == 0:
            count_concept = c.concept("any_number", "up_to_zero")
        else:
            count_concept = c.concept("too_few", "requires_valid", "valid_choices_required")
        c.step(count_concept, f"effect {ef.id}: {len(cands)} legal option(s), {need} needed",
               "enough" if len(cands) >= need else "too few")
        if len(cands) < need:
            if c.p.too_few == "ceases_to_exist":
                reason = (f"Only {len(cands)} legal target(s) for {need} required: it triggers "
                          "but is not placed into the queue and ceases to exist.")
            else:
                reason = f"It needs {need} legal target(s) and has {len(cands)}."
            if c.p.validity == "any_part_can_affect" and cands == []:
                reason = "No game element is a valid target it could affect."
            return c.decision(False, reason, [count_concept, *_why_none(c, ef)])
        decisive.append(count_concept)
    if len(set(all_chosen)) != len(all_chosen):
        if c.p.distinct_slots:
            c.step("distinct_slots", "one object fills several target slots", "illegal")
            return c.decision(False, "The same object can't fill more than one target slot.",
                              ["distinct_slots"])
        if c.p.covers("distinct_slots"):
            c.step("distinct_slots", "one object chosen once for each separate target slot",
                   "allowed")
            decisive.insert(0, "distinct_slots")
    bad = _deterministic_illegal(c)
    if bad is not None:
        return bad
    for ef in c.ab.effects:
        for i, con in enumerate(ef.constraints):
            if con.permissive or con.location is None or not c.p.covers("mandatory_requirement"):
                continue
            loc = play.play_location if con.choice == "play_location" else \
                play.move_destinations.get(ef.id)
            if loc is None:
                continue
            ent = c.entity(loc, "timeline.play.play_location")
            lf = con.location
            ok = (lf.kind is None or ent.type == lf.kind) and (
                lf.controlled_by != "you" or ent.controller == c.ab.controller)
            c.step("mandatory_requirement", f"constraint {i} of {ef.id} on {loc}",
                   "followed" if ok else "broken")
            if not ok:
                return c.decision(False, f"The mandatory requirement '{con.text}' must be "
                                  "followed.", ["mandatory_requirement"])
    if not decisive:
        decisive.append(c.concept("valid_choices_required"))
    return c.decision(True, "It can be played with legal choices for every target.", decisive)


def _why_none(c: _Ctx, ef: Effect) -> list[str]:
    """Concepts explaining why elements of the right type are not valid targets."""
    from engine.world import type_matches

    out: list[str] = []
    base = c.concept("restrictions", "valid_choices_required")
    for e in sorted(c.w.entities.values(), key=lambda x: x.id):
        if not type_matches(e, ef.selection.pool.types, c.p):
            continue
        for con, why in c.failures(e, ef, c.w):
            if con != base and con not in out:
                c.step(con, f"can it affect {e.id}?", why)
                out.append(con)
    return out


def _deterministic_illegal(c: _Ctx) -> Decision | None:
    """355.16: no choice that deterministically forces an illegal action later."""
    if not c.p.deterministic_illegal_forbidden:
        return None
    play = c.s.timeline.play
    if play.deterministically_illegal:
        alt = play.had_alternative is not False
        c.step("deterministic_illegal", "the choice forces an illegal action later",
               "forbidden" if alt else "allowed: no other choice")
        return c.decision(not alt, "You can't make a choice that deterministically forces an "
                          "illegal action later unless you have no other choice." if alt else
                          "Allowed: you had no other choice.", ["deterministic_illegal"])
    for cost in c.ab.effects:
        if cost.selection.kind != "cost" or cost.action not in REMOVING:
            continue
        doomed = superlative_choice(cost, c.ab, c.w, c.p)
        if len(doomed) != 1:
            continue
        for ef in c.ab.effects:
            chosen = c.chosen(ef) or []
            if ef is cost or doomed[0] not in chosen:
                continue
            others = [o for o in c.candidates(ef, c.w) if o != doomed[0]]
            c.step("deterministic_illegal", f"the cost removes {doomed[0]}, chosen for {ef.id}",
                   "forbidden" if others else "allowed: no other choice")
            if others:
                return c.decision(False, f"{doomed[0]} will be removed by the cost, so "
                                  "targeting it deterministically fails; choose another.",
                                  ["deterministic_illegal"])
            return c.decision(True, "Allowed: there is no other choice.",
                              ["deterministic_illegal"])
    return None


def _resolution_targets(c: _Ctx, ef: Effect) -> tuple[list[str], list[str]]:
    """(legal, illegal) original targets of ``ef`` at resolution, with trace steps."""
    legal: list[str] = []
    illegal: list[str] = []
    for o in c.originals(ef):
        ok, why = c.legal_at_resolution(ef, o)
        (legal if ok else illegal).append(o)
        if not ok:
            c.step(c.concept("illegal_unaffected", "each_invalid_unaffected"),
                   f"recheck {o} at resolution", f"illegal: {why}")
    return legal, illegal


def _targeted_effects(c: _Ctx) -> list[Effect]:
    return [ef for ef in c.ab.effects
            if c.targeting(ef)[0] and ef.selection.kind not in ("reference",)]


def _affected(c: _Ctx) -> Decision:
    q = c.s.question
    assert isinstance(q, Affected)
    c.entity(q.object, "question.object")
    efs = [c.effect(q.effect)] if q.effect else _targeted_effects(c)
    for ef in efs:
        origs = c.originals(ef)
        if q.object not in origs:
            continue
        _legal, illegal = _resolution_targets(c, ef)
        if q.object in illegal:
            con = c.concept("each_invalid_unaffected" if ef.selection.kind == "all"
                            else "illegal_unaffected")
            return c.decision(False, f"{q.object} is an illegal target at resolution and is "
                              "unaffected.", [con])
        for d in c.s.timeline.resolution.dropped:
            if d.effect == ef.id and q.object in d.objects:
                c.step("split_drop", f"{q.object} ceased to be a target", "dropped")
                return c.decision(False, f"{q.object} ceased to be a target.", ["split_drop"])
        for sub in c.s.timeline.resolution.subset:
            if sub.effect == ef.id and q.object not in sub.objects:
                c.step("group_subset", f"{q.object} is outside the chosen subset", "unaffected")
                return c.decision(False, f"{q.object} is outside the chosen subset.",
                                  ["group_subset"])
        con = c.concept("partial_resolution", "illegal_unaffected", "each")
        c.step(con, f"{q.object} is still legal", "affected")
        return c.decision(True, f"{q.object} is still a legal target and is affected"
                          + (f" although {len(illegal)} other target(s) are illegal."
                             if illegal else "."), [con])
    con = c.concept("split_no_new_target", "group_no_new_target", "illegal_unaffected")
    c.step(con, f"was {q.object} an original target?", "no")
    return c.decision(False, f"{q.object} was not chosen as a target; no new targets are "
                      "added at resolution.", [con, c.concept("no_change")])


def _effect_performed(c: _Ctx) -> Decision:
    q = c.s.question
    assert isinstance(q, EffectPerformed)
    ef = c.effect(q.effect)
    targeted = _targeted_effects(c)
    per: dict[str, list[str]] = {}
    for t in targeted:
        per[t.id] = _resolution_targets(c, t)[0]
    if ef in targeted:
        ok = bool(per[ef.id])
        con = c.concept("partial_resolution", "illegal_unaffected")
        c.step(con, f"effect {ef.id} has legal targets", "yes" if ok else "none")
        return c.decision(ok, "It affects its remaining legal targets." if ok else
                          "All its targets are illegal; it does nothing.", [con])
    if targeted and not any(per.values()):
        if c.p.all_illegal is None:
            raise c.undecidable("what an all-illegal resolution does to untargeted parts")
        performed = c.p.all_illegal == "untargeted_parts_still"
        c.step("all_illegal", "every target is illegal at resolution",
               "untargeted parts performed" if performed else "whole ability has no effect")
        return c.decision(performed, "Every target is illegal, so the entire ability resolves "
                          "with no effect, untargeted parts included." if not performed else
                          "Its untargeted part is still performed.", ["all_illegal"])
    con = c.concept("partial_resolution", "illegal_unaffected")
    c.step(con, "at least one target is still legal (or none needed)", "performed")
    return c.decision(True, "At least one target is legal, so the rest of the instruction is "
                      "performed as far as possible.", [con])


def _split_effect(c: _Ctx, eid: str | None) -> Effect:
    if eid is not None:
        return c.effect(eid)
    for ef in c.ab.effects:
        if ef.selection.divides_amount or ef.selection.group is not None:
            return ef
    return c.effect(None)


def _targets_to_drop(c: _Ctx) -> Decision:
    q = c.s.question
    assert isinstance(q, TargetsToDrop)
    ef = _split_effect(c, q.effect)
    if not c.p.split_reduction or not ef.selection.divides_amount:
        raise c.undecidable("dropping split targets")
    legal, _ = _resolution_targets(c, ef)
    amt = c.amount(ef, c.wr)
    drop = max(0, len(legal) - amt)
    c.step("split_drop", f"{amt} to split among {len(legal)} legal target(s)",
           f"drop {drop}")
    keep = len(legal) - drop
    return c.decision(True, f"With {amt} to split and {len(legal)} targets, exactly {drop} "
                      f"must cease to be targets so each of the {keep} remaining gets at least 1.",
                      ["split_drop"], value=keep if q.count == "keep" else drop)


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    if parts == 0:
        if total == 0:
            yield ()
        return
    for first in range(1, total - parts + 2):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


def _split_options(c: _Ctx, ef: Effect, legal: list[str], amt: int) -> list[Option] | None:
    keep = min(amt, len(legal))
    out: list[Option] = []
    for group in combinations(sorted(legal), keep):
        for comp in _compositions(amt, keep):
            out.append(Option(objects=list(group), amounts=dict(zip(group, comp))))
            if len(out) > MAX_OPTIONS:
                return None
    return out


class _PerEffect(Protocol):
    @property
    def effect(self) -> str: ...


_E = TypeVar("_E", bound=_PerEffect)
_V = TypeVar("_V")


def _last_for(effect: str, entries: Sequence[_E], value: Callable[[_E], _V]) -> _V | None:
    """The last resolution-time choice recorded for ``effect`` (split or subset), if any."""
    found: _V | None = None
    for entry in entries:
        if entry.effect == effect:
            found = value(entry)
    return found


def _legal_split(c: _Ctx) -> Decision:
    q = c.s.question
    assert isinstance(q, LegalSplit)
    ef = _split_effect(c, q.effect)
    amounts = q.amounts
    if amounts is None:
        amounts = _last_for(ef.id, c.s.timeline.resolution.split, lambda a: dict(a.amounts))
    if amounts is None:
        raise MissingInputError("no split given", "question.amounts")
    origs = c.originals(ef)
    legal, _ = _resolution_targets(c, ef)
    if not c.p.split_reduction:
        announced = next((a.amounts for a in c.s.timeline.play.distributions
                          if a.effect == ef.id), None)
        if announced is None or not c.p.covers("distribution_legal"):
            raise c.undecidable("a split at resolution")
        expect = {o: v for o, v in announced.items() if o in legal}
        ok = {o: v for o, v in amounts.items() if v} == expect
        c.step("distribution_legal", "compare with the distribution announced at queue entry",
               "same" if ok else "changed")
        return c.decision(ok, "The announced distribution stands for the legal targets."
                          if ok else "The distribution was fixed when the ability entered the "
                          "queue and is not reassigned.", ["distribution_legal"])
    amt = c.amount(ef, c.wr)
    opts = _split_options(c, ef, legal, amt)
    new = [o for o in amounts if o not in origs]
    if new:
        c.step("split_no_new_target", f"{new} were not chosen as targets", "illegal")
        return c.decision(False, "You can't add a new target at resolution.",
                          ["split_no_new_target"], options=opts)
    gone = [o for o in amounts if o not in legal]
    if gone:
        c.step("illegal_unaffected", f"{gone} are no longer legal targets", "illegal")
        return c.decision(False, "Damage can only go to targets that are still legal.",
                          ["illegal_unaffected"], options=opts)
    if any(v < 1 for v in amounts.values()):
        c.step("split_min_one", "every target must receive at least 1", "violated")
        return c.decision(False, "Each remaining target must receive at least 1.",
                          ["split_min_one"], options=opts)
    if sum(amounts.values()) != amt:
        c.step("split_amounts_at_resolution", f"split totals {sum(amounts.values())}",
               f"must total {amt}")
        return c.decision(False, f"The split must total the {amt} available.",
                          ["split_amounts_at_resolution"], options=opts)
    keep = min(amt, len(legal))
    if len(amounts) != keep:
        c.step("split_drop", f"{len(amounts)} targets kept, {keep} required", "illegal")
        return c.decision(False, f"Only the necessary targets may be dropped: keep {keep}.",
                          ["split_drop"], options=opts)
    c.step("split_amounts_at_resolution", f"split {amounts} of {amt}", "legal")
    return c.decision(True, "A legal split: every remaining target gets at least 1.",
                      ["split_amounts_at_resolution", "split_drop"], options=opts)


def _subset_options(c: _Ctx, ef: Effect, legal: list[str], amt: int | None) -> list[Option]:
    g = ef.selection.group
    out: list[Option] = []
    if ef.selection.divides_amount and amt is not None:
        keep = min(amt, len(legal))
        return [Option(objects=list(s)) for s in combinations(sorted(legal), keep)][:MAX_OPTIONS]
    if g is not None:
        if _group_ok(c, g, legal, c.wr)[0]:
            return [Option(objects=sorted(legal))]
        for k in range(len(legal), 0, -1):
            for s in combinations(sorted(legal), k):
                if _group_ok(c, g, list(s), c.wr)[0]:
                    out.append(Option(objects=list(s)))
        return out[:MAX_OPTIONS]
    return [Option(objects=sorted(legal))]


def _legal_subset(c: _Ctx) -> Decision:
    q = c.s.question
    assert isinstance(q, LegalSubset)
    ef = _split_effect(c, q.effect)
    objs = q.objects
    if objs is None:
        objs = _last_for(ef.id, c.s.timeline.resolution.subset, lambda s: list(s.objects))
    if objs is None:
        raise MissingInputError("no subset given", "question.objects")
    for o in objs:
        c.entity(o, "question.objects")
    origs = c.originals(ef)
    legal, _ = _resolution_targets(c, ef)
    split = ef.selection.divides_amount and c.p.split_reduction
    group = ef.selection.group is not None and c.p.group_subset
    amt = c.amount(ef, c.wr) if split else None
    opts = _subset_options(c, ef, legal, amt)
    if not (split or group):
        ok = sorted(objs) == sorted(legal)
        con = c.concept("illegal_unaffected", "partial_resolution")
        c.step(con, "the affected set is every still-legal original target", str(ok))
        return c.decision(ok, "Exactly the still-legal original targets are affected.", [con],
                          options=opts)
    new = [o for o in objs if o not in origs]
    nt = "split_no_new_target" if split else "group_no_new_target"
    if new:
        c.step(nt, f"{new} were not original targets", "illegal")
        return c.decision(False, "Only original targets can be kept; no new target is "
                          "recruited at resolution.", [nt], options=opts)
    gone = [o for o in objs if o not in legal]
    if gone:
        c.step("illegal_unaffected", f"{gone} are illegal at resolution", "illegal")
        return c.decision(False, "A target that is illegal at resolution can't be affected.",
                          ["illegal_unaffected"], options=opts)
    if split:
        assert amt is not None
        keep = min(amt, len(legal))
        ok = len(objs) == keep
        c.step("split_drop", f"{amt} to split: keep {keep} of {len(legal)}",
               "legal" if ok else f"keeps {len(objs)}")
        return c.decision(ok, f"Keep exactly {keep} target(s): drop only the necessary ones."
                          if ok else f"With {amt} to split you must keep exactly {keep} "
                          "target(s), each getting at least 1.", ["split_drop"],
                          value=len(legal) - keep, options=opts)
    g = ef.selection.group
    assert g is not None
    whole_ok, _ = _group_ok(c, g, legal, c.wr)
    if whole_ok:
        ok = sorted(objs) == sorted(legal)
        c.step("group", "the original group still meets the requirement",
               "all remain targets" if ok else "no subset is chosen")
        return c.decision(ok, "The group still meets its requirement, so all its legal "
                          "targets are affected.", ["group"], options=opts)
    ok, why = _group_ok(c, g, objs, c.wr)
    c.step("group_subset", f"subset {objs}", "meets the requirement" if ok else why)
    decisive = ["group_subset"]
    moved = [o for o in objs if c.wr.entities[o].location != c.w.entities[o].location]
    if moved and ok:
        c.step("group_moved", f"{moved} moved but stay original targets",
               "eligible together")
        decisive.insert(0, "group_moved")
    return c.decision(ok and bool(objs), "A legal subset of the original targets." if ok and objs
                      else f"Not a legal subset: {why or 'empty'}.", decisive, options=opts)


def _legal_targets(c: _Ctx) -> Decision:
    q = c.s.question
    assert isinstance(q, LegalTargets)
    ef = c.effect(q.effect)
    objs = q.objects if q.objects is not None else c.chosen(ef)
    if objs is None:
        raise MissingInputError("no targets given", "question.objects")
    opts = _target_options(c, ef)
    ok, why, cons = _check_choice_set(c, ef, objs, c.w)
    if ok:
        cons = _why_legal(c, ef, objs)
    con = cons[0] if cons else c.concept("group" if ef.selection.group else
                                         "valid_choices_required")
    c.step(con, f"targets {objs} for effect {ef.id}", "legal" if ok else why)
    return c.decision(ok, "A legal set of targets." if ok else f"Not legal: {why}.",
                      cons or [con], options=opts)


def _why_legal(c: _Ctx, ef: Effect, objs: list[str]) -> list[str]:
    """The rules that make a legal target set legal, most specific first."""
    sel = ef.selection
    out: list[str] = []
    if len(set(objs)) != len(objs) and sel.duplicates and c.p.covers("distinct_slots"):
        out.append("distinct_slots")  # 11.4.4: duplicates expressly permitted
    if sel.divides_amount and c.p.covers("split_max_targets"):
        out.append("split_max_targets")
    if sel.group is not None and c.p.covers("group"):
        out.append("group")
    if sel.count.mode in ("up_to", "any_number"):
        out.append(c.concept("up_to_max", "any_number") if objs else
                   c.concept("up_to_zero", "any_number"))
    elif sel.count.mode == "exactly" and not sel.divides_amount and c.p.covers("exact_count"):
        out.append("exact_count")
    return [o for o in out if c.p.covers(o)]


def _target_options(c: _Ctx, ef: Effect) -> list[Option] | None:
    cands = c.candidates(ef, c.w)
    if len(cands) > 12:
        return None
    sel = ef.selection
    if sel.count.mode == "exactly" and not sel.divides_amount and sel.count.n is not None \
            and c.p.min_targets == "count":
        sizes = [sel.count.n]
    else:
        hi = len(cands) if sel.count.mode == "any_number" or sel.count.n is None \
            else min(sel.count.n, len(cands))
        sizes = list(range(hi + 1))
    out: list[Option] = []
    for k in sizes:
        for s in combinations(cands, k):
            if _check_choice_set(c, ef, list(s), c.w)[0]:
                out.append(Option(objects=list(s)))
                if len(out) > MAX_OPTIONS:
                    return None
    return out


def _list_options(c: _Ctx) -> Decision:
    q = c.s.question
    assert isinstance(q, ListOptions)
    if q.of == "targets":
        ef = c.effect(q.effect)
        opts = _target_options(c, ef)
        con = c.concept("group" if ef.selection.group else "valid_choices_required")
    else:
        ef = _split_effect(c, q.effect)
        legal, _ = _resolution_targets(c, ef)
        if q.of == "split":
            if not c.p.split_reduction:
                raise c.undecidable("splits at resolution")
            opts = _split_options(c, ef, legal, c.amount(ef, c.wr))
            con = "split_amounts_at_resolution"
        else:
            amt = c.amount(ef, c.wr) if ef.selection.divides_amount else None
            opts = _subset_options(c, ef, legal, amt)
            con = "group_subset" if ef.selection.group else "split_drop"
    n = len(opts) if opts is not None else None
    c.step(con, f"enumerate legal {q.of}", f"{n if n is not None else 'too many'} option(s)")
    return c.decision(n is None or n > 0, f"{n} legal option(s)." if n is not None else
                      "Too many legal options to list.", [con], value=n, options=opts)


def _add_target(c: _Ctx) -> Decision:
    q = c.s.question
    assert isinstance(q, AddTarget)
    ef = _split_effect(c, q.effect)
    con = c.concept("split_no_new_target" if ef.selection.divides_amount else
                    "group_no_new_target" if ef.selection.group else "no_change")
    if q.object is not None:
        c.entity(q.object, "question.object")
        if c.chosen(ef) is not None and q.object in c.originals(ef):
            c.step(c.concept("group_moved", con), f"{q.object} is an original target",
                   "already a target")
            return c.decision(True, f"{q.object} was chosen originally, so it can still be "
                              "affected if it remains eligible.", [c.concept("group_moved",
                                                                              con)])
    c.step(con, "add a target at resolution", "not allowed")
    return c.decision(False, "No new target can be added at resolution; only the original "
                      "targets can be affected.", [con, c.concept("no_change")])


def _choice_timing(c: _Ctx) -> Decision:
    q = c.s.question
    assert isinstance(q, ChoiceTiming)
    got = c.p.choice_timing.get(q.choice)
    if got is None:
        raise c.undecidable(f"when the {q.choice} choice is made")
    when, con = got
    if q.text_requires_earlier and when == "resolution":
        over = c.p.timing_overrides.get("earlier")
        if over is None:
            raise c.undecidable(f"a {q.choice} choice the text requires earlier")
        c.step(over, "the text requires the choice earlier", "made as it is played")
        when, con = "play", over
    elif q.text_defers and when == "play":
        over = c.p.timing_overrides.get("defer")
        if over is None:
            raise c.undecidable(f"a {q.choice} choice the text defers")
        c.step(over, "the text explicitly defers the choice", "made at resolution")
        when, con = "resolution", over
    c.step(con, f"when is the {q.choice} choice made?", when)
    label = c.p.timing_labels.get(when) or _TIMING_LABEL[when]
    return c.decision(when == q.when, f"The {q.choice.replace('_', ' ')} choice is made "
                      f"{label}.", [con])


_TIMING_LABEL = {"play": "as it is played (finalization / queue entry)",
                 "resolution": "at resolution"}


def _can_change(c: _Ctx) -> Decision:
    q = c.s.question
    assert isinstance(q, CanChangeChoices)
    if c.p.can_change is None or not c.p.covers("no_change"):
        raise c.undecidable("whether choices can change")
    ok = q.instructed or c.p.can_change
    c.step("no_change", "change choices after they are made?",
           "allowed by an instruction" if ok else "no")
    return c.decision(ok, "Only a spell or ability instructing new choices can change them."
                      if ok else "Choices can't be changed after they are made unless a spell "
                      "or ability says so.", ["no_change"])


def _is_mandatory(c: _Ctx) -> Decision:
    q = c.s.question
    assert isinstance(q, IsMandatory)
    if not c.p.covers("mandatory_requirement"):
        raise c.undecidable("mandatory requirements")
    ef = c.effect(q.effect)
    if not 0 <= q.constraint < len(ef.constraints):
        raise UnknownReferenceError(f"effect {ef.id!r} has no constraint {q.constraint}",
                                    "question.constraint")
    con = ef.constraints[q.constraint]
    c.step("mandatory_requirement", f"'{con.text}'",
           "a permission" if con.permissive else "specifies how the choice is made")
    return c.decision(not con.permissive, "It is only a permission: the player isn't required "
                      "to use it." if con.permissive else "It specifies how the choice is made, "
                      "so it must be followed if possible.", ["mandatory_requirement"])


def _portion_reassigned(c: _Ctx) -> Decision:
    q = c.s.question
    assert isinstance(q, PortionReassigned)
    if c.p.portion_reassigned is None:
        raise c.undecidable("reassigning a portion")
    if q.object is not None:
        c.entity(q.object, "question.object")
    if c.p.portion_reassigned:
        c.step("illegal_unaffected", "allocation happens at resolution among legal targets",
               "to legal targets only")
        return c.decision(True, "The amount is allocated at resolution among the targets "
                          "still legal.", ["illegal_unaffected", "split_amounts_at_resolution"])
    ef = _split_effect(c, q.effect) if c.ab.effects else None
    if ef is not None and ef.selection.redistributes:
        # 11.4.9: "... unless the Ability expressly instructs redistribution".
        c.step("portion_not_reassigned", "the text expressly instructs redistribution",
               "reassigned")
        return c.decision(True, "The ability expressly instructs redistribution, so the "
                          "portion is reassigned.", ["portion_not_reassigned"])
    c.step("portion_not_reassigned", "portion on an illegal target", "not reassigned")
    return c.decision(False, "A portion assigned to a target that became illegal is not "
                      "reassigned to another target.", ["portion_not_reassigned"])


_HANDLERS: dict[str, Callable[[_Ctx], Decision]] = {
    "is_target": _is_target,
    "valid_target": _valid_target,
    "can_play": _can_play,
    "affected": _affected,
    "effect_performed": _effect_performed,
    "targets_to_drop": _targets_to_drop,
    "legal_split": _legal_split,
    "legal_subset": _legal_subset,
    "legal_targets": _legal_targets,
    "list_options": _list_options,
    "add_target": _add_target,
    "choice_timing": _choice_timing,
    "can_change_choices": _can_change,
    "is_mandatory": _is_mandatory,
    "portion_reassigned": _portion_reassigned,
}

_ = (CanPlay,)
