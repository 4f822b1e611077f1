"""Scripted players: yardsticks for the bots' strength.

Each shipped game has its own, which play it by a few rules of thumb, as well as such rules
allow; ``Highest`` plays any pack of cards. They belong here, not in ``rulekit/``, since the
engine knows no game. Seat them by name, with this folder on ``sys.path``:
``--agents fugitive=baselines:CarChaseGreedy``, ``--agents jessah=baselines:RedNoticeJessah``,
``--agents red=baselines:Highest``.
"""

from __future__ import annotations

from typing import ClassVar

from rulekit import Decision, Option, View

# The card types each role of Car Chase can play (CC-10 to CC-13), Locations included.
USEFUL = {"law": {"I", "C", "P", "L"}, "fugitive": {"F", "C", "E", "L"}}
KEEP_SCORE = 5  # a useful card scoring this or more is kept at the exchange


class CarChaseGreedy:
    """Plays every card a phase allows, and exchanges its weakest cards.

    In a contest it takes the legal play with the highest total (so the best Location). At the
    exchange it discards, weakest first, the cards its role cannot play and those scoring
    under ``KEEP_SCORE``.
    """

    def choose(self, view: View, decision: Decision) -> Option:
        cards = view.game.symbols.cards
        score = {card_id: int(cards[str(card_id)]["score"]) for card_id in decision.items}
        if decision.prompt.startswith("Discard"):
            useful = USEFUL[view.role]
            weak = [(cards[str(c)]["type"] not in useful, score[c], i)
                    for i, c in enumerate(decision.items)]
            weak = [w for w in weak if w[0] or w[1] < KEEP_SCORE]
            return decision.subset_option(_first(weak, decision.max))
        return max(decision.options(), key=lambda o: sum(score[c] for c in _cards(o)))


class Highest:
    """Plays the cards of the highest total, for any pack: the simplest sensible play.

    At a choice of cards it takes the option whose cards add up to the most, by the first
    whole-number card property the pack declares (ties: the first such option). At any other
    choice it answers at random.
    """

    def choose(self, view: View, decision: Decision) -> Option:
        cards = view.game.symbols.cards
        key = _first_number(view)
        options = decision.options()
        if key is None or not any(str(item) in cards for item in decision.items):
            return decision.sample(view.rng)

        def total(option: Option) -> int:
            chosen = _cards(option) if decision.kind == "subset" else [option.value]
            return sum(int(cards[str(c)].get(key, 0)) for c in chosen if str(c) in cards)
        return max(options, key=total)


def _first_number(view: View) -> str | None:
    """The first whole-number card property of the pack, if any."""
    for card in view.game.symbols.cards.values():
        for key, value in card.items():
            if isinstance(value, int) and not isinstance(value, bool) and key != "copies":
                return str(key)
    return None


def _first(weak: list[tuple[bool, int, int]], most: int) -> list[int]:
    """The positions of the ``most`` weakest cards, useless ones first, in increasing order."""
    ranked = sorted(weak, key=lambda w: (not w[0], w[1]))
    return sorted(i for _, _, i in ranked[:most])


def _cards(option: Option) -> list[object]:
    value = option.value
    return value if isinstance(value, list) else []


# ----------------------------------------------------------------------------- Red Notice

# How much each action is worth to a role per icon, before the situation weighs it.
ANGELA_ACTIONS = {"bank": 3.0, "check": 1.5, "movement": 1.0, "security": 0.5, "joker": 1.5}
JESSAH_ACTIONS = {"movement": 3.0, "security": 1.5, "check": 0.3, "bank": 0.3, "joker": 2.0}
SAFE = 3  # Angela cashes only this many routes or more from Jessah (unless it wins)
WIN = 1_000_000
# Angela's choice of Jessah's Upgrade, least harmful first
MILD_UPGRADES = ["up_analyst", "up_roadworks", "up_freeze", "up_steel", "up_interpol",
                 "up_informant", "up_alarm", "up_pursuit", "up_satellite", "up_wiretap"]


def _distances(view: View) -> dict[str, dict[str, int]]:
    """Routes between every two cities (the map is small)."""
    board = view.game.symbols.board
    table = {}
    for start in board.nodes:
        seen, frontier = {start: 0}, [start]
        while frontier:
            frontier = [n for c in frontier for n in board.neighbors(c)
                        if n not in seen and not seen.update({n: seen[c] + 1})]
        table[start] = seen
    return table


