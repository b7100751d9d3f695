"""What the file's other tests assert on, as member paths: ``.getDeltas().size()``, ``.str``, ``.has()``.

Why: the tests of one file check the same unit the same way. Where its other tests assert
``options.has(...)``, ``diff.similar()`` or a bean's field, an oracle-free test beside them most
likely wants the same read, and the ranker, which sees one test at a time, cannot know it. A path
keeps the members read after the base variable, without their arguments, so that it matches a
target of another test whatever its variable and arguments are called.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from oracular.java import syntax
from oracular.java.junit import TestMethod
from oracular.java.oracles import is_oracle_call

_BASE = re.compile(r"\s*(?:this\s*\.\s*)?[A-Za-z_$][\w$]*")
_PATH = re.compile(r"^(?:\.[A-Za-z_$][\w$]*(?:\(\))?)+$")


def member_path(expression: str) -> str | None:
    """``a.getB(x).size()`` -> ``.getB().size()``; ``None`` for anything but members read off a
    variable (a literal, a plain variable, an operator, an array element, a cast)."""
    base = _BASE.match(expression)
    if base is None:
        return None
    kept: list[str] = []
    depth = 0
    for ch in "".join(expression[base.end() :].split()):
        if ch == "(":
            depth += 1
            if depth == 1:
                kept.append(ch)
        elif ch == ")":
            depth -= 1
            if depth == 0:
                kept.append(ch)
        elif depth == 0:
            kept.append(ch)
    path = "".join(kept)
    return path if depth == 0 and _PATH.match(path) else None


def asserted_paths(tests: Iterable[TestMethod], extra: frozenset[str] = frozenset()) -> frozenset[str]:
    """The member paths of the arguments of every assertion call in ``tests``' bodies
    (``assertEquals(1, p.getDeltas().size())``, AssertJ's ``assertThat(bean.str)``). An
    oracle-free test has none of its own, so passing all of a file's tests is fine."""
    found: set[str] = set()
    for test in tests:
        body = test.node.child_by_field_name("body")
        if body is None:
            continue
        for node in syntax.walk_skipping_classes(body):
            if node.type != "method_invocation" or not is_oracle_call(syntax.call_name(node), extra):
                continue
            arguments = node.child_by_field_name("arguments")
            for argument in arguments.named_children if arguments is not None else ():
                path = member_path(syntax.text(argument))
                if path is not None:
                    found.add(path)
    return frozenset(found)
