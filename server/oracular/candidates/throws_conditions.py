"""Does a documented ``@throws`` condition hold on the arguments a test passes?

Why: commons-math3's methods document four or five exception types, each with its condition
(``@throws NumberIsTooSmallException if x < -0.5``, ``@throws NullArgumentException if param is
null``, ``@throws NoDataException if the coefficients array is empty``), and which one a test
expects depends on the argument it gets wrong. The type head reads the Javadoc but cannot
evaluate it; a test that calls ``Gamma.invGamma1pm1(-0.51)`` or ``g.value(0, null)`` says
plainly which condition it meets. Evaluated here on the literal arguments of the focal call
(and on locals the prefix set to a literal), the answer is one number per candidate type for
the exception prior (:class:`~oracular.models.prior.TemplatePrior`): ``1`` a condition of that
type holds, ``-1`` every condition of it could be read and none holds, ``0`` unknown.

Only texts are read (the focal context a mined sample stores, and the prefix's statements), so
training samples and a live engine problem give the same numbers.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from oracular.candidates.text import split_arguments, unquoted
from oracular.java import syntax
from oracular.java.declarations import method_info
from oracular.java.guard_calls import GuardVerdict
from oracular.java.javadoc import parse_javadoc
from oracular.java.source import parse_text

NULL = "null"


@dataclass(frozen=True)
class Argument:
    """What the test passes for one parameter, as far as its text tells."""

    number: float | None = None
    null: bool = False
    length: int | None = None
    """An array or string literal's length (``{}``, ``new double[0]``, ``""``)."""

    @property
    def known(self) -> bool:
        return self.number is not None or self.null or self.length is not None


_NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?[dDfFlL]?$")
_NEW_ARRAY = re.compile(
    r"^new\s+[\w.<>]+\s*((?:\[\s*\])+)\s*(\{.*\})?$|^new\s+[\w.<>]+\s*\[\s*(\d+)\s*\]", re.S
)
_ASSIGNED = re.compile(r"(\w+)\s*(?:\[\s*\])*\s*$")
_COMPOUND = "=<>!+-*/%&|^"
"""What before ``=`` makes it a comparison or a compound assignment, not an initialiser."""


def read_argument(text: str, locals_: dict[str, str] | None = None) -> Argument:
    """A literal argument (a number, ``null``, an array or string literal), or a local the
    prefix set to one; anything else is unknown."""
    text = " ".join(text.split())
    while text.startswith("(") and text.endswith(")") and text.count("(") == 1:
        text = text[1:-1].strip()
    if locals_ and text in locals_:
        return read_argument(locals_[text])
    if text == NULL:
        return Argument(null=True)
    if _NUMBER.match(text):
        return Argument(number=float(text.rstrip("dDfFlL")))
    if text.startswith('"') and text.endswith('"') and len(text) >= 2:
        return Argument(length=len(text) - 2)
    match = _NEW_ARRAY.match(text)
    if match is not None:
        if match.group(3) is not None:
            return Argument(length=int(match.group(3)))
        text = match.group(2) or ""
    if text.startswith("{") and text.endswith("}"):
        return Argument(length=len(split_arguments(text[1:-1])))
    return Argument()


def _locals(statements: Sequence[str]) -> dict[str, str]:
    """Locals initialised with a literal (``double[] c = {};``), the last declaration winning."""
    found: dict[str, str] = {}
    for statement in statements:
        declared = _assignment(statement.strip().rstrip(";"))
        if declared is not None and read_argument(declared[1]).known:
            found[declared[0]] = declared[1]
    return found


def _assignment(text: str) -> tuple[str, str] | None:
    """``final double[] c = {1, 2}`` -> (``c``, ``{1, 2}``): the name before the first top-level
    ``=`` (not ``==``, ``<=``...) and what follows it; ``None`` for anything else."""
    at = next(
        (
            i
            for i, ch, depth in unquoted(text)
            if ch == "=" and depth == 0 and text[i + 1 : i + 2] != "=" and text[i - 1 : i] not in _COMPOUND
        ),
        None,
    )
    if at is None or "(" in text[:at]:
        return None
    name = _ASSIGNED.search(text[:at])
    return (name.group(1), text[at + 1 :].strip()) if name is not None else None