def _vars(view: View) -> dict[str, object]:
    return dict(view.observation["vars"])


def _pile(view: View, zone: str) -> list[str]:
    return list(view.observation["zones"].get(zone, {}).get("cards") or [])


def _option_ids(decision: Decision) -> list[str]:
    return [o.id for o in decision.options()]


class _RedNotice:
    """What both scripted Red Notice players share: the map, the cards, the spaces."""

    ACTIONS: ClassVar[dict[str, float]] = {}

    def __init__(self) -> None:
        self.dist: dict[str, dict[str, int]] | None = None

    def choose(self, view: View, decision: Decision) -> Option | str:
        if self.dist is None:
            self.dist = _distances(view)
        ids = [i for i in _option_ids(decision) if not i.startswith("!")]
        extra = self.extra(view, decision)
        if extra is not None:
            return extra
        prompt = decision.prompt
        if prompt.startswith("Choose a token"):
            return self.token(view, decision, ids)
        if prompt.startswith("Choose a space"):
            return max(ids, key=lambda s: self.space_value(view, int(s)))
        if prompt.startswith("How many Checks"):
            return max(ids, key=int)
        if prompt.startswith("Raise your Security"):
            return max(ids, key=int)
        return self.answer(view, decision, ids)

    def extra(self, view: View, decision: Decision) -> str | None:
        """An anytime action to take now, if any."""
        return None

    def token(self, view: View, decision: Decision, ids: list[str]) -> str:
        value = {c: int(view.game.symbols.cards[c].get("value") or 9) for c in ids}
        return max(ids, key=lambda c: value[c])  # POW! (no value) counts as the highest

    def space_value(self, view: View, space: int) -> float:
        """How much placing a token on ``space`` is worth: its side's action first."""
        slot = (space + 1) // 2
        cards = _pile(view, f"card_at.{slot}")
        if not cards:
            return -1.0
        card = view.game.symbols.cards[cards[0]]
        first, second = ("left", "right") if space % 2 else ("right", "left")
        return 1.2 * self.worth(view, card[first], int(card[f"{first}_icons"])) + \
            self.worth(view, card[second], int(card[f"{second}_icons"])) - 0.01 * slot

    def worth(self, view: View, action: str, icons: int) -> float:
        return self.ACTIONS[action] * icons

    def answer(self, view: View, decision: Decision, ids: list[str]) -> str:
        raise NotImplementedError


