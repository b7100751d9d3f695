"""Rankers: score the candidate oracles of a prefix (the interface, and the baseline heuristic; the
neural model ranks through the same interface from :mod:`oracular.models`)."""
