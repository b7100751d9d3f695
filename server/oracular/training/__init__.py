"""Training the neural oracles: datasets from mined samples, the training loop, and calibration.

Offline only: the editor never imports this package (a test pins it). ``data`` turns mined samples
into model examples, ``trainer`` fine-tunes and selects on dev, ``calibration`` fits what the
shipped :class:`~oracular.models.calibration.Calibration` holds.
"""
