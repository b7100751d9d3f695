"""Rankers: score the candidate oracles of a prefix (the baseline heuristic, later the models)."""
