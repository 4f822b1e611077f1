"""rulekit: a rules-as-data engine for two-player tabletop games with hidden information."""

__version__ = "0.1.0"
