"""The designer's report: which cards decide games, how much skill matters, where games are won."""
