"""Mutation: source mutants of the code under test, and what a test class's tests let survive.

The pipeline: :mod:`~oracular.mutation.operators` (PIT's and Descartes' operators over
tree-sitter), :mod:`~oracular.mutation.calls` (which methods a test class calls),
:mod:`~oracular.mutation.runs` (the tests compiled once, run against class overlays),
:mod:`~oracular.mutation.pseudo_tested` (extreme mutants and the methods' verdicts),
:mod:`~oracular.mutation.probe` and :mod:`~oracular.mutation.reneri` (why a mutant survives, and
the oracle that kills it). The evaluation's mutant phase uses the operators too.
"""
