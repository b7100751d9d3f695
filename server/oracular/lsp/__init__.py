"""Oracular's language server: a thin LSP layer over :mod:`oracular.engine`.

One module per concern, so each feature reads on its own:

- ``server``: the pygls server and the document lifecycle;
- ``protocol``: JSON-RPC and LSP as pygls speaks them, with every workaround of a pygls behaviour
  (bookkeeping that leaked, replies it never sent, exit codes, the read loop, the transports);
- ``text``: the open documents, with LSP's line semantics and UTF-16 columns;
- ``execution_policy``: whether the server may run the project's code now (``checkOracles``,
  workspace trust, the transport);
- ``settings``: editor settings, validated into :class:`~oracular.engine.EngineSettings`;
- ``settings_schema``: the settings as a JSON schema, which editors' clients are checked against;
- ``ranker``: the ranker the engines share, its device, and what stands in while it loads;
- ``worker``: the analysis thread, with per-(uri, version) debouncing and cancellation;
- ``engines``: one engine per build root, sharing the ranker;
- ``documents``: the cache of analyses per document version;
- ``code_runs``: the runs of the user's code for each analysis (observation, re-ranking, the oracle
  checks of ``checkOracles``), in the background;
- ``convert``: engine positions and edits as LSP types;
- ``diagnostics``, ``code_actions``, ``inlay_hints``, ``hover``, ``commands``: the features.

The engine is the only source of analysis: nothing here decides what an oracle is.
"""
