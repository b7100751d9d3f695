"""Command-line interface: ``oracular scan``, ``oracular suggest`` and friends."""