def parameter_names(signature: str) -> list[str]:
    """``public Entry record(long amount, String label)`` -> ``["amount", "label"]``, read by the
    workspace's own parser (a mined sample keeps the focal method's signature as text only)."""
    source = parse_text(f"class OracularSignature {{\n{signature} {{}}\n}}\n")
    node = next((n for n in syntax.walk(source.root) if n.type in _DECLARATIONS), None)
    return [name for _, name in method_info(node).params] if node is not None else []


_DECLARATIONS = ("method_declaration", "constructor_declaration")


def call_arguments(statements: Sequence[str], focal: dict[str, Any]) -> list[str] | None:
    """The argument texts of the last call of the focal method (``name(`` or ``new Class(``)."""
    name = focal.get("method") or ""
    cls = focal.get("class") or ""
    pattern = (
        re.compile(rf"\bnew\s+(?:[\w.]+\.)?{re.escape(cls)}\s*(?:<[^>]*>)?\s*\(")
        if name == cls
        else re.compile(rf"(?<![\w$]){re.escape(name)}\s*\(")
    )
    for statement in reversed(statements):
        starts = [m.end() for m in pattern.finditer(statement)]
        if starts:
            return split_arguments(_balanced(statement, starts[-1]))
    return None


def _balanced(text: str, start: int) -> str:
    """The text from ``start`` to the parenthesis closing the one just before it."""
    end = next((i for i, ch, depth in unquoted(text, start) if ch == ")" and depth == 0), len(text))
    return text[start:end]


_COMPARISONS: dict[str, Callable[[float, float], bool]] = {
    "<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt, "==": operator.eq,
    "!=": operator.ne, "≤": operator.le, "≥": operator.ge,
}  # fmt: skip
_OPERAND = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[A-Za-z_]\w*(?:\.length)?"
_COMPARISON = re.compile(rf"({_OPERAND})\s*(<=|>=|==|!=|<|>|≤|≥)\s*({_OPERAND})")
_SUBJECT = r"((?:[A-Za-z_]\w*\s*(?:,|\bor\b|\band\b)\s*)*[A-Za-z_]\w*)"
_SIGNED = re.compile(rf"\b{_SUBJECT}\s+(?:is|are)\s+(not\s+)?(?:strictly\s+)?(negative|positive|zero)\b")
"""``x is negative``, ``n or m is not strictly positive``."""
_RANGE = re.compile(rf"\b(?:outside|not in|out of)\b[^\[(]*[\[(]\s*({_OPERAND})\s*,\s*({_OPERAND})\s*[\])]")
_NULL = re.compile(r"\b(?:is|are|be|was|were)\s+null\b|==\s*null\b")
"""A null reference (``if name is null``), not a null character (``such as a null``)."""
_EMPTY = re.compile(r"\b(empty|zero length|zero-length|no data|length (?:is )?(?:0|zero))\b")


def _value(operand: str, arguments: dict[str, Argument]) -> float | None:
    if _NUMBER.match(operand):
        return float(operand.rstrip("dDfFlL"))
    name, _, length = operand.partition(".")
    argument = arguments.get(name)
    if argument is None:
        return None
    return float(argument.length) if length and argument.length is not None else argument.number


def _any(verdicts: list[bool | None]) -> bool | None:
    """True if one holds, False if all are known not to, else unknown."""
    if any(v is True for v in verdicts):
        return True
    return False if verdicts and all(v is False for v in verdicts) else None


def _signed(match: re.Match[str], arguments: dict[str, Argument]) -> bool | None:
    """ "strictly" changes nothing: "positive" is > 0, so "not (strictly) positive" is <= 0."""
    negated, word = bool(match.group(2)), match.group(3)
    verdicts: list[bool | None] = []
    for name in re.findall(r"[A-Za-z_]\w*", match.group(1)):
        argument = arguments.get(name)
        if argument is not None:
            x = argument.number
            holds = None if x is None else {"negative": x < 0, "zero": x == 0, "positive": x > 0}[word]
            verdicts.append(None if holds is None else holds != negated)
    return _any(verdicts)


