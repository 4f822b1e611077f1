"""The simulator: many games between bots, and what their outcomes say.

``simulation`` plays the games, ``execution`` says where, ``stats`` and ``result`` count and
sum up, ``sweep`` varies parameters, ``tables`` prints text or CSV.
"""
