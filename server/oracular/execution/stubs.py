"""Methods an interface gained since a test's class was written, stubbed so the class compiles.

Why: test sources of older projects implement interfaces that have grown abstract methods since:
commons-dbcp's ``TesterConnection implements java.sql.Connection`` predates ``getNetworkTimeout()``
(Java 7), so on this JDK "TesterConnection is not abstract and does not override abstract method
getNetworkTimeout() in java.sql.Connection", and no test of the project compiles, though none
calls what was added after it was written. The same happens where a member was left out for what
does not compile here (:mod:`oracular.execution.pruning`: commons-httpclient's socket factory
without its ``com.sun.net.ssl`` method). A stub that throws ``UnsupportedOperationException`` is
what such a class did before: no code of its time could call the method.

The signature is read where the interface is declared: its source on the source path, else its
class file (the JDK's, a jar's) through ``javap``. A generic interface's method whose types name
the interface's own type parameters is left alone: what they are bound to is the class's business.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tree_sitter import Node

from oracular.java import syntax
from oracular.java.source import parse_text

MISSING = re.compile(
    r"^(?P<cls>[\w.$]+) is not abstract and does not override abstract method "
    r"(?:<.*?>)?(?P<name>[\w$]+)\((?P<params>.*)\) in (?P<owner>[\w.$]+)$"
)
STUB_BODY = "{ throw new UnsupportedOperationException(); }"
PARAMETERS = frozenset({"formal_parameter", "spread_parameter"})
JAVAP_TIMEOUT_S = 30.0

Signatures = Callable[[str, str, str], "str | None"]
"""``(interface, method, parameter types)`` -> the method's declaration head as Java writes it
(``public int getNetworkTimeout() throws java.sql.SQLException``), or ``None``."""


@dataclass(frozen=True)
class Stub:
    """A method to add to the class ``simple_name`` declares: its whole text, on one line."""

    simple_name: str
    text: str


_QUALIFIER = re.compile(r"\b[a-z_$][\w$]*\.")


def shape(types: Sequence[str]) -> str:
    """Parameter types as one comparable text: no spaces, no package (``String,Class<T>``); javac's
    message qualifies them, a source file may not."""
    text = ",".join("".join(t.split()) for t in types)
    while _QUALIFIER.search(text):
        text = _QUALIFIER.sub("", text)
    return text


def stub_for(message: str, signature_of: Signatures) -> Stub | None:
    """The stub a javac error asks for (:data:`MISSING`), if the interface's method can be read."""
    match = MISSING.match(message.strip().splitlines()[0] if message.strip() else "")
    if match is None:
        return None
    head = signature_of(match["owner"], match["name"], shape(_split(match["params"])))
    if head is None:
        return None
    simple = match["cls"].rsplit(".", 1)[-1].rsplit("$", 1)[-1]
    return Stub(simple, f"{head} {STUB_BODY}")


_JAVAP_METHOD = re.compile(
    r"^\s*(?:public |protected )?abstract (?P<generics><.*?> )?(?P<ret>[\w.$<>\[\], ?]+?) "
    r"(?P<name>[\w$]+)\((?P<params>.*)\)(?P<throws> throws [\w.$, ]+)?;$"
)


def head_from_javap(output: str, name: str, types: str) -> str | None:
    """The public declaration head of ``name`` taking ``types`` (:func:`shape`) from ``javap
    -public``'s listing of an interface or abstract class (its parameters named ``p0``, ``p1``...)."""
    for line in output.splitlines():
        match = _JAVAP_METHOD.match(line)
        params = _split(match["params"]) if match is not None else []
        if match is None or match["name"] != name or shape(params) != types:
            continue
        named = ", ".join(f"{t} p{i}" for i, t in enumerate(params))
        return _public_head(match["generics"] or "", match["ret"], name, named, match["throws"] or "")
    return None