def _subjects(condition: str, arguments: dict[str, Argument]) -> list[Argument]:
    """The arguments of the parameters a condition names (``aKey`` names ``key``: Javadoc often
    spells a parameter with an article); the only one of a one-parameter method; all of them
    when it names none but speaks of "any" or "either" of them."""
    words = set(re.findall(r"[A-Za-z_$][\w$]*", condition))
    named = [
        a
        for name, a in arguments.items()
        if name in words or any(w.endswith(name[:1].upper() + name[1:]) for w in words)
    ]
    if named:
        return named
    if len(arguments) == 1 or re.search(r"\b(any|either)\b", condition):
        return list(arguments.values())
    return []


def condition_holds(condition: str, arguments: dict[str, Argument]) -> bool | None:
    """Whether a ``@throws`` condition holds on ``arguments`` (parameter name -> argument):
    ``True`` if any check it states holds, ``False`` if it states some and each is known not to
    hold, ``None`` if none could be evaluated. Checks: comparisons (``k > n``, ``x < -0.5``),
    signs (``n is not strictly positive``), a range (``outside the [0, 1] range``), ``null`` and
    emptiness (``if either name or value is null or empty``) of the parameters it names."""
    verdicts: list[bool | None] = []
    for left, op, right in _COMPARISON.findall(condition):
        a, b = _value(left, arguments), _value(right, arguments)
        verdicts.append(None if a is None or b is None else _COMPARISONS[op](a, b))
    verdicts += [_signed(m, arguments) for m in _SIGNED.finditer(condition)]
    ranged = _RANGE.search(condition)
    numbers = [a.number for a in arguments.values() if a.number is not None]
    if ranged is not None and len(numbers) == 1:  # "if the ratio is outside the [0, 1] range"
        low, high = _value(ranged.group(1), arguments), _value(ranged.group(2), arguments)
        if low is not None and high is not None:
            verdicts.append(not low <= numbers[0] <= high)
    subjects = _subjects(condition, arguments)
    if _NULL.search(condition) and not re.search(r"\bnot null\b|\bnon-null\b", condition):
        verdicts.append(_any([True if a.null else (False if a.known else None) for a in subjects]))
    if _EMPTY.search(condition):
        verdicts.append(_any([None if a.length is None else a.length == 0 for a in subjects]))
    return _any(verdicts)


def condition_signals(
    focal: dict[str, Any] | None, statements: Sequence[str], types: Sequence[str]
) -> list[float]:
    """Per exception type: ``1`` a documented condition of it holds on the focal call's
    arguments, ``-1`` its conditions could all be read and none holds, ``0`` unknown (no
    Javadoc, no such ``@throws``, arguments that are not literals). Where the code's own opening
    guards decide (``focal["guards"]``, :class:`~oracular.java.guard_calls.GuardVerdict`), the
    code wins over its documentation."""
    signals = _documented(focal, statements, types)
    if focal and focal.get("guards"):
        verdict = GuardVerdict.from_json(focal["guards"])
        signals = [verdict.signal(t) or s for t, s in zip(types, signals, strict=True)]
    return signals


def _documented(focal: dict[str, Any] | None, statements: Sequence[str], types: Sequence[str]) -> list[float]:
    signals = [0.0] * len(types)
    if not focal or not focal.get("javadoc"):
        return signals
    texts = call_arguments(statements, focal)
    names = parameter_names(focal.get("signature") or "")
    if texts is None or not names:
        return signals
    locals_ = _locals(statements)
    arguments = {n: read_argument(t, locals_) for n, t in zip(names, texts, strict=False)}
    clauses: dict[str, list[str]] = {}
    for clause in parse_javadoc(focal["javadoc"]).throws:
        clauses.setdefault(clause.simple, []).append(clause.condition)
    for i, exception in enumerate(types):
        met = _any([condition_holds(c, arguments) for c in clauses.get(exception.rsplit(".", 1)[-1], [])])
        signals[i] = 0.0 if met is None else 1.0 if met else -1.0
    return signals
