"""Bots for any pack: the belief of a player over the hidden state, and agents that use it."""
