"""The simulator: many games between bots, and what their outcomes say.

``simulation`` plays the games and ties the parts together. ``execution`` says where games
run: here, on worker processes or on a Dask cluster. ``stats`` counts outcomes and
``result`` draws figures from the counts. ``sweep`` varies pack parameters. ``report`` prints
results as text or CSV.
"""
