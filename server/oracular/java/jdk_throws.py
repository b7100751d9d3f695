"""What the JDK's common methods document to throw, for a throwing statement's JDK calls.

Why: a statement that throws through no workspace method (``future.get()``, ``ps.execute()``,
``Integer.parseInt(s)``, ``it.next()``) offered no exception type but ``Exception``, though the
JDK says what each throws: ``ExecutionException`` and ``CancellationException``,
``SQLException``, ``NumberFormatException``, ``NoSuchElementException``. The table
(``jdk_throws.json``, written by ``scripts/jdk_throws.py`` from the JDK's own sources) holds,
per public class of the packages tests use most, its supertypes and the types each method's
``throws`` clause and Javadoc name, by overload; a method a class inherits is looked up in its
supertypes.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from oracular.java.declarations import unique_types
from oracular.java.types import base_name

TABLE_PATH = Path(__file__).with_name("jdk_throws.json")
CONSTRUCTOR = "<init>"


@cache
def _table() -> dict[str, dict]:
    try:
        return json.loads(TABLE_PATH.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def documented_throws(type_text: str, method: str, arguments: int | None = None) -> list[str]:
    """The types the JDK documents ``method`` of ``type_text`` (``Future<String>``,
    ``java.sql.ResultSet``) to throw, its own class first, else the nearest supertype's that
    declares it; of the overloads taking ``arguments`` (or varargs) where that is given, since
    ``Integer.parseInt(s)`` is not ``parseInt(s, begin, end, radix)``; ``[]`` for a type or method
    the table does not hold."""
    table = _table()
    queue = [base_name(type_text)]  # the table is keyed by simple names
    seen: set[str] = set()
    while queue:
        name = queue.pop(0)
        entry = table.get(name)
        if name in seen or entry is None:
            continue
        seen.add(name)
        overloads = entry["methods"].get(method)
        if overloads:
            fitting = [t for arity, t in overloads if arguments is None or arity in (arguments, -1)]
            return unique_types([t for types in fitting for t in types])
        if method != CONSTRUCTOR:
            queue += entry["supertypes"]
    return []
