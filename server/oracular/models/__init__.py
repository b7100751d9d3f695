"""The neural oracles at run time: one shared MiniLM encoder, an exception head and a candidate scorer.

Modules, one job each: ``backbone`` (the pretrained package and its tokenizer), ``inputs`` (the
one formatting of a test for the model, shared by training and inference), ``network`` (the
``nn.Module``), ``calibration`` (turning raw outputs into probabilities), ``store`` (shipped
weights), ``inference`` (a loaded model that ranks) and ``ranker`` (the lazily loading
:class:`~oracular.ranking.problem.Ranker` the CLI and the server give the engine). Training and
its evaluation live in :mod:`oracular.training` and :mod:`oracular.evaluation`.

Importing this package is cheap: torch is imported only by the modules that need it, and
:mod:`oracular.models.ranker` defers it until a model is loaded.
"""
