"""Tools for pack authors: the rules document of a pack, and a new pack's scaffold."""
