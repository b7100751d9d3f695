"""Offline evaluations: what measures the editor's answers, never imported by the editor itself.

- ``ranking``: any ranker on the mined dev samples, replayed through the engine (``oracular eval``);
- ``realistic``: developers' tests cut right before their oracle, nothing appended, answered by
  the engine exactly as a user's oracle-free test is (``oracular eval --realistic``), and
  ``run_cache``, which keeps their runs of the code between evaluations;
- ``bug_finding``: inserted oracles against mutants of the code (``oracular eval --mutants``), a
  package of its phases (test selection, the correct code, the mutants, the report), with
  ``build`` (a project compiled by javac alone), ``mutants`` (PIT-style operators over
  tree-sitter trees) and ``regression`` (the recorded-value baseline test generators write).
"""