def _split(params: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(params):
        depth += ch == "<"
        depth -= ch == ">"
        if ch == "," and depth == 0:
            parts.append(params[start:i].strip())
            start = i + 1
    tail = params[start:].strip()
    return [*parts, tail] if tail else parts


def _public_head(generics: str, ret: str, name: str, params: str, throws: str) -> str:
    return f"public {generics}{ret} {name}({params}){throws}"


def head_from_source(text: str, owner: str, name: str, types: str) -> str | None:
    """The declaration head of ``name`` taking ``types`` (:func:`shape`) in the source of
    ``owner`` (its simple name), made public (an interface's methods are)."""
    root = parse_text(text).root
    simple = owner.rsplit(".", 1)[-1].rsplit("$", 1)[-1]
    for node in syntax.walk(root):
        if node.type not in ("interface_declaration", "class_declaration"):
            continue
        if syntax.text(node.child_by_field_name("name")) != simple:
            continue
        body = node.child_by_field_name("body")
        for member in body.named_children if body is not None else []:
            if member.type != "method_declaration":
                continue
            if syntax.text(member.child_by_field_name("name")) != name:
                continue
            parameters = member.child_by_field_name("parameters")
            declared = [p for p in parameters.named_children if p.type in PARAMETERS]
            if shape([_parameter_type(p) for p in declared]) != types:
                continue
            generics = member.child_by_field_name("type_parameters")
            throws = next((c for c in member.children if c.type == "throws"), None)
            return _public_head(
                f"{syntax.text(generics)} " if generics is not None else "",
                syntax.text(member.child_by_field_name("type")),
                name,
                ", ".join(" ".join(syntax.text(p).split()) for p in declared),
                f" {syntax.text(throws)}" if throws is not None else "",
            )
    return None


def _parameter_type(parameter: Node) -> str:
    """A declared parameter's type as javac names it: ``String... names`` is ``String...``."""
    kind = parameter.child_by_field_name("type") or next(
        (c for c in parameter.named_children if c.type != "modifiers"), None
    )
    text = syntax.text(kind) if kind is not None else ""
    return f"{text}..." if parameter.type == "spread_parameter" else text


def signatures(sourcepath: Sequence[Path], classpath: Sequence[Path], javap: Path | None) -> Signatures:
    """Where :func:`stub_for` reads an interface's methods: its source on ``sourcepath`` (a
    top-level type's file), else ``javap`` over ``classpath``."""

    def signature_of(owner: str, name: str, types: str) -> str | None:
        top = owner.split("$", 1)[0]
        relative = Path(*top.split(".")).with_suffix(".java")
        for root in sourcepath:
            if (root / relative).is_file():
                text = (root / relative).read_text(encoding="utf-8", errors="replace")
                return head_from_source(text, owner, name, types)
        if javap is None:
            return None
        try:
            listing = subprocess.run(
                [str(javap), "-public", "-cp", ":".join(map(str, classpath)), owner],
                capture_output=True, text=True, timeout=JAVAP_TIMEOUT_S, check=False,
            ).stdout  # fmt: skip
        except (OSError, subprocess.SubprocessError):
            return None
        head = head_from_javap(listing, name, types)
        type_params = re.search(rf"(?:interface|class) {re.escape(owner)}<(.*?)>", listing)
        if head is not None and type_params is not None:
            names = {p.split()[0] for p in type_params.group(1).split(",")}
            if any(re.search(rf"(?<![\w.]){re.escape(n)}(?![\w.])", head) for n in names):
                return None  # bound by the class: not ours to guess
        return head

    return signature_of


def with_stubs(data: bytes, stubs: Sequence[Stub]) -> bytes:
    """``data`` with each stub added to its class, on the line of the class's closing brace (so
    javac's line numbers still name the same lines)."""
    if not stubs:
        return data
    root = parse_text(data.decode("utf-8", "replace")).root
    inserts: list[tuple[int, bytes]] = []
    for node in syntax.walk(root):
        if node.type not in ("class_declaration", "enum_declaration"):
            continue
        simple = syntax.text(node.child_by_field_name("name"))
        texts = [s.text for s in stubs if s.simple_name == simple]
        body = node.child_by_field_name("body")
        if texts and body is not None:
            inserts.append((body.end_byte - 1, (" " + " ".join(texts) + " ").encode("utf-8")))
    out, cursor = [], 0
    for at, text in sorted(inserts):
        out += [data[cursor:at], text]
        cursor = at
    out.append(data[cursor:])
    return b"".join(out)
