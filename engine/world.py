"""The game state as the engine sees it: entities (objects, players, locations), the
state after the timeline's events, and pool matching."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.errors import UnknownReferenceError
from engine.policies.base import Policy
from engine.scenario import Ability, Effect, Event, Pool, Scenario

# Zones whose objects are "on the board" (355.9.a.1: unit, gear, rune mean board objects).
BOARD_ZONES = frozenset({"board", "battlefield", "base", "play", "legend", "champion"})


@dataclass(frozen=True)
class Entity:
    """Anything that can be selected: a game object, a player or a location."""

    id: str
    type: str
    category: str  # "object" | "player" | "location"
    controller: str | None = None
    zone: str | None = None
    location: str | None = None
    stats: dict[str, int] = field(default_factory=dict)
    restrictions: frozenset[str] = frozenset()
    traits: frozenset[str] = frozenset()
    keywords: frozenset[str] = frozenset()
    in_play: bool = True
    forced_illegal: bool = False
    deck_size: int | None = None

    def stat(self, name: str) -> int:
        return self.stats.get(name, 0)


@dataclass(frozen=True)
class World:
    """Entities by id, plus location kinds/controllers and zone publicness."""

    entities: dict[str, Entity]
    location_kind: dict[str, str]
    location_controller: dict[str, str | None]
    zone_kind: dict[str, str]
    zone_public: dict[str, bool | None]
    crisis_icons: int

    def get(self, eid: str, where: str) -> Entity:
        try:
            return self.entities[eid]
        except KeyError:
            raise UnknownReferenceError(f"unknown id {eid!r}", where) from None

    def apply(self, events: list[Event]) -> World:
        """The world after the events, in order (the state at resolution)."""
        ents = dict(self.entities)
        for i, ev in enumerate(events):
            where = f"timeline.events[{i}]"
            e = ents.get(ev.object)
            if e is None:
                raise UnknownReferenceError(f"unknown object {ev.object!r}", where + ".object")
            if ev.kind in ("set_stat", "modify_stat"):
                if ev.stat is None or ev.value is None:
                    raise UnknownReferenceError("stat and value are required", where)
                stats = dict(e.stats)
                stats[ev.stat] = ev.value if ev.kind == "set_stat" else e.stat(ev.stat) + ev.value
                e = replace(e, stats=stats)
            elif ev.kind == "move":
                if ev.location is None or ev.location not in self.location_kind:
                    raise UnknownReferenceError(f"unknown location {ev.location!r}",
                                                where + ".location")
                e = replace(e, location=ev.location)
            elif ev.kind == "leave_play":
                e = replace(e, in_play=False, location=None)
            elif ev.kind == "add_restriction" and ev.restriction:
                e = replace(e, restrictions=e.restrictions | {ev.restriction})
            elif ev.kind == "remove_restriction" and ev.restriction:
                e = replace(e, restrictions=e.restrictions - {ev.restriction})
            elif ev.kind == "become_illegal":
                e = replace(e, forced_illegal=True)
            elif ev.kind == "change_controller":
                e = replace(e, controller=ev.player)
            ents[ev.object] = e
        return replace(self, entities=ents)

    def zone_is_public(self, zone: str | None, policy: Policy) -> bool:
        if zone is None:
            return True
        pub = self.zone_public.get(zone)
        if pub is not None:
            return pub
        kind = self.zone_kind.get(zone, zone)
        return kind not in policy.hidden_zone_kinds


def build_world(s: Scenario) -> World:
    """Index the scenario's state; duplicate ids are a :class:`ScenarioError`."""
    ents: dict[str, Entity] = {}

    def add(e: Entity, where: str) -> None:
        if e.id in ents:
            raise UnknownReferenceError(f"duplicate id {e.id!r}", where)
        ents[e.id] = e

    for i, p in enumerate(s.state.players):
        add(Entity(id=p.id, type="player", category="player", controller=p.id,
                   deck_size=p.deck_size), f"state.players[{i}]")
    for i, loc in enumerate(s.state.locations):
        add(Entity(id=loc.id, type=loc.kind, category="location", controller=loc.controller),
            f"state.locations[{i}]")
    loc_kind = {loc.id: loc.kind for loc in s.state.locations}
    for i, o in enumerate(s.state.objects):
        where = f"state.objects[{i}]"
        if o.location is not None and o.location not in loc_kind:
            raise UnknownReferenceError(f"unknown location {o.location!r}", where + ".location")
        add(Entity(id=o.id, type=o.type, category="object", controller=o.controller,
                   zone=o.zone, location=o.location, stats=dict(o.stats),
                   restrictions=frozenset(o.restrictions), traits=frozenset(o.traits),
                   keywords=frozenset(k.lower() for k in o.keywords)), where)
    return World(
        entities=ents,
        location_kind=loc_kind,
        location_controller={loc.id: loc.controller for loc in s.state.locations},
        zone_kind={z.id: z.kind for z in s.state.zones},
        zone_public={z.id: z.public for z in s.state.zones},
        crisis_icons=s.state.crisis_icons,
    )


