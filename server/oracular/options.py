"""Command-line options defined by a settings dataclass: each option said once, on its field.

Why: ``oracular train`` repeated ``TrainSettings``' defaults and help, and copied some twenty
fields from the parsed arguments by hand; a default changed in one place and not the other, or a
field left out of the copy, went unnoticed. A field that is an option carries :func:`option` in
its metadata (help, and where needed a flag, a metavar or choices); its default and its type are
the field's own. :func:`add_options` adds them to a parser, :func:`values_of` reads them back,
nested settings dataclasses (``inputs``) included.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import types
import typing
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

_KEY = "oracular.cli"


def option(
    help: str, *, flag: str | None = None, metavar: str | None = None, choices: Sequence[str] | None = None
) -> Mapping[str, Any]:
    """A field's metadata that makes it a command-line option (``--field-name`` unless ``flag``;
    a boolean that defaults to true becomes ``--no-field-name``)."""
    return {_KEY: {"help": help, "flag": flag, "metavar": metavar, "choices": choices}}


def _hint(cls: type, f: dataclasses.Field) -> Any:
    """The field's type, or ``None`` where it names what only a type checker imports (such a
    field is no option)."""
    if not isinstance(f.type, str):
        return f.type
    try:
        return eval(f.type, vars(sys.modules[cls.__module__]))
    except NameError:
        return None


def _options(cls: type, prefix: str = "") -> list[tuple[str, dataclasses.Field, type, dict]]:
    """``(destination, field, type, option)`` for every option of ``cls``, nested ones flattened."""
    found = []
    for f in dataclasses.fields(cls):
        kind = _hint(cls, f)
        if dataclasses.is_dataclass(kind) and _KEY not in f.metadata:
            found += _options(kind, f"{prefix}{f.name}.")
        elif _KEY in f.metadata:
            found.append((f"{prefix}{f.name}", f, kind, f.metadata[_KEY]))
    return found


def _base(kind: Any) -> type:
    """``int`` for ``int | None``, ``Path`` for ``Path | None``..."""
    if isinstance(kind, types.UnionType) or typing.get_origin(kind) is typing.Union:
        kind = next(a for a in typing.get_args(kind) if a is not type(None))
    return kind


def _default(f: dataclasses.Field) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return None


def add_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup, cls: type) -> None:
    """Add every option of the settings dataclass ``cls`` to ``parser``."""
    for dest, f, kind, spec in _options(cls):
        base, default = _base(kind), _default(f)
        name = f.name.replace("_", "-")
        said = default is None or isinstance(default, bool) or "default" in spec["help"]
        shown = "" if said else f" (default {default})"
        if base is bool:
            flag = spec["flag"] or (f"--no-{name}" if default else f"--{name}")
            action = "store_false" if default else "store_true"
            parser.add_argument(flag, dest=dest, action=action, default=default, help=spec["help"])
            continue
        parser.add_argument(
            spec["flag"] or f"--{name}",
            dest=dest,
            type=base if base in (int, float, str, Path) else str,
            default=default,
            choices=spec["choices"],
            metavar=spec["metavar"] if spec["choices"] is None else None,
            help=spec["help"] + shown,
        )


def values_of(cls: type, args: argparse.Namespace, **given: Any) -> Any:
    """An instance of ``cls`` from the parsed options, ``given`` fields (not options) added; an
    option parsed as ``None`` (a command whose options' defaults differ by sub-command) takes the
    field's default."""
    values = dict(given)
    for f in dataclasses.fields(cls):
        if f.name in values:
            continue
        kind = _hint(cls, f)
        if dataclasses.is_dataclass(kind) and _KEY not in f.metadata:
            nested = {
                dest.partition(".")[2]: getattr(args, dest)
                for dest, *_ in _options(cls)
                if dest.startswith(f"{f.name}.") and dest.count(".") == 1
            }
            nested = {k: v for k, v in nested.items() if v is not None}
            values[f.name] = dataclasses.replace(_default(f), **nested)
        elif _KEY in f.metadata:
            value = getattr(args, f.name)
            values[f.name] = _default(f) if value is None else value
    return cls(**values)
