"""Bots for any pack: a player's belief over the hidden state, and agents using it."""
