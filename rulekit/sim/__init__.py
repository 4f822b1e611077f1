"""The simulator: many games between bots, and what their outcomes say."""
