"""Javadoc parsing: the parts an oracle needs (summary, ``@return``, ``@throws``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_TAG = re.compile(r"^@(\w+)\s*(.*)$")
_INLINE = re.compile(r"\{@(?:code|link|linkplain|literal)\s+([^}]*)\}")
_HTML = re.compile(r"</?[a-zA-Z][^>]*>")


@dataclass(frozen=True)
class ThrowsClause:
    exception: str
    condition: str

    @property
    def simple(self) -> str:
        """``java.util.EmptyStackException`` -> ``EmptyStackException``."""
        return self.exception.rsplit(".", 1)[-1]


@dataclass(frozen=True)
class Javadoc:
    summary: str
    description: str
    returns: str | None = None
    throws: tuple[ThrowsClause, ...] = field(default_factory=tuple)
    params: tuple[tuple[str, str], ...] = field(default_factory=tuple)

    def render(self) -> str:
        """A compact plain-text form for model inputs and hovers."""
        parts = [self.description] if self.description else []
        parts += [f"@param {name} {desc}".strip() for name, desc in self.params]
        if self.returns:
            parts.append(f"@return {self.returns}")
        parts += [f"@throws {t.exception} {t.condition}".strip() for t in self.throws]
        return "\n".join(parts)


def _clean(line: str) -> str:
    line = _INLINE.sub(r"\1", line)
    return " ".join(_HTML.sub("", line).split())


def parse_javadoc(comment: str) -> Javadoc:
    """Split a ``/** */`` comment into description and block tags."""
    body = comment.strip()
    body = body.removeprefix("/**").removesuffix("*/")
    lines = [re.sub(r"^\s*\*?\s?", "", raw) for raw in body.splitlines()]
    description: list[str] = []
    tags: list[tuple[str, str]] = []
    for line in lines:
        match = _TAG.match(line.strip())
        if match:
            tags.append((match.group(1), match.group(2)))
        elif tags:
            name, value = tags[-1]
            tags[-1] = (name, f"{value} {line.strip()}")
        else:
            description.append(line.strip())
    desc = _clean(" ".join(description))
    summary = re.split(r"(?<=\.)\s", desc, maxsplit=1)[0] if desc else ""
    returns = None
    throws: list[ThrowsClause] = []
    params: list[tuple[str, str]] = []
    for name, value in tags:
        value = _clean(value)
        if name == "return":
            returns = value
        elif name in ("throws", "exception"):
            exc, _, cond = value.partition(" ")
            throws.append(ThrowsClause(exc, cond.strip()))
        elif name == "param":
            pname, _, pdesc = value.partition(" ")
            params.append((pname, pdesc.strip()))
    return Javadoc(summary, desc, returns, tuple(throws), tuple(params))
