"""Editor settings (section ``oracular``), validated into :class:`ServerSettings`.

Settings come from two places the server does not control: ``initializationOptions`` and
``workspace/configuration``. A typo there must neither crash the server nor silently change
what it does, so each bad or unknown value yields one readable problem (the server shows it)
and that setting falls back to its default.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from lsprotocol.types import DiagnosticSeverity

from oracular.engine import EngineSettings
from oracular.lsp.execution_policy import TRUSTED_OPTION, CheckOracles
from oracular.quality.runner import CHECKS, QualitySettings

SECTION = "oracular"
MAX_TOP_K = 50
DEVICES = ("auto", "cpu", "cuda")
ASSERTION_STYLES = ("auto", "junit4", "junit5")
SEVERITIES = {
    "error": DiagnosticSeverity.Error,
    "warning": DiagnosticSeverity.Warning,
    "information": DiagnosticSeverity.Information,
    "hint": DiagnosticSeverity.Hint,
}
_IDENTIFIER = re.compile(r"^[A-Za-z_$][\w$]*$")


@dataclass(frozen=True)
class ServerSettings:
    engine: EngineSettings = field(default_factory=EngineSettings)
    device: str = "auto"
    """Where a neural ranker would run: ``auto`` (CUDA when torch sees a GPU), ``cpu``, ``cuda``."""
    inlay_hints: bool = True
    diagnostic_severity: DiagnosticSeverity = DiagnosticSeverity.Information
    on_save: bool = False
    """Rank only when a file is opened or saved, not as it is typed (for slow machines)."""
    quality: QualitySettings = field(default_factory=QualitySettings)
    """Which oracle-quality checks run (``checks``: ``{"unused-input": true, ...}``), over the
    defaults chosen by their precision on the dev projects."""
    check_oracles: CheckOracles = "auto"
    """Compile and run each suggested oracle on the current code (``oracular.execution``). It runs
    the project's code (and ``mvn -o``) in the background, so ``auto``, the default, runs it only
    in a workspace the client says is trusted (:mod:`oracular.lsp.execution_policy`)."""
    classpath: tuple[str, ...] = ()
    """Jars and class folders for the checks, replacing discovery (Maven, Gradle, fallback)."""
    output_folders: tuple[str, ...] = ()
    """The project's compiled classes for the checks (``target/classes``...), with ``classpath``."""


class Invalid(ValueError):
    """A setting's value is unusable; the message says what was expected."""


def _integer(low: int, high: int) -> Callable[[Any], int]:
    def parse(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise Invalid(f"expected an integer from {low} to {high}")
        return value

    return parse


def _probability(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= value <= 1.0:
        raise Invalid("expected a number from 0 to 1")
    return float(value)


def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise Invalid("expected true or false")
    return value


def _check_oracles(value: Any) -> CheckOracles:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() == "auto":
        return "auto"
    raise Invalid('expected "auto", true or false')


def _choice(options: tuple[str, ...]) -> Callable[[Any], str]:
    def parse(value: Any) -> str:
        if not isinstance(value, str) or value.lower() not in options:
            raise Invalid(f"expected one of {', '.join(map(repr, options))}")
        return value.lower()

    return parse


def _severity(value: Any) -> DiagnosticSeverity:
    return SEVERITIES[_choice(tuple(SEVERITIES))(value)]


def _method_names(value: Any) -> frozenset[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and _IDENTIFIER.match(v) for v in value):
        raise Invalid("expected a list of Java method names")
    return frozenset(value)


def _paths(value: Any) -> tuple[str, ...]:
    """A list of paths, or one string of them joined by the platform's path separator."""
    if isinstance(value, str):
        value = value.split(os.pathsep)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise Invalid(f"expected a list of paths (or one string of them separated by {os.pathsep!r})")
    return tuple(v.strip() for v in value if v.strip())


def _checks(value: Any) -> dict[str, bool]:
    if not isinstance(value, Mapping) or not all(isinstance(v, bool) for v in value.values()):
        raise Invalid(f"expected an object of check codes to true/false ({', '.join(CHECKS)})")
    unknown = sorted(set(value) - set(CHECKS))
    if unknown:
        raise Invalid(f"unknown check {', '.join(map(repr, unknown))} (known: {', '.join(CHECKS)})")
    return dict(value)


_FIELDS: dict[str, tuple[Callable[[Any], Any], Callable[[ServerSettings, Any], ServerSettings]]] = {
    "topK": (_integer(1, MAX_TOP_K), lambda s, v: replace(s, engine=replace(s.engine, top_k=v))),
    "abstainBelow": (_probability, lambda s, v: replace(s, engine=replace(s.engine, abstain_below=v))),
    "assertionStyle": (
        _choice(ASSERTION_STYLES),
        lambda s, v: replace(s, engine=replace(s.engine, assertion_style=v)),
    ),
    "extraAssertionMethods": (
        _method_names,
        lambda s, v: replace(s, engine=replace(s.engine, extra_assertion_methods=v)),
    ),
    "device": (_choice(DEVICES), lambda s, v: replace(s, device=v)),
    "inlayHints": (_boolean, lambda s, v: replace(s, inlay_hints=v)),
    "diagnosticSeverity": (_severity, lambda s, v: replace(s, diagnostic_severity=v)),
    "onSave": (_boolean, lambda s, v: replace(s, on_save=v)),
    "checks": (_checks, lambda s, v: replace(s, quality=s.quality.with_codes(v))),
    "checkOracles": (_check_oracles, lambda s, v: replace(s, check_oracles=v)),
    "classpath": (_paths, lambda s, v: replace(s, classpath=v)),
    "outputFolders": (_paths, lambda s, v: replace(s, output_folders=v)),
}
SETTING_NAMES = tuple(_FIELDS)


def section_of(options: Any) -> Any:
    """The ``oracular`` section of ``initializationOptions``, which may also be the section itself
    (less ``workspaceTrusted``, which is no setting)."""
    if isinstance(options, Mapping) and isinstance(options.get(SECTION), Mapping):
        return options[SECTION]
    if isinstance(options, Mapping):
        return {k: v for k, v in options.items() if k != TRUSTED_OPTION}
    return options


def pushed_section(settings: Any) -> Any:
    """The ``oracular`` section of pushed ``didChangeConfiguration`` settings, keyed by section."""
    return settings.get(SECTION) if isinstance(settings, Mapping) else None


def parse_settings(*layers: Any) -> tuple[ServerSettings, list[str]]:
    """Settings from raw layers, later layers overriding earlier ones; ``None`` layers are skipped.

    Returns the settings and one problem message per rejected value. Each rejected value keeps
    the default, never a half-parsed one.
    """
    merged: dict[str, Any] = {}
    problems: list[str] = []
    for layer in layers:
        if layer is None:
            continue
        if not isinstance(layer, Mapping):
            problems.append(f"{SECTION} settings must be an object, got {_describe(layer)}; ignored")
            continue
        merged.update(layer)
    settings = ServerSettings()
    for key, value in merged.items():
        if key not in _FIELDS:
            problems.append(f"unknown setting {SECTION}.{key} (known: {', '.join(SETTING_NAMES)}); ignored")
            continue
        if value is None:
            continue
        parse, apply = _FIELDS[key]
        try:
            settings = apply(settings, parse(value))
        except Invalid as exc:
            problems.append(f"{SECTION}.{key}: {exc}, got {_describe(value)}; using the default")
    return settings, problems


def _describe(value: Any) -> str:
    """The value as the user wrote it (JSON), cut short."""
    text = json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:37] + "..."
