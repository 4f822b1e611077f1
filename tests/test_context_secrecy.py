"""A prompt's context (``display: context:``) is shown to the player who decides: `rulekit
validate` refuses a field that may show them what they may not see, at the field, saying what
is secret and from whom (see ``rulekit/lang/contexts.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.errors import PackError
from tests.helpers_lang import BASE, content, load, load_errors, locate

# ``spot`` is a's secret; ``shelf`` a zone only a sees; ``hand`` each role's own pile.
SECRETS = BASE + """\
  spot: {initial: 3, owner: a, visibility: owner}
  pick: {initial: 0, owner: a, visibility: owner, on_change: told}
"""
# b decides inside ``show``, a or b (its parameter ``p``) inside ``ask``.
PROCS = {
    "show": ("{n: any}", 'let x = choose b one of [1, 2] prompt "Pick"\nlog "{x}" to b\n'),
    "ask": ("{p: role, n: any}", 'let x = choose p one of [1, 2] prompt "Pick"\n'
                                 'log "{x}" to p\n'),
    "told": ("{v: int}", 'let x = choose b one of [1, 2] prompt "Heard"\nlog "{x}" to b\n'),
}
DISPLAY = """\
display:
  context:
    show: "about {n}"
    ask: "asking {n}"
    told: "heard {v}"
"""
FIELD = {"show": "{n}", "ask": "{n}", "told": "{v}"}


def pack(setup: str, procs: dict[str, tuple[str, str]] | None = None) -> str:
    return content(base=SECRETS, setup="draw 2 from deck to hand[a]\n" + setup,
                   procs={**PROCS, **(procs or {})}) + DISPLAY


def refused(tmp_path: Path, text: str, proc: str) -> PackError:
    """The one error of a pack, at the field of ``proc``'s context."""
    [error] = [e for e in load_errors(tmp_path, text) if "a context" in e.message]
    assert error.location is not None
    line, column = locate(text, FIELD[proc], after=f"    {proc}: ")
    assert (error.location.file.endswith("content.yaml"), error.location.line,
            error.location.column) == (True, line, column), error
    assert error.hint is not None and "reveal(...)" in error.hint
    return error


@pytest.mark.parametrize(("setup", "procs", "proc", "secret", "read"), [
    # a secret variable of another role, passed straight
    ("show(spot)\n", None, "show", "the variable 'spot', which only a sees", "show(spot)"),
    # a value worked out from it, through a local variable
    ("let far = spot * 2 + 1\nshow(far)\n", None, "show", "only a sees", "far = spot"),
    ("let t = 0\nt += spot\nshow(t)\n", None, "show", "only a sees", "t += spot"),
    # a hidden zone's cards, and another role's own pile
    ("show(top(deck))\n", None, "show", "the zone 'deck', which no player sees", "top(deck)"),
    ("show(hand[a])\n", None, "show", "'hand[a]', which only a sees", "show(hand[a])"),
    # a parameter passed through two procedures
    ("relay(spot + 1)\n", {"relay": ("{m: int}", "hop(m)\n"), "hop": ("{k: int}", "show(k)\n")},
     "show", "only a sees", "relay(spot"),
    # the decider is the role a caller passes: b here
    ("ask(b, spot)\n", None, "ask", "only a sees", "ask(b, spot)"),
    # which call runs tells the secret
    ("if spot > 2 { show(1) } else { show(2) }\n", None, "show", "only a sees", "if spot"),
    # what a chose, shown to b
    ('let c = choose a one of [1, 2] prompt "Secret"\nshow(c)\n', None, "show",
     "the answer of a choice of a, which only they know", "choose a"),
    # the new value of a secret variable, handed to its on_change procedure
    ("pick = spot\n", None, "told", "only a sees", "pick = spot"),
])
def test_a_context_that_may_show_a_secret_is_refused_at_its_field(
        tmp_path: Path, setup: str, procs: dict[str, tuple[str, str]] | None, proc: str,
        secret: str, read: str) -> None:
    text = pack(setup, procs)
    error = refused(tmp_path, text, proc)
    who = "here b" if proc != "ask" else "here b (the role passed as 'p')"
    assert f"decides inside '{proc}', {who}, who may not see" in error.message, error.message
    assert secret in error.message, error.message
    line, _ = locate(text, read)
    assert f"content.yaml:{line}:" in error.message, error.message


@pytest.mark.parametrize("setup", [
    "show(score + total)\n",                      # public variables
    "show(hand[b])\nshow(count(hand[a]))\n",      # b's own pile; the size of a's
    "show(reveal(spot))\n",                       # made public on purpose
    "ask(a, spot)\nask(a, hand[a])\n",            # a sees her own secrets
    'let c = choose b one of [1, 2] prompt "Mine"\nshow(c)\n',  # what b chose, to b
    "for k in range(1, 3) { show(k) }\n",         # a loop over public values
    "relay(score)\n",                             # through two procedures, public
    "let t = score\nt += 1\nshow(t)\n",            # a public value, changed
    "total = score\n",                            # a trigger of a public variable
    "if score > 1 { show(1) } else { show(2) }\n",  # which call runs is public
])
def test_a_context_of_what_the_decider_sees_loads(tmp_path: Path, setup: str) -> None:
    procs = {"relay": ("{m: int}", "hop(m)\n"), "hop": ("{k: int}", "show(k)\n")}
    text = pack(setup, procs).replace("  total: {initial: 0}", "  total: {initial: 0, on_change: "
                                      "told}")
    assert "on_change: told}" in text
    load(tmp_path, text)


