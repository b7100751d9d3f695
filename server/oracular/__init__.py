"""Oracular: find JUnit tests with no oracle and suggest the missing one."""

__version__ = "0.1.0"
