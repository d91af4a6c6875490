"""Hypothesis properties of the engine (see issue 3, Tests)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import decide, load_scenario
from engine.scenario import Restriction

BF = [{"id": "bf1", "kind": "battlefield"}, {"id": "bf2", "kind": "battlefield"}]


def _unit(i: str, ctl: str, might: int, loc: str = "bf1") -> dict[str, Any]:
    return {"id": i, "type": "unit", "controller": ctl, "zone": "battlefield", "location": loc,
            "stats": {"might": might}}


def _alpha(might: int, n: int, new_might: int, question: dict[str, Any]) -> dict[str, Any]:
    enemies = [f"r{i}" for i in range(n)]
    return {
        "game": "riftbound",
        "ability": {"effects": [
            {"id": "e1", "selection": {"kind": "choose",
                                       "pool": {"types": ["unit"], "controller": "you"}}},
            {"id": "e2", "action": "split_damage",
             "amount_from": {"effect": "e1", "stat": "might"},
             "selection": {"kind": "choose", "divides_amount": True,
                           "count": {"mode": "any_number", "n": None},
                           "pool": {"types": ["unit"], "controller": "opponent"}}}]},
        "state": {"locations": BF,
                  "objects": [_unit("f", "you", might)] + [_unit(e, "opp", 1) for e in enemies]},
        "timeline": {"play": {"targets": [{"effect": "e1", "objects": ["f"]},
                                          {"effect": "e2", "objects": enemies}]},
                     "events": [{"kind": "set_stat", "object": "f", "stat": "might",
                                 "value": new_might}]},
        "question": question,
    }


alpha_args = st.integers(1, 6).flatmap(
    lambda m: st.tuples(st.just(m), st.integers(1, m), st.integers(1, 6)))


@settings(max_examples=60, deadline=None)
@given(alpha_args)
def test_same_scenario_same_decision(args: tuple[int, int, int]) -> None:
    m, n, new = args
    data = _alpha(m, n, new, {"kind": "list_options", "of": "split", "effect": "e2"})
    s = load_scenario(data)
    first = decide(s)
    assert decide(s) == first
    assert decide(load_scenario(s.model_dump_json())) == first


@settings(max_examples=60, deadline=None)
@given(alpha_args)
def test_split_never_zero_never_new_target(args: tuple[int, int, int]) -> None:
    m, n, new = args
    originals = {f"r{i}" for i in range(n)}
    d = decide(load_scenario(_alpha(m, n, new, {"kind": "list_options", "of": "split",
                                                "effect": "e2"})))
    assert d.options is not None and d.options
    for opt in d.options:
        assert opt.amounts is not None
        assert all(v >= 1 for v in opt.amounts.values())
        assert set(opt.amounts) <= originals
        assert sum(opt.amounts.values()) == new
        assert len(opt.amounts) == min(new, n)  # only the necessary targets dropped
    drop = decide(load_scenario(_alpha(m, n, new, {"kind": "targets_to_drop"})))
    assert drop.value == max(0, n - new)


@settings(max_examples=60, deadline=None)
@given(alpha_args, st.dictionaries(st.sampled_from(["r0", "r1", "r2", "x"]), st.integers(0, 4),
                                   max_size=4))
def test_accepted_split_is_positive_and_original(args: tuple[int, int, int],
                                                 amounts: dict[str, int]) -> None:
    m, n, new = args
    data = _alpha(m, n, new, {"kind": "legal_split", "effect": "e2", "amounts": amounts})
    data["state"]["objects"].append(_unit("x", "opp", 1))
    d = decide(load_scenario(data))
    if d.verdict == "yes":
        assert all(v >= 1 for v in amounts.values())
        assert set(amounts) <= {f"r{i}" for i in range(n)}


fox_units = st.lists(st.tuples(st.integers(0, 4), st.sampled_from(["bf1", "bf2"])),
                     min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(fox_units, st.integers(0, 6))
def test_subset_is_original_and_meets_group(units: list[tuple[int, str]], limit: int) -> None:
    ids = [f"k{i}" for i in range(len(units))]
    data = {
        "game": "riftbound",
        "ability": {"effects": [{"id": "e1", "action": "kill", "selection": {
            "kind": "choose", "count": {"mode": "any_number", "n": None},
            "pool": {"types": ["unit"], "location": {"kind": "battlefield"}},
            "group": {"stat": "might", "max_total": limit, "same_location": True}}}]},
        "state": {"locations": BF, "objects": [_unit(i, "opp", 0) for i in ids]
                  + [_unit("newcomer", "opp", 0)]},
        "timeline": {"play": {"targets": [{"effect": "e1", "objects": ids}]},
                     "events": [e for i, (m, loc) in zip(ids, units) for e in (
                         {"kind": "set_stat", "object": i, "stat": "might", "value": m},
                         {"kind": "move", "object": i, "location": loc})]},
        "question": {"kind": "list_options", "of": "subset"},
    }
    d = decide(load_scenario(data))
    final = {i: (m, loc) for i, (m, loc) in zip(ids, units)}
    for opt in d.options or []:
        assert set(opt.objects) <= set(ids)
        assert sum(final[o][0] for o in opt.objects) <= limit
        assert len({final[o][1] for o in opt.objects}) <= 1


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.sampled_from(["leave_play", "become_illegal"]))
def test_momon_all_illegal_never_performs_untargeted(n: int, how: str) -> None:
    ids = [f"c{i}" for i in range(n)]
    data = {
        "game": "momon-wonder",
        "ability": {"kind": "ability", "effects": [
            {"id": "e1", "action": "deal_damage", "amount": 1, "selection": {
                "kind": "choose", "pool": {"types": ["creature"]},
                "count": {"mode": "exactly", "n": n}}},
            {"id": "e2", "action": "gain_life", "amount": 2, "selection": {"kind": "fixed"}}]},
        "state": {"objects": [{"id": i, "type": "creature", "zone": "play"} for i in ids]},
        "timeline": {"play": {"targets": [{"effect": "e1", "objects": ids}]},
                     "events": [{"kind": how, "object": i} for i in ids]},
        "question": {"kind": "effect_performed", "effect": "e2"},
    }
    assert decide(load_scenario(data)).verdict == "no"


RESTRICTIONS: list[Restriction] = ["cannot_take_damage", "cannot_be_attacked",
                                   "cannot_be_thwarted", "cannot_ready",
                                   "cannot_have_threat_removed", "cannot_be_targeted",
                                   "cannot_be_chosen_by_enemy_spells", "cannot_be_stunned"]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["riftbound", "marvel-champions", "momon-wonder"]),
       st.sampled_from(["deal_damage", "ready", "remove_threat", "stun", "heal", "kill"]),
       st.lists(st.sampled_from(["attack", "thwart"]), max_size=2, unique=True),
       st.sets(st.sampled_from(RESTRICTIONS)), st.sampled_from(RESTRICTIONS),
       st.integers(0, 2), st.integers(0, 2))
def test_adding_restriction_never_makes_target_legal(
        game: str, action: str, labels: list[str], base: set[Restriction],
        extra: Restriction, damage: int, threat: int) -> None:
    def verdict(rs: set[Restriction]) -> str:
        data = {
            "game": game,
            "ability": {"kind": "spell", "labels": labels, "effects": [
                {"id": "e1", "action": action, "amount": 1, "selection": {
                    "kind": "choose", "pool": {"types": ["minion"]}}}]},
            "state": {"objects": [{"id": "m", "type": "minion", "controller": "opp",
                                   "zone": "play", "restrictions": sorted(rs),
                                   "stats": {"damage": damage, "threat": threat}}]},
            "question": {"kind": "valid_target", "object": "m"},
        }
        return decide(load_scenario(data)).verdict

    if verdict(base) == "no":
        assert verdict(base | {extra}) == "no"
