"""End-to-end tests of the language server (``oracular serve``)."""
