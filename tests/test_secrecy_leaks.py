"""No role is shown anything, nor asked any differently, when the secrets it cannot see change.

Over 100 random games of each shipped pack, at decision points drawn at random, the secrets a
role cannot see are replaced by others consistent with what it has seen, the pending choice is
asked again, and what the role is shown (its observation, its own decision, who is asked) must
not change (see ``helpers_leak``). The last test puts back the old rule (a choice with a single
answer taken without asking) and checks that the detector then finds the leaks.
``benchmarks/bench_leaks.py`` runs the same check over whole games and every decision point.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers_leak import any_card, by_type_and_owner, leak_check

from rulekit.engine import vm
from rulekit.pack.loader import load_pack

# pack -> (what may take an unseen card's place, share of decision points checked, longest game)
PACKS: dict[str, tuple[Any, float, int]] = {
    "carchase": (any_card, 0.15, 100_000),
    "rednotice": (by_type_and_owner, 0.02, 120),
}


@pytest.mark.parametrize("pack", sorted(PACKS))
def test_no_role_learns_what_it_cannot_see(pack: str) -> None:
    kind, share, longest = PACKS[pack]
    report = leak_check(load_pack(pack).game, games=100, kind=kind, share=share,
                        max_decisions=longest)
    assert report.games == 100 and report.comparisons >= 300
    assert report.altered >= report.comparisons * 0.9  # the secrets did change
    assert not report.leaks, "\n".join(report.leaks[:10])


def test_the_check_finds_the_leaks_of_forced_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the old rule back (a single legal answer is taken at once, whatever it reads, and
    anytime actions do not keep a forced choice open), the check fails in both packs."""
    forced = vm.forced_answer

    def old_rule(spec: dict[str, Any]) -> tuple[bool, Any]:
        spec.pop("ask", None)
        return forced(spec)

    monkeypatch.setattr(vm, "forced_answer", old_rule)
    monkeypatch.setattr(vm.Runtime, "may_interrupt", lambda self, role: False)
    for pack, (kind, _, longest) in PACKS.items():
        report = leak_check(load_pack(pack).game, games=30, kind=kind, share=0.3,
                            max_decisions=longest, until_leak=True)
        assert report.leaks, pack