def type_matches(e: Entity, types: list[str], policy: Policy) -> bool:
    """Whether the entity is of one of the pool's types (aliases and traits count)."""
    if not types:
        return True
    for t in types:
        if t == e.type or t in e.traits:
            return True
        alias = policy.type_aliases.get(t)
        if alias and (e.type in alias or bool(alias & e.traits)):
            return True
    return False


def pool_failures(e: Entity, pool: Pool, ability: Ability, w: World, policy: Policy,
                  source_location: str | None) -> list[str]:
    """Why ``e`` is outside the pool (empty when it matches): targeting restrictions."""
    why: list[str] = []
    if not type_matches(e, pool.types, policy):
        why.append(f"it is a {e.type}, not a {' or '.join(pool.types)}")
    if pool.traits and not set(pool.traits) <= (e.traits | {e.type}):
        why.append(f"it lacks {', '.join(pool.traits)}")
    if pool.controller == "you" and e.controller != ability.controller:
        why.append("it is not friendly")
    if pool.controller == "opponent" and (e.controller is None
                                          or e.controller == ability.controller):
        why.append("it is not an enemy's")
    if e.category == "object":
        if pool.zone is not None:
            if e.zone != pool.zone and w.zone_kind.get(e.zone or "", "") != pool.zone:
                why.append(f"it is not in the {pool.zone}")
        elif not e.in_play or (e.zone not in BOARD_ZONES
                               and w.zone_kind.get(e.zone or "", "") not in BOARD_ZONES
                               and e.type not in ("spell", "ability")):
            why.append("it is not in play")
        if not e.in_play and pool.zone is None:
            pass
    lf = pool.location
    if lf is not None and e.category == "object":
        loc = e.location
        if loc is None:
            why.append(f"it is not at a {lf.kind}")
        else:
            if lf.kind is not None and w.location_kind.get(loc) != lf.kind:
                why.append(f"it is not at a {lf.kind}")
            if lf.scope == "here" and loc != source_location:
                why.append("it is not here")
            if lf.scope == "specific" and lf.location is not None and loc != lf.location:
                why.append(f"it is not at {lf.location}")
            ctl = w.location_controller.get(loc)
            if lf.controlled_by == "you" and ctl != ability.controller:
                why.append("its location is not yours")
            if lf.controlled_by == "opponent" and (ctl is None or ctl == ability.controller):
                why.append("its location is not an opponent's")
    for b in pool.stats:
        v = e.stat(b.stat)
        if b.min is not None and v < b.min:
            why.append(f"its {b.stat} {v} is below {b.min}")
        if b.max is not None and v > b.max:
            why.append(f"its {b.stat} {v} is above {b.max}")
    if pool.exclude_source and e.id == ability.source:
        why.append("the text excludes the source")
    if "cannot_be_targeted" in e.restrictions:
        why.append("it cannot be targeted")
    if ("cannot_be_chosen_by_enemy_spells" in e.restrictions and ability.kind == "spell"
            and e.controller is not None and e.controller != ability.controller):
        why.append("it cannot be chosen by enemy spells")
    if e.forced_illegal:
        why.append("it became illegal")
    return why


def superlative_choice(effect: Effect, ability: Ability, w: World,
                       policy: Policy) -> list[str]:
    """Objects a deterministic "the X with the most <stat>" selection picks (ties: all)."""
    sup = effect.selection.pool.superlative
    cands = [e for e in w.entities.values()
             if not pool_failures(e, effect.selection.pool, ability, w, policy, None)]
    if sup is None or not cands:
        return [e.id for e in cands]
    best = (max if sup.most else min)(e.stat(sup.stat) for e in cands)
    return sorted(e.id for e in cands if e.stat(sup.stat) == best)
