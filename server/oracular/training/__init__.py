"""Training the neural oracles: datasets from mined samples, the training loop, and what is fitted
on top of the weights.

Offline only: the editor never runs this package's code (a test pins that the server's start-up
loads :mod:`.settings` alone, for the ``train`` command's options). ``settings`` holds what a run
is set with; ``data`` turns mined samples into model examples; ``batches`` groups and encodes
them; ``trainer`` fine-tunes; ``scoring`` scores examples and fits the calibration on dev;
``calibration`` fits what the shipped :class:`~oracular.models.calibration.Calibration` holds;
``prior`` the template prior; ``confidence`` when to answer; ``transfer`` copies a model's weights.
"""
