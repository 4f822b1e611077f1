"""The version of rulekit."""

__version__ = "0.1.0"
