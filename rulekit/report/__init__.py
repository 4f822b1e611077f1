"""The designer's report: which cards decide games, how much skill matters, where games are won.

``collect`` plays traced games (``sim/traces``) and ``figures`` sums them up; ``charts`` draws
them with matplotlib, and ``page`` writes one self-contained HTML file.
"""
