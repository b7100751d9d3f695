"""The workspace classes the code loads by name, compiled beside those javac compiles on demand.

Why: where a project's sources compile alone, javac compiles on demand the classes a scratch
class names, and no others. Code that loads a class by name never names it:
apacheds-jdbm's ``RecordManagerFactory`` reads ``options.getProperty(PROVIDER_FACTORY,
"jdbm.recman.Provider")`` and calls ``Class.forName`` on it, so every ``TestBTree`` prefix threw
``ClassNotFoundException`` before its end: observed, with no assertion judged (341 of 2,956
observed train tests ended before their last statement, many of them so; commons-jxpath's
factories are loaded the same way).

So the sources of the workspace classes whose qualified names the sources spell as a string
literal (``"jdbm.recman.Provider"``, or split over lines with ``+``) are compiled too, into the
folder of classes compiled on demand, after the scratch class: all together, else each alone,
and where one does not compile it is left out (javac writes nothing for a compilation with an
error, and a class no test names must not keep a test class from compiling). Once per folder,
and again when one of them is edited. Not where a project needed its packaged build: that build
holds them (:mod:`oracular.execution.runner`). Measured in ``docs/eval.md`` ("Prefixes that ended
early").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

QUALIFIED_NAME = re.compile(rb'"((?:[a-z_$][\w$]*\.)+[A-Z][\w$]*)"')
"""A string literal that reads as a class's qualified name: lower-case packages, a capitalised
class (``"jdbm.recman.Provider"``; not ``"a.txt"`` or ``"Foo.bar"``)."""
CONCATENATED = re.compile(rb'"\s*\+\s*"')
"""Where two string literals are joined, as a long name is split over lines."""
MAX_LOADED = 24
"""Sources compiled this way per project, at most: each costs a compilation where they do not
compile together."""
MARKER = ".loaded-by-name"
"""The file in the folder of classes compiled on demand that lists the sources compiled so."""


@lru_cache(maxsize=32)
def loaded_by_name(
    main_roots: tuple[Path, ...], scanned_roots: tuple[Path, ...], fingerprint: str
) -> tuple[Path, ...]:
    """The sources under ``main_roots`` of the classes that ``scanned_roots``' sources name in a
    string literal, at most :data:`MAX_LOADED`; the first root holding a name wins, as on javac's
    source path. ``fingerprint``: the sources' (:func:`~oracular.execution.runner.tree_fingerprint`),
    which every check computes already, so that an unchanged project is not walked twice."""
    found: dict[Path, None] = {}
    for root in scanned_roots:
        for source in sorted(root.rglob("*.java")):
            try:
                stat = source.stat()
            except OSError:
                continue
            for name in _names_in(source, stat.st_mtime_ns, stat.st_size):
                relative = Path(*name.split(".")).with_suffix(".java")
                named = next((r / relative for r in main_roots if (r / relative).is_file()), None)
                if named is not None and named != source:
                    found.setdefault(named, None)
                    if len(found) >= MAX_LOADED:
                        return tuple(found)
    return tuple(found)


@lru_cache(maxsize=65536)
def _names_in(source: Path, mtime_ns: int, size: int) -> tuple[str, ...]:
    """The qualified names ``source`` spells as string literals (read again once it changes: the
    editor asks after every edit)."""
    try:
        data = source.read_bytes()
    except OSError:
        return ()
    # "org.apache.commons.jxpath.ri.model.dynabeans." + "DynaBeanPointerFactory": one name
    joined = CONCATENATED.sub(b"", data)
    return tuple(
        dict.fromkeys(m.group(1).decode("ascii", "replace") for m in QUALIFIED_NAME.finditer(joined))
    )


Compile = Callable[[Sequence[Path]], bool]
"""javac over some sources into the folder of classes compiled on demand: whether it succeeded."""


def compile_loaded(sources: Sequence[Path], deps: Path, compile_sources: Compile) -> None:
    """Compile ``sources`` into ``deps``, all together, else each alone, unless its marker says
    that was done for these sources as they are (javac compiles on demand again what a compilation
    names once its source is newer, but nothing names these). The caller holds the locks of
    ``deps``."""
    if not sources:
        return
    marker = deps / MARKER
    wanted = "\n".join(f"{source}\t{_modified(source)}" for source in sources)  # an edit compiles again
    try:
        if marker.read_text(encoding="utf-8") == wanted:
            return
    except OSError:
        pass
    if not compile_sources(sources):
        for source in sources:
            compile_sources([source])
    deps.mkdir(parents=True, exist_ok=True)
    marker.write_text(wanted, encoding="utf-8")


def _modified(source: Path) -> int:
    try:
        return source.stat().st_mtime_ns
    except OSError:
        return 0
