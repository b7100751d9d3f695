"""Write the table of what the JDK's common methods document to throw (``java/jdk_throws.json``).

Why: a throwing statement that calls no workspace method (``future.get()``, ``ps.execute()``,
``Integer.parseInt(s)``, ``Collections.unmodifiableList(xs).add(x)``) offered no exception type
but ``Exception``, though the JDK says what each of these throws. This reads the JDK's own
sources (``lib/src.zip`` of the JDK that runs it) with Oracular's declaration extractor and keeps,
per public class of the packages tests use most, its supertypes and, per public method name and
overload (by its number of parameters), the types its ``throws`` clause and Javadoc ``@throws``
tags name, in the order written. ``NullPointerException`` and ``ClassCastException`` are left
out: the JDK documents them on nearly every method taking an object, and a ``null`` argument
already offers the first (:data:`oracular.java.prefix.NULL_ARGUMENT_TYPES`).

    apt-get install openjdk-17-source    # the JDK's src.zip
    .venv/bin/python scripts/jdk_throws.py [--src /usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip]
"""

from __future__ import annotations

import argparse
import json
import zipfile
from pathlib import Path

from oracular.java.declarations import ClassInfo, MethodInfo, extract, unique_types
from oracular.java.jdk_throws import CONSTRUCTOR, TABLE_PATH
from oracular.java.source import decode_java, parse_text
from oracular.java.types import base_name

PACKAGES = (
    "java.base/java/lang/", "java.base/java/util/", "java.base/java/util/concurrent/",
    "java.base/java/io/", "java.base/java/nio/", "java.base/java/nio/file/",
    "java.base/java/nio/charset/", "java.base/java/net/", "java.base/java/time/",
    "java.base/java/time/format/", "java.base/java/text/", "java.base/java/util/regex/",
    "java.base/java/math/", "java.sql/java/sql/",
)  # fmt: skip
"""Folders of ``src.zip`` read, each without its subfolders."""
LEFT_OUT = frozenset({"NullPointerException", "ClassCastException", "Exception", "Throwable", "Error"})


def _arity(method: MethodInfo) -> int:
    """The number of arguments a call passes, ``-1`` for a method taking varargs."""
    return -1 if any(p.endswith("...") for p, _ in method.params) else len(method.params)


def _entry(cls: ClassInfo) -> dict[str, object] | None:
    methods: dict[str, list[tuple[int, list[str]]]] = {}
    for method in cls.methods:
        if "public" not in method.modifiers and cls.kind != "interface":
            continue
        declared = [t.exception for t in method.javadoc.throws] if method.javadoc else []
        types = [base_name(t) for t in unique_types(declared + list(method.throws))]
        kept = [t for t in types if t not in LEFT_OUT and t[:1].isupper()]
        name = CONSTRUCTOR if method.is_constructor else method.name
        methods.setdefault(name, []).append((_arity(method), kept))
    methods = {name: overloads for name, overloads in methods.items() if any(t for _, t in overloads)}
    supertypes = [base_name(t) for t in (cls.superclass, *cls.interfaces) if t]
    if not methods and not supertypes:
        return None
    return {"supertypes": supertypes, "methods": methods}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", type=Path, default=Path("/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip"))
    parser.add_argument("--out", type=Path, default=TABLE_PATH)
    args = parser.parse_args()
    table: dict[str, dict[str, object]] = {}
    with zipfile.ZipFile(args.src) as archive:
        for name in sorted(archive.namelist()):
            folder, _, file = name.rpartition("/")
            if f"{folder}/" not in PACKAGES or not file.endswith(".java") or "-" in file:
                continue
            source = parse_text(decode_java(archive.read(name), lenient=True, name=name))
            for cls in extract(source, name, openings=False).classes:
                top_level = cls.name == file.removesuffix(".java")  # the first of a name: java.util's Date
                if top_level and cls.name not in table and (entry := _entry(cls)) is not None:
                    table[cls.name] = entry
    args.out.write_text(json.dumps(table, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    methods = sum(len(e["methods"]) for e in table.values())  # type: ignore[arg-type]
    print(f"{len(table)} classes, {methods} method names with documented exceptions -> {args.out}")


if __name__ == "__main__":
    main()
