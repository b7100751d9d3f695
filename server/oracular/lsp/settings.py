"""Editor settings (section ``oracular``), validated into :class:`ServerSettings`.

Settings come from two places the server does not control: ``initializationOptions`` and
``workspace/configuration``. A typo there must neither crash the server nor silently change
what it does, so each bad or unknown value yields one readable problem (the server shows it)
and that setting falls back to its default.

Each setting is defined once, in :data:`SETTINGS`: how a raw value is checked, where it lands in
:class:`ServerSettings`, and what editors show of it. Its default is :class:`ServerSettings`' own.
:mod:`oracular.lsp.settings_schema` exports all of it as a JSON schema, which the VS Code
extension's ``package.json`` is tested against.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import reduce
from typing import Any

from lsprotocol.types import DiagnosticSeverity

from oracular.candidates.style import ASSERTION_STYLES
from oracular.engine import EngineSettings
from oracular.execution.sandbox import SANDBOX_MODES, SandboxMode
from oracular.lsp.execution_policy import TRUSTED_OPTION, CheckOracles
from oracular.models.devices import DEVICES
from oracular.quality.runner import CHECKS, SUMMARIES, QualitySettings

SECTION = "oracular"
MAX_TOP_K = 50
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
    sandbox: SandboxMode = "prefer"
    """How the project's code is contained when it runs (:mod:`oracular.execution.sandbox`)."""


class Invalid(ValueError):
    """A setting's value is unusable; the message says what was expected."""


@dataclass(frozen=True)
class Kind:
    """The values a setting takes, said twice from one place: as the parser that checks a raw
    value (raising :class:`Invalid`) and as the JSON schema that tells editors the same."""

    parse: Callable[[Any], Any]
    schema: Mapping[str, Any]
    """``type`` first, then ``enum``, bounds, ``items``...: no ``default``, no description."""