class RedNoticeAngela(_RedNotice):
    """Angela: draws Checks, moves out of Jessah's reach and away from where she was last
    seen, towards a city where she can cash; cashes far from Jessah (always when it wins)."""

    ACTIONS = ANGELA_ACTIONS

    def worth(self, view: View, action: str, icons: int) -> float:
        v, at = _vars(view), str(_vars(view).get("angela_at"))
        near = self._jessah_distance(view, at)
        weight = self.ACTIONS[action]
        if action == "bank":
            weight *= 1.5 if self._cashable(view, at) and near >= SAFE else 0.2
        elif action == "movement":
            weight *= 2.5 if near <= 2 else 1.5 if not self._cashable(view, at) else 0.7
        elif action == "check":
            weight *= 1.0 if len(_pile(view, "checks.angela")) < 5 else 0.0
        elif action == "security":
            weight *= 1.0 if int(v.get("security") or 0) < 4 else 0.0
        return weight * icons

    def extra(self, view: View, decision: Decision) -> str | None:
        """Pays 2 Security to remove a white Radar watching her continent."""
        extras = {o.id for o in decision.extras}
        if "!remove_white" not in extras or int(_vars(view).get("security") or 0) < 2:
            return None
        region = view.game.symbols.board.nodes.get(str(_vars(view).get("angela_at")), {})
        watched = region.get("region")
        red = _vars(view).get(f"radar_red.{watched}")
        return "!remove_white" if _pile(view, f"radar_on.{watched}") and not red else None

    def _jessah_distance(self, view: View, city: str) -> int:
        jessah = _vars(view).get("jessah_at")
        assert self.dist is not None
        return 9 if not jessah or city not in self.dist else self.dist[city].get(str(jessah), 9)

    def _cashable(self, view: View, city: str) -> bool:
        region = view.game.symbols.board.nodes.get(city, {}).get("region")
        return any(view.game.symbols.cards[c]["color"] == region
                   for c in _pile(view, "checks.angela"))

    def _goal_distance(self, view: View, city: str) -> int:
        """Routes from ``city`` to the nearest city where a Check of her hand cashes, out of
        Jessah's reach if there is one."""
        assert self.dist is not None
        colours = {view.game.symbols.cards[c]["color"] for c in _pile(view, "checks.angela")}
        nodes = view.game.symbols.board.nodes
        goals = [n for n in nodes if nodes[n]["region"] in colours]
        safe = [n for n in goals if self._jessah_distance(view, n) >= SAFE] or goals
        return min((self.dist[city].get(n, 9) for n in safe), default=0)

    def _place_score(self, view: View, city: str) -> float:
        radars = {r for r in view.game.symbols.board.regions
                  if _pile(view, f"radar_on.{r}")}
        region = view.game.symbols.board.nodes[city]["region"]
        danger = {0: 6.0, 1: 4.0, 2: 2.0}.get(self._jessah_distance(view, city), 0.0)
        seen = _vars(view).get("last_seen")  # where Jessah last learnt she was: leave it
        assert self.dist is not None
        away = self.dist[city].get(str(seen), 9) if isinstance(seen, str) else 9
        exposed = {0: 5.0, 1: 2.5, 2: 1.0}.get(away, 0.0)
        return -danger - exposed - self._goal_distance(view, city) - \
            (1.5 if region in radars else 0.0)

    def answer(self, view: View, decision: Decision, ids: list[str]) -> str:
        prompt, v = decision.prompt, _vars(view)
        at = str(v.get("angela_at"))
        cards = view.game.symbols.cards
        if prompt.startswith("Show a starting Check"):
            colours = [cards[c]["color"] for c in ids]
            return max(ids, key=lambda c: colours.count(cards[c]["color"]))
        if prompt.startswith("Cash a Check"):
            cashable = [c for c in ids if c != "none"]
            if not cashable:
                return "none"
            best = max(cashable, key=lambda c: cards[c]["value"])
            wins = int(v.get("cashed_total") or 0) + int(cards[best]["value"]) >= WIN
            return best if wins or self._jessah_distance(view, at) >= SAFE else "none"
        if prompt.startswith("Joker"):
            if self._cashable(view, at) and self._jessah_distance(view, at) >= SAFE:
                return "bank"
            full = len(_pile(view, "checks.angela")) >= 5
            return "movement" if full or self._jessah_distance(view, at) <= 3 else "check"
        if prompt.startswith("Choose Jessah's Upgrade"):
            return min(ids, key=lambda u: MILD_UPGRADES.index(u) if u in MILD_UPGRADES else 99)
        if prompt.startswith("Send Jessah to"):
            assert self.dist is not None
            return max(ids, key=lambda c: self.dist[at].get(c, 0) if at in self.dist else 0)
        if prompt.startswith(("Remove which", "Remove a Barrier")):
            own = [i for i in ids if i != "none"]
            region = view.game.symbols.board.nodes.get(at, {}).get("region")
            return region if region in own else (own[0] if own else ids[0])
        places = [i for i in ids if i in view.game.symbols.board.nodes]
        if places:  # a move, an escape, a starting city
            stay = self._place_score(view, at) if at in view.game.symbols.board.nodes else None
            best = max(places, key=lambda c: self._place_score(view, c))
            if "none" in ids and stay is not None and self._place_score(view, best) <= stay:
                return "none"
            return best
        return ids[0] if "none" not in ids else "none"


