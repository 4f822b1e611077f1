"""Tools for pack authors: a pack's rules document, and new packs."""
