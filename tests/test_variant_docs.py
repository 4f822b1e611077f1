"""``rulekit docs`` of a variant: the base's scenarios count for the rules they cover, and a
section says what the variant changes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers_cli import Run, runner

NINE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "carchase-nine"


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


def test_inherited_rules_show_the_base_scenarios_that_cover_them(run: Run) -> None:
    code, out, _ = run("docs", NINE)
    assert code == 0
    rule = out.split("### CC-10\n", 1)[1].split("###", 1)[0]
    assert "Scenarios: none yet." not in rule
    assert "*carchase: " in rule and "(`rulekit test --with-base`)" in rule


def test_a_variant_says_what_it_changes(run: Run) -> None:
    code, out, _ = run("docs", NINE)
    assert code == 0
    section = out.split("## What this variant changes\n", 1)[1].split("\n## ", 1)[0]
    assert "Car Chase Nine extends `carchase`. Everything else is the base's." in section
    for line in ["- parameter `turns`: default 9 (was 7)",
                 "- parameter `hand_size`: default 7 (was 10)",
                 "- card `nitro`: added"]:
        assert line in section, section