class RedNoticeJessah(_RedNotice):
    """Jessah: works out Angela's possible cities from what she has seen (her belief), and
    closes on them; watches and blocks where Angela may be; uses her one-shot Upgrades when
    Angela's city is uncertain."""

    ACTIONS = JESSAH_ACTIONS

    def __init__(self) -> None:
        super().__init__()
        self.seen: tuple[object, int] = (None, 0)  # where Angela was last seen, and when

    def extra(self, view: View, decision: Decision) -> str | None:
        """A one-shot Upgrade, when Angela may be in many cities."""
        extras = {o.id for o in decision.extras}
        if extras and len(self._places(view)) > 3:
            for extra in ("!wiretap", "!satellite", "!informant", "!interpol"):
                if extra in extras:
                    return extra
        return None

    def _places(self, view: View) -> dict[str, float]:
        """Where Angela may be: the seat's belief; if it is lost, the cities she may have
        reached since she was last seen (a public fact), or anywhere."""
        belief = view.belief
        if not belief.lost:
            return {str(c): w for c, w in belief.distribution("angela_at").items() if c}
        seen = _vars(view).get("last_seen")
        round_now = int(view.observation["round"] or 0)
        if seen != self.seen[0] or round_now < self.seen[1]:  # seen again, or a new game
            self.seen = (seen, round_now)
        assert self.dist is not None
        if not isinstance(seen, str) or seen not in self.dist:
            return {c: 1.0 for c in view.game.symbols.board.nodes}
        reach = 1 + 2 * (round_now - self.seen[1])
        return {c: 1.0 / (1 + d) for c, d in self.dist[seen].items() if d <= reach}

    def _expected(self, view: View, city: str) -> float:
        assert self.dist is not None
        return sum(w * self.dist[city].get(c, 9) for c, w in self._places(view).items())

    def worth(self, view: View, action: str, icons: int) -> float:
        weight = self.ACTIONS[action]
        at = str(_vars(view).get("jessah_at"))
        if action == "movement" and at in (self.dist or {}):
            weight *= 1.5 if self._expected(view, at) <= 3 else 1.0
        if action == "security" and not _pile(view, "reserve"):
            weight = 0.1
        return weight * icons

    def _regions(self, view: View) -> dict[str, float]:
        nodes = view.game.symbols.board.nodes
        regions: dict[str, float] = {}
        for city, w in self._places(view).items():
            regions[nodes[city]["region"]] = regions.get(nodes[city]["region"], 0.0) + w
        return regions

    def answer(self, view: View, decision: Decision, ids: list[str]) -> str:
        prompt, v = decision.prompt, _vars(view)
        at = str(v.get("jessah_at"))
        board = view.game.symbols.board
        places = self._places(view)
        if prompt.startswith("Show a starting Check"):
            return ids[0]
        if prompt.startswith(("Place a Radar", "Turn a Radar")):
            regions = self._regions(view)
            return max(ids, key=lambda r: regions.get(r, -1.0) if r != "none" else -0.5)
        if prompt.startswith("Place a Barrier"):
            regions = self._regions(view)
            watched = {r for r in board.regions if _pile(view, f"radar_on.{r}")}
            radars = [r for r in ids if r in board.regions and r not in watched]
            best_region = max(radars, key=lambda r: regions.get(r, 0.0), default=None)
            if best_region is not None and regions.get(best_region, 0.0) >= 0.25:
                return best_region
            routes = [e for e in ids if e in board.edges]

            def cut(edge: str) -> float:  # routes out of Angela's likely cities, away from me
                ends = board.edges[edge]["from"], board.edges[edge]["to"]
                return sum(places.get(end, 0.0) for end in ends)
            best = max(routes, key=cut, default="none")
            return best if best != "none" and cut(best) > 0 else (best_region or "none")
        if prompt.startswith("Cash a Check"):
            cashable = [c for c in ids if c != "none"]
            return cashable[0] if cashable else "none"
        if prompt.startswith("Joker"):
            return "movement"
        if prompt.startswith("Choose Jessah's Upgrade"):
            return max(ids, key=lambda u: MILD_UPGRADES.index(u) if u in MILD_UPGRADES else -1)
        if prompt.startswith("Satellite Scan"):
            return max(ids, key=lambda c: places.get(c, 0.0))
        cities = [i for i in ids if i in board.nodes]
        if cities:
            if prompt.startswith("Choose your starting city"):
                assert self.dist is not None
                return min(cities, key=lambda c: sum(self.dist[c].values()))

            def score(city: str) -> float:
                return self._expected(view, city) - 3.0 * places.get(city, 0.0)
            best = min(cities, key=score)
            if "none" in ids and at in board.nodes and score(best) >= self._expected(view, at):
                return "none"
            return best
        return "none" if "none" in ids else ids[0]