def _integer(low: int, high: int) -> Kind:
    def parse(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise Invalid(f"expected an integer from {low} to {high}")
        return value

    return Kind(parse, {"type": "integer", "minimum": low, "maximum": high})


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


def _checks(value: Any) -> QualitySettings:
    """The quality checks with these switched on or off by code, the others at their defaults."""
    if not isinstance(value, Mapping) or not all(isinstance(v, bool) for v in value.values()):
        raise Invalid(f"expected an object of check codes to true/false ({', '.join(CHECKS)})")
    try:
        return QualitySettings().with_codes(value)
    except ValueError as exc:  # an unknown code: the quality package's one rule and message
        raise Invalid(str(exc)) from None


def _checks_kind() -> Kind:
    defaults = QualitySettings()
    switches = {
        code: {
            "type": "boolean",
            "markdownDescription": f"{SUMMARIES[code]} "
            f"(on by default: {'yes' if defaults.enabled(code) else 'no'}).",
        }
        for code in CHECKS
    }
    return Kind(_checks, {"type": "object", "additionalProperties": False, "properties": switches})


def _checks_description() -> str:
    """The ``checks`` setting's description, naming the checks that start off (whatever they are)."""
    off = [f"`{code}`" for code in CHECKS if not QualitySettings().enabled(code)]
    listed = ", ".join(off[:-1]) + " and " + off[-1] if len(off) > 1 else "".join(off) or "none"
    return (
        "Oracle-quality checks on tests that do assert, switched on (`true`) or off (`false`) by code, "
        f"over their defaults: {listed} {'starts' if len(off) == 1 else 'start'} off (precision below "
        '80% on the dev projects), the others on. Example: `{"unused-input": true}`.'
    )


def _one_of(options: tuple[str, ...]) -> Kind:
    """One of ``options``, in any case."""
    return Kind(_choice(options), {"type": "string", "enum": list(options)})


BOOLEAN = Kind(_boolean, {"type": "boolean"})
PATHS = Kind(_paths, {"type": "array", "items": {"type": "string"}})


@dataclass(frozen=True)
class Setting:
    """One ``oracular.*`` setting: its key, where its value lands in :class:`ServerSettings`, the
    values it takes, and what editors show of it. It states no default: :class:`ServerSettings`'
    own is read back through ``path`` (:meth:`value`), so the two cannot disagree."""

    key: str
    path: tuple[str, ...]
    """The attributes leading to its value in :class:`ServerSettings` (``("engine", "top_k")``)."""
    kind: Kind
    description: str
    """Markdown, as VS Code shows it (``#oracular.classpath#`` links to another setting)."""
    enum_descriptions: tuple[str, ...] = ()
    """One line per value of the kind's ``enum``, in its order."""
    scope: str | None = None
    """VS Code's scope, where it is not the default: ``machine`` settings are read from the user's
    own settings only, never from a workspace's ``.vscode/settings.json``."""

    def apply(self, settings: ServerSettings, value: Any) -> ServerSettings:
        """``settings`` with this setting's raw ``value``; raises :class:`Invalid`."""
        return _replaced(settings, self.path, self.kind.parse(value))

    def value(self, settings: ServerSettings) -> Any:
        """This setting's value in ``settings`` as a user would write it (JSON)."""
        return _as_json(reduce(getattr, self.path, settings))

    def json_schema(self) -> dict[str, Any]:
        """The setting as a JSON schema property, in the form VS Code's ``contributes.configuration``
        takes (``markdownDescription``, ``enumDescriptions``). ``null``, which every setting takes
        as "unset", is listed only where it is the default."""
        schema = dict(self.kind.schema)
        default = self.value(ServerSettings())
        type_ = schema.pop("type")
        extra = {"enumDescriptions": list(self.enum_descriptions)} if self.enum_descriptions else {}
        if self.scope is not None:
            extra["scope"] = self.scope
        return {
            "type": [type_, "null"] if default is None else type_,
            "default": default,
            **schema,
            **extra,
            "markdownDescription": self.description,
        }


def _replaced(value: Any, path: tuple[str, ...], new: Any) -> Any:
    head, *rest = path
    return replace(value, **{head: _replaced(getattr(value, head), tuple(rest), new) if rest else new})


def _as_json(value: Any) -> Any:
    if isinstance(value, DiagnosticSeverity):
        return next(name for name, severity in SEVERITIES.items() if severity == value)
    if isinstance(value, QualitySettings):  # the switches that differ from the defaults
        defaults = QualitySettings()
        return {code: value.enabled(code) for code in CHECKS if value.enabled(code) != defaults.enabled(code)}
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple):
        return list(value)
    return value


