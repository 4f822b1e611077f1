"""The forward model of a compiled pack: new game, pending decisions, apply, observe.

A :class:`Game` is read-only and shared; each game in progress is a plain-data *state*.
"""

from __future__ import annotations

from collections.abc import Mapping

from rulekit.engine import rng
from rulekit.engine.decisions import Decision, Option, choice_event
from rulekit.engine.frozen import thaw
from rulekit.engine.helpers import as_text
from rulekit.engine.hidden import Layout
from rulekit.engine.observe import Observation, observe
from rulekit.engine.state import Event, LogEvent, Reason, Spec, State, copy_state
from rulekit.engine.vm import DEFAULT_STEP_BUDGET, Runtime
from rulekit.errors import IllegalActionError, UsageError
from rulekit.model.program import MAIN, LogField, Program
from rulekit.model.symbols import Symbols

__all__ = ["FORMAT_VERSION", "Game", "State", "copy_state"]

FORMAT_VERSION = 1


class Words:
    """How values are named to players: cards and roles by their names."""

    def __init__(self, card_labels: dict[str, str], role_names: dict[str, str]) -> None:
        self.names = {**role_names, **card_labels}  # a card's label first

    def label(self, item: object) -> str:
        """The text shown for an item: a card, a role, a number..."""
        if isinstance(item, str):
            return self.names.get(item, item)
        if item is None:
            return "none"
        if isinstance(item, bool):
            return "yes" if item else "no"
        if isinstance(item, list):
            return ", ".join(self.label(i) for i in item) or "nothing"
        return str(item)

    def fill(self, parts: list[str | LogField], values: list[object]) -> str:
        """A log text with its fields filled in."""
        args = iter(values)
        return "".join(p if isinstance(p, str) else
                       self.label(next(args)) if p.labelled else as_text(next(args))
                       for p in parts)


