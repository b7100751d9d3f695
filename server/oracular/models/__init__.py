"""The neural oracles: one shared MiniLM encoder, an exception head and a candidate scorer.

Modules, one job each: ``backbone`` (the pretrained package and its tokenizer), ``inputs`` (the
one formatting of a test for the model, shared by training and inference), ``network`` (the
``nn.Module``), ``calibration`` (turning raw outputs into probabilities and fitting that on dev),
``store`` (shipped weights), ``ranker`` (the engine's :class:`~oracular.ranking.problem.Ranker`),
``training`` and ``evaluation``.

Importing this package is cheap: torch is imported only by the modules that need it, and the
engine imports only :mod:`oracular.models.ranker`, which defers it until a model is loaded.
"""