SETTINGS: dict[str, Setting] = {
    s.key: s
    for s in (
        Setting(
            "topK",
            ("engine", "top_k"),
            _integer(1, MAX_TOP_K),
            "Number of ranked oracles offered per test: the quick fixes and the hover list.",
        ),
        Setting(
            "abstainBelow",
            ("engine", "abstain_below"),
            Kind(_probability, {"type": "number", "minimum": 0, "maximum": 1}),
            "When Oracular's confidence that the top oracle is the one a developer would write is below "
            "this, it says it has no confident oracle instead of guessing (the oracles stay listed in the "
            "hover). Unset (`null`): the ranker's own threshold, which for the neural model was chosen on "
            "dev projects for 60% top-1 precision (0.1 on the top score for the baseline heuristic).",
        ),
        Setting(
            "assertionStyle",
            ("engine", "assertion_style"),
            _one_of(ASSERTION_STYLES),
            "How the inserted oracles are spelled.",
            (
                "Follow the test file's imports",
                "JUnit 4 (`org.junit.Assert`, try/`fail`/catch for exceptions)",
                "JUnit 5 (`Assertions`, `assertThrows`)",
            ),
        ),
        Setting(
            "extraAssertionMethods",
            ("engine", "extra_assertion_methods"),
            Kind(
                _method_names,
                {
                    "type": "array",
                    "items": {
                        "type": "string",
                        "pattern": _IDENTIFIER.pattern,
                        "patternErrorMessage": "a Java method name",
                    },
                },
            ),
            "Names of your own assertion helpers: a test that calls one counts as having an oracle.",
        ),
        Setting(
            "device",
            ("device",),
            _one_of(DEVICES),
            "Where the ranking model runs. The device in use is shown in the status bar.",
            (
                "CUDA when PyTorch sees a GPU, else the CPU (imports PyTorch at start: slower to start)",
                "Always the CPU (the fastest start with the baseline ranker)",
                "The GPU; falls back to the CPU with a message when there is none",
            ),
        ),
        Setting(
            "inlayHints",
            ("inlay_hints",),
            BOOLEAN,
            "Show each oracle-free test's top oracle as an inlay hint after its last statement (VS Code's "
            "`#editor.inlayHints.enabled#` must be on too).",
        ),
        Setting(
            "diagnosticSeverity",
            ("diagnostic_severity",),
            # Editors list the values mildest first; problems list them as SEVERITIES does.
            Kind(_severity, {"type": "string", "enum": ["information", "hint", "warning", "error"]}),
            "Severity of the `missing-oracle` diagnostic on each test without an oracle.",
        ),
        Setting(
            "onSave",
            ("on_save",),
            BOOLEAN,
            "Rank only when a file is opened or saved, not as you type (for slow machines or very large "
            "files).",
        ),
        Setting("checks", ("quality",), _checks_kind(), _checks_description()),
        Setting(
            "checkOracles",
            ("check_oracles",),
            Kind(_check_oracles, {"type": ["string", "boolean"], "enum": ["auto", True, False]}),
            "Compile and run each suggested oracle on the current code (a scratch copy of the test, in a "
            "background JVM; your files are never changed), and show the result in the quick fixes, the "
            "hover and the inlay hint tooltip: `holds now`, `fails now: was 1 — possible bug`, `does not "
            "compile` (moved to the end of the list). This runs your project's code, and `mvn -o` to find "
            "the classpath, without being asked, so `auto` (the default) does it only in a workspace you "
            "trust. Needs a JDK and JUnit 5's platform jars (Debian: `apt-get install junit5`).",
            (
                "Check the oracles in a trusted workspace only (VS Code's Workspace Trust)",
                "Check them in any workspace, trusted or not (in an untrusted workspace VS Code ignores the "
                "value its own settings give: only yours counts)",
                "Never check them",
            ),
        ),
        Setting(
            "classpath",
            ("classpath",),
            PATHS,
            "Jars and class folders the tests need, for `#oracular.checkOracles#`. Relative paths start at "
            "the workspace folder. When empty (and `#oracular.outputFolders#` too), the classpath is "
            "discovered: Maven offline, else Gradle, else the workspace's jars, the POM's dependencies "
            "found in local repositories and Debian's test jars.",
        ),
        Setting(
            "outputFolders",
            ("output_folders",),
            PATHS,
            "Your project's compiled classes (for example `target/classes`, `target/test-classes`), used "
            "with `#oracular.classpath#` by `#oracular.checkOracles#`. Classes older than their sources "
            "are compiled again from the sources.",
        ),
        Setting(
            "sandbox",
            ("sandbox",),
            _one_of(SANDBOX_MODES),
            "How your project's code is contained when Oracular runs it (observed values, "
            "`#oracular.checkOracles#`). On Linux it runs under Bubblewrap (`bwrap`; Debian: `apt-get "
            "install bubblewrap`): the file system read-only but for Oracular's scratch folders, no "
            "network, its own process tree, capped memory, processes and CPU time. Read from your user "
            "settings only: a workspace cannot turn it off.",
            (
                "Refuse to run code where no sandbox can run",
                "Run in the sandbox where it can run, else without it, and say so (the default)",
                "Never use the sandbox",
            ),
            scope="machine",
        ),
    )
}
"""Every setting of the ``oracular`` section, in the order problems list them."""


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
        if key not in SETTINGS:
            problems.append(f"unknown setting {SECTION}.{key} (known: {', '.join(SETTINGS)}); ignored")
            continue
        if value is None:
            continue
        try:
            settings = SETTINGS[key].apply(settings, value)
        except Invalid as exc:
            problems.append(f"{SECTION}.{key}: {exc}, got {_describe(value)}; using the default")
    return settings, problems


def _describe(value: Any) -> str:
    """The value as the user wrote it (JSON), cut short."""
    text = json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:37] + "..."