def test_the_decider_of_a_called_procedure_counts(tmp_path: Path) -> None:
    # 'wrap' asks nothing itself; b decides inside the procedure it calls
    procs = {"wrap": ("{n: int}", "show(1)\n")}
    text = pack("wrap(spot)\n", procs).replace('show: "about {n}"', 'wrap: "wrap {n}"')
    [error] = [e for e in load_errors(tmp_path, text) if "a context" in e.message]
    assert "inside 'wrap', here b" in error.message
    # a procedure inside which nobody decides may name anything
    load(tmp_path / "quiet", pack("quiet(spot)\n", {"quiet": ("{n: int}", "total = 1\n")})
         .replace('show: "about {n}"', 'quiet: "quiet {n}"'))


def test_red_notices_contexts_pass() -> None:
    from rulekit.pack.loader import load_pack

    # (each player may decide under a Card, a side and an action: those fields are public;
    # only Angela decides in an escape and in her steps, and she knows her Identity)
    assert set(load_pack("rednotice").display.context) >= {"resolve", "perform", "escape",
                                                             "step_angela"}


def test_a_player_deciding_in_an_anytime_action_counts(tmp_path: Path) -> None:
    # only a decides inside 'wait'; at that decision a may take an anytime action in which b
    # decides, with 'wait' still running under it
    procs = {"wait": ("{n: int}", 'let x = choose a one of [1, 2] prompt "Wait"\n'
                                  'log "{x}" to a\n'),
             "interrupt": ("", 'let y = choose b one of [1, 2] prompt "Now"\nlog "{y}" to b\n')}
    text = pack("wait(spot)\n", procs).replace('show: "about {n}"', 'wait: "waiting {n}"')
    load(tmp_path / "alone", text)  # a sees spot
    text += "anytime:\n  - {id: stop, role: a, label: Stop, do: interrupt}\n"
    [error] = [e for e in load_errors(tmp_path, text) if "a context" in e.message]
    assert "inside 'wait', here b, who may not see '{n}'" in error.message


def test_a_label_may_read_a_piles_size_its_choosers_own_and_what_is_revealed(
        tmp_path: Path) -> None:
    code = ('let x = choose a one of [1, 2] label "{it} {count(deck)} {spot} '
            '{reveal(top(deck))}"\nlog "{x}" to a\n')
    load(tmp_path / "a", content(base=SECRETS, setup=code, procs=PROCS))
    [error] = load_errors(tmp_path / "b", content(base=SECRETS, procs=PROCS, setup=code.replace(
        "choose a", "choose b").replace('to a', 'to b')))
    assert "a label is told to the chooser" in error.message
    assert error.location is not None and error.location.source_line is not None
    assert error.location.source_line[error.location.column - 1:].startswith("spot")


def test_validate_prints_the_field_with_a_caret_and_a_hint(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.helpers_cli import runner
    from tests.helpers_lang import write_pack

    text = pack("relay(spot + 1)\n", {"relay": ("{m: int}", "show(m)\n")})
    folder = write_pack(tmp_path / "leaky", text)
    code, _, err = runner(capsys)("validate", str(folder))
    assert code == 1
    line, column = locate(text, "{n}", after="    show: ")
    assert f"content.yaml:{line}:{column}: a context is shown to the player who decides " \
           "inside 'show', here b, who may not see '{n}': it may hold the variable 'spot', " \
           "which only a sees" in err, err
    # the line quoted, indented by four, with a caret under the field
    assert '\n        show: "about {n}"\n' + " " * (4 + column - 1) + "^\n" in err, err
    assert "hint: name in a context only what every player deciding inside it sees" in err


# Two procedures that call each other.
CYCLE = {"ping": ("{m: int}", "if m > 0 { pong(m - 1) }\nshow(m)\n"),
         "pong": ("{k: int}", "ping(k)\n")}


@pytest.mark.parametrize(("setup", "procs", "secret", "read"), [
    # two secrets in one value: the first in the text
    ("show(spot + count(hand[a]) + pick)\n", None, "the variable 'spot'", "show(spot"),
    ("show(pick + spot)\n", None, "the variable 'pick'", "show(pick"),
    # a local assigned twice: the first assignment that hides something
    ("let t = 0\nif score > 0 { t = top(deck) }\nt += spot\nshow(t)\n", None, "the zone 'deck'",
     "t = top(deck)"),
    # the value before the conditions it is assigned under
    ("let t = 0\nif spot > 0 { t = top(deck) }\nshow(t)\n", None, "the zone 'deck'",
     "t = top(deck)"),
    ("let t = 0\nif spot > 0 { t = score }\nshow(t)\n", None, "the variable 'spot'",
     "if spot > 0"),
    # procedures calling each other: the secret is found past the cycle, the calls of a
    # procedure read in the order of the pack's code (here the procedures' before setup's)
    ("ping(score)\npong(spot)\n",
     CYCLE,
     "the variable 'spot'", "pong(spot)"),
    ("ping(pick)\npong(spot)\n",
     CYCLE,
     "the variable 'spot'", "pong(spot)"),
])
def test_the_secret_reported_is_the_first_found(
        tmp_path: Path, setup: str, procs: dict[str, tuple[str, str]] | None, secret: str,
        read: str) -> None:
    text = pack(setup, procs)
    error = refused(tmp_path, text, "show")
    assert f"it may hold {secret}" in error.message, error.message
    line, _ = locate(text, read)
    assert f"content.yaml:{line}:" in error.message, error.message
