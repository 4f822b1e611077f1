"""``python -m rulekit``: the rulekit command line."""

from rulekit.cli import entry

if __name__ == "__main__":
    entry()
