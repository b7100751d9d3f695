"""Offline evaluations: what measures the editor's answers, never imported by the editor itself.

- ``realistic``: developers' tests cut right before their oracle, nothing appended, answered by
  the engine exactly as a user's oracle-free test is (``oracular eval --realistic``).
"""
