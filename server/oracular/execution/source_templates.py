"""Sources a build fills from templates (``PackageVersion.java.in``), filled as the build would.

Why: a project whose build generates a source is observable once that source exists. Jackson's
modules write ``PackageVersion.java`` from ``PackageVersion.java.in`` (``@package@``,
``@projectversion@``, ``@projectgroupid@``, ``@projectartifactid@``, maven-replacer-plugin), and
every class naming it fails to compile from the tree alone: on the train projects
jackson-dataformat-cbor and -smile observed no test (their distribution packages another version,
so no packaged build stands in). A template's ``@name@`` tokens are filled from its module's POM
(a property by its name, or by its name without dots in lower case, as ``projectversion``) and
from its package; a template with a token left unknown is left alone (no guessed source).

The filled sources go to a folder of Oracular's cache, one per workspace, never into the
workspace; :func:`oracular.execution.classpath.scan_layout` adds it as a main source root and
keeps the filled files (``Layout.filled``: what a run's key and the classpath's note name).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from oracular.cache import write_atomically
from oracular.execution.poms import read_pom
from oracular.execution.toolchain import cache_root

SUFFIX = ".java.in"
TOKEN = re.compile(r"@([A-Za-z][\w.]*)@")


def template_values(pom: Path | None) -> dict[str, str]:
    """The values a template's tokens take from ``pom``: each property by its name and by its
    name without dots in lower case (``project.version``, ``projectversion``), the artifact's
    coordinates likewise."""
    properties, _, own = read_pom(pom) if pom is not None else ({}, [], None)
    named = dict(properties)
    if own is not None:
        named["project.groupId"], named["project.artifactId"] = own
    values = dict(named)
    for name, value in named.items():
        values.setdefault(name.replace(".", "").lower(), value)
    return values


def fill(text: str, values: Mapping[str, str]) -> str | None:
    """``text`` with every ``@name@`` token replaced, or ``None`` if one is unknown."""
    unknown = [m.group(1) for m in TOKEN.finditer(text) if m.group(1) not in values]
    if unknown:
        return None
    return TOKEN.sub(lambda m: values[m.group(1)], text)


def generated_root(workspace: Path) -> Path:
    """The cache folder holding ``workspace``'s filled sources."""
    digest = hashlib.sha256(str(workspace.resolve()).encode()).hexdigest()[:16]
    return cache_root() / "generated-sources" / digest


def fill_templates(
    workspace: Path, templates: Sequence[Path], source_roots: Sequence[Path], modules: Sequence[Path]
) -> tuple[Path, ...]:
    """Fill each of ``templates`` (under one of ``source_roots``) whose source the tree lacks, with
    the POM of the innermost of ``modules`` holding it, under :func:`generated_root`; the filled
    sources. What an earlier fill left there and this one did not write goes (a template since
    removed must not compile on)."""
    out = generated_root(workspace)
    filled: list[Path] = []
    for template in templates:
        root = _innermost(template, source_roots)
        if root is None:
            continue
        relative = template.relative_to(root).with_name(template.name.removesuffix(".in"))
        if any((r / relative).is_file() for r in source_roots):
            continue  # the build's output, or the developer's own
        module = _innermost(template, modules)
        pom = module / "pom.xml" if module is not None and (module / "pom.xml").is_file() else None
        values = {**template_values(pom), "package": ".".join(relative.parent.parts)}
        try:
            text = fill(template.read_text(encoding="utf-8"), values)
        except (OSError, UnicodeDecodeError):
            continue
        if text is None:
            continue
        target = out / relative
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            write_atomically(target, text)
        filled.append(target)
    for stale in set(out.rglob("*.java")).difference(filled) if out.is_dir() else ():
        stale.unlink(missing_ok=True)
    return tuple(filled)


def _innermost(path: Path, folders: Sequence[Path]) -> Path | None:
    """The deepest of ``folders`` holding ``path``."""
    return max((f for f in folders if path.is_relative_to(f)), key=lambda f: len(f.parts), default=None)
