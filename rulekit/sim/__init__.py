"""The simulator's parts, one job each.

``stats`` counts outcomes and summarises them; ``execution`` runs ranges of games in this
process, on local worker processes or on a Dask cluster; ``sweep`` varies pack parameters;
``report`` prints results as text, JSON or CSV. ``rulekit.sim.simulation`` plays the games and ties
the parts together.
"""
