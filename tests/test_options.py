"""Options said once, on a settings dataclass's fields: ``oracular train``'s parser is built from
``TrainSettings`` and reads back the same settings, nested ones included."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from oracular.cli.main import build_parser
from oracular.models.inputs import InputSettings
from oracular.options import values_of
from oracular.training.settings import TrainSettings


def _parsed(*argv: str) -> TrainSettings:
    args = build_parser().parse_args(["train", "ranker", *argv])
    return values_of(TrainSettings, args, stage="ranker", data=Path("d"), out=Path("o"), device="cpu")


def test_no_option_given_is_the_dataclass_defaults() -> None:
    settings = _parsed()
    assert settings == TrainSettings("ranker", Path("d"), Path("o"), "cpu")


def test_every_option_reaches_its_field_nested_ones_included() -> None:
    settings = _parsed(
        "--epochs", "3", "--lr", "1e-4", "--target-precision", "0.4", "--no-split-identifiers",
        "--max-context", "128", "--templates", "--architecture", "cross-encoder", "--train-embeddings",
        "--time-budget", "60",
    )  # fmt: skip
    assert (settings.epochs, settings.lr, settings.target_precision) == (3, 1e-4, 0.4)
    assert settings.inputs == InputSettings(split_identifiers=False, max_context=128, templates=True)
    assert (settings.architecture, settings.train_embeddings, settings.time_budget) == (
        "cross-encoder",
        True,
        60.0,
    )


def test_the_parser_knows_every_option_field_and_its_default() -> None:
    parser = build_parser()
    train = next(a for a in parser._subparsers._group_actions if a.dest == "command").choices["train"]  # type: ignore[union-attr]
    flags = {flag for action in train._actions for flag in action.option_strings}
    for field in dataclasses.fields(TrainSettings):
        if "oracular.cli" in field.metadata:
            assert f"--{field.name.replace('_', '-')}" in flags, field.name