class Game:
    """One pack compiled with one set of parameter values."""

    def __init__(self, *, pack_id: str, pack_name: str, version: str, pack_hash: str,
                 role_names: dict[str, str], symbols: Symbols, program: Program,
                 params: dict[str, int], card_labels: dict[str, str],
                 step_budget: int = DEFAULT_STEP_BUDGET, learned_file: str | None = None
                 ) -> None:
        self.pack_id = pack_id
        self.pack_name = pack_name
        self.version = version
        self.pack_hash = pack_hash
        self.role_names = role_names
        self.roles = list(role_names)
        self.symbols = symbols
        self.program = program
        self.params = dict(params)
        self.step_budget = step_budget
        self.learned_file = learned_file  # the pack's file of learned weights, for the bots
        self.layout = Layout(symbols)  # where the cards and values are, and who sees them
        self.words = Words(card_labels, role_names)
        self.label = self.words.label  # the text shown for an item: a card, a role, a number...
        words, reasons = self.words, program.reasons  # (no cycle through the game)
        program.say = lambda text, values: words.fill(reasons[text], values)

    # ------------------------------------------------------------ states

    def initial_state(self, seed: int = 0, *, quiet: bool = False) -> State:
        """A state at the very start, before setup has run.

        A ``quiet`` game (the state's key, so its copies are quiet too) builds no ``log`` lines
        and no end event, keeps the players' choices, and goes as the same game with a log.
        """
        layout = self.layout
        zones = {key: list(cards) for key, cards in layout.initial_piles.items()}
        variables = dict(thaw(layout.initial_values))
        state: State = {
            "format": FORMAT_VERSION,
            "pack": self.pack_id,
            "seed": seed,
            "rng": rng.seed_state(seed),
            "round": 0,
            "phase": None,
            "zones": zones,
            "vars": variables,
            "stack": [{"proc": MAIN, "pc": 0, "locals": []}],
            "pending": [],
            "committed": {},
            "log": [],
            "result": None,
            "steps": 0,
        }
        if quiet:
            state["quiet"] = True
        return state

    def start_state(self, seed: int = 0, *, round: int = 1, phase: str | None = None) -> State:
        """A state at the start of ``phase`` of round ``round``, setup skipped."""
        state = self.initial_state(seed)
        if phase is None:
            return state
        if phase not in self.program.phase_pcs:
            raise UsageError(f"unknown phase '{phase}'",
                             f"phases: {', '.join(self.program.phase_pcs)}")
        state["round"] = round
        state["stack"] = [{"proc": MAIN, "pc": self.program.phase_pcs[phase], "locals": []}]
        return state

    def run(self, state: State) -> State:
        """Run a state in place until it waits for decisions or ends; return it."""
        if state["result"] is None and not state["pending"]:
            Runtime(self.program, state, self.step_budget).run()
        return state

    def new_game(self, seed: int = 0, *, quiet: bool = False) -> State:
        """A new game from ``seed``, run up to its first decision."""
        return self.run(self.initial_state(seed, quiet=quiet))

    # ------------------------------------------------------------ decisions

    def is_over(self, state: State) -> bool:
        return state["result"] is not None

    def winner(self, state: State) -> str | None:
        result = state["result"]
        return None if result is None else result["winner"]

    def pending(self, state: State) -> list[Decision]:
        """The decisions still to take, one per player not yet committed."""
        committed = state["committed"]
        return [self._decision(spec, state) for spec in state["pending"]
                if spec["player"] not in committed]

    def _decision(self, spec: Spec, state: State) -> Decision:
        extras = Runtime(self.program, state, self.step_budget).anytime_options(spec["player"]) \
            if self.program.anytime else None
        return self.decision(spec, extras)

    def decision(self, spec: Spec, extras: list[tuple[str, str]] | None = None) -> Decision:
        """The Decision of a spec, with the anytime actions offered beside it."""
        return Decision(spec, self.label, extras, self.explain)

    def decision_for(self, state: State, role: str) -> Decision | None:
        return next((d for d in self.pending(state) if d.player == role), None)

    def apply(self, state: State, actions: Mapping[str, str | Option], *,
              in_place: bool = False) -> State:
        """Commit each player's chosen option (one by one if they like); once all have, go on."""
        if not in_place:
            state = copy_state(state)
        if state["result"] is not None:
            raise IllegalActionError("the game is over")
        specs = {spec["player"]: spec for spec in state["pending"]}
        resolved: dict[str, Option] = {}
        for role, action in actions.items():
            option = self._checked(state, specs, role, action)
            if option.id.startswith("!"):  # run the action, then ask the decisions again
                state["pending"] = []
                state["committed"] = {}
                runtime = Runtime(self.program, state)
                runtime.interrupt(runtime.took_anytime(role, option.id))
                return self.run(state)
            state["committed"][role] = option.id
            resolved[role] = option
        if len(state["committed"]) < len(specs):
            return state
        locals_ = state["stack"][-1]["locals"]
        logged = "quiet" not in state
        for spec in state["pending"]:
            role = spec["player"]
            option = resolved.get(role) or self._decision(spec, state).option(
                state["committed"][role])
            locals_[spec["slot"]] = option.value
            state["log"].append(choice_event(role, option.id, option.value, state["round"], logged))
        state["pending"] = []
        state["committed"] = {}
        return self.run(state)

    def _checked(self, state: State, specs: dict[str, Spec], role: str,
                 action: str | Option) -> Option:
        """The option ``role`` answers with; an IllegalActionError if it may not."""
        spec = specs.get(role)
        if spec is None:
            waiting = ", ".join(specs) or "nobody"
            raise IllegalActionError(f"{role} has no decision to take (waiting for: {waiting})")
        if role in state["committed"]:
            raise IllegalActionError(f"{role} has already decided")
        if isinstance(action, Option) and action.made_by is spec:
            return action  # made by a Decision of this very spec: legal
        option_id = action.id if isinstance(action, Option) else str(action)
        return self._decision(spec, state).option(option_id)  # raises if illegal

    # ------------------------------------------------------------ what players see

    def observe(self, state: State, role: str) -> Observation:
        """Everything ``role`` may know of ``state``, and nothing else."""
        return observe(self.pack_id, self.layout, state, role)

    def explain(self, why: Reason) -> str:
        """The text of a pack's reason for refusing an answer."""
        return self.words.fill(self.program.reasons[why[0]], why[1])

    def format_event(self, event: Event) -> str:
        """The text of a log event, without a log line's ``**`` marks."""
        if event["e"] == "log":
            text = self._log_text(event)
            return text[2:-2].strip() if _stands_out(text) else text
        if event["e"] == "choice":
            who = self.role_names.get(event["player"], event["player"])
            if "value" in event and not event["option"].startswith("!"):
                return f"{who} chose {self.label(event['value'])}"
            return f"{who} chose {event.get('label', event['option'])}"
        winner = event["winner"]
        name = self.role_names.get(winner, "nobody") if winner else "nobody"
        return f"Game over: {name} wins. {event['reason']}".strip()

    def _log_text(self, event: LogEvent) -> str:
        return self.words.fill(self.program.logs[event["at"]], event["args"])

    def stands_out(self, event: Event) -> bool:
        """Whether a log line its pack wrote between ``**`` (``log "**...**"``)."""
        return event["e"] == "log" and _stands_out(self._log_text(event))


def _stands_out(text: str) -> bool:
    """A log line written between ``**``: an event to make stand out."""
    return len(text) > 4 and text.startswith("**") and text.endswith("**")
