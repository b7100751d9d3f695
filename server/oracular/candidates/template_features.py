"""What a template's text, the prefix and the test's name say about it, as a few numbers.

Why: the network reads the prefix and the focal method but never the test's name, and what it
learnt about the shape of a good oracle (a getter of the object the last statement changed, not
``assertNotNull`` on an object the prefix just built) came from a few thousand samples. These
features let a linear prior (:mod:`oracular.models.prior`), fitted on far more train samples
than the network sees, add that knowledge to the network's template logits.

Everything is read from texts (the template, the prefix's statements, the test's name), so the
training samples (JSON) and a live engine problem give the same numbers. The shipped prior's
weights were fitted on exactly these numbers: a change to any feature needs the prior re-fitted
(``oracular train prior``), and ``tests/candidates/test_template_features.py`` pins them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from oracular.candidates.text import split_arguments
from oracular.candidates.throws_conditions import condition_signals
from oracular.java.assertions import NULL_CHECKS, WRITTEN
from oracular.java.identifiers import identifier_words, test_name_words
from oracular.java.neighbours import member_path

ASSERTIONS = WRITTEN

FEATURES = (
    *(f"is_{name}" for name in ASSERTIONS),
    "name_overlap",  # share of the target's words that the test's name uses
    "name_mentions",  # the test's name uses one of the target's words
    "name_null",  # a null check, and the test's name says "null"
    "variable",  # the target is a plain variable
    "call",  # the target ends with a call
    "call_arguments",  # text inside its first call's parentheses: arguments, or a chain after it
    "field",  # the target is a field read
    "depth",  # dots in the target (capped at 3), over 3
    "getter",  # the target's first call is get*/is*/has* (``a.getB().size()``: getB)
    "size_like",  # ... is size/length/count/isEmpty (or, without a call, its last field is length)
    "to_string",  # ... is toString
    "identity_method",  # ... is hashCode/getClass
    "base_last",  # the target's variable is mentioned by the last statement
    "base_recency",  # 1 / (1 + statements since the target's variable was last mentioned)
    "base_declared_last",  # the last statement declares or assigns the target's variable
    "in_prefix",  # the target's text (a call) already appears in the prefix
    "built_fresh",  # a null check of a variable the prefix built with `new` (cannot fail)
    "base_unmentioned",  # the target reads off a variable no statement names (a test-class fixture)
    "alike",  # the target reads a member path the file's other tests assert on (java/neighbours.py)
    "alike_after_action",  # ... and the prefix ends with an action, not by computing a value
    "position",  # the target's place in the engine's order, 0 (first) to 1 (last)
    "log_position",  # log(1 + place)
)

_HEAD = re.compile(r"^(\w+)\((.*)\);?$", re.S)
_BASE = re.compile(r"^[A-Za-z_$][\w$]*")
_FIRST_CALL = re.compile(r"\.?([A-Za-z_$][\w$]*)\((.*)\)$", re.S)
_GETTER = re.compile(r"^(get|is|has)([A-Z0-9_]|$)")
_SIZE_LIKE = frozenset({"size", "length", "count", "isEmpty", "getSize", "getLength", "getCount"})


@dataclass(frozen=True)
class Template:
    assertion: str
    target: str


def parse_template(text: str) -> Template | None:
    """``assertEquals(?, s.size())`` -> (``assertEquals``, ``s.size()``); the target is the last argument."""
    match = _HEAD.match(text.strip())
    if match is None:
        return None
    arguments = split_arguments(match.group(2))
    return Template(match.group(1), arguments[-1]) if arguments else None


_THROWN = re.compile(r"^assertThrows\(([\w.$]+)\.class")
_FAILURE_GLUE = frozenset({"exception", "error", "illegal", "argument"})


def thrown_type(text: str) -> str | None:
    """``assertThrows(DimensionMismatchException.class)`` -> ``DimensionMismatchException``."""
    match = _THROWN.match(text)
    return match.group(1) if match else None


def named_failure(text: str, tested: set[str]) -> float:
    """The share of an exception candidate's type words (``DimensionMismatchException``:
    dimension, mismatch) that the test's name says (``testDimensionMismatch``); 0 for any
    other text. Tests are often named for the failure they expect, and among commons-math3's
    five candidate types the type head cannot tell which argument is the wrong one."""
    thrown = thrown_type(text)
    words = identifier_words(thrown.rsplit(".", 1)[-1]) - _FAILURE_GLUE if thrown else set()
    return len(words & tested) / len(words) if words else 0.0


class TemplateContext:
    """What every template of one test shares: the prefix's statements, the test's name, what the
    file's other tests assert on (``asserted``: member paths), whether the prefix ends by
    computing a value (:attr:`~oracular.java.prefix.PrefixAnalysis.computes_value`) and the focal
    method's context (:func:`~oracular.models.inputs.focal_context`: its signature and Javadoc)."""

    def __init__(
        self,
        statements: Sequence[str],
        test_name: str,
        asserted: frozenset[str] = frozenset(),
        computes_value: bool = False,
        focal: dict[str, Any] | None = None,
    ) -> None:
        self.statements = list(statements)
        self.tested = test_name_words(test_name)
        self.asserted = asserted
        self.computes_value = computes_value
        self.focal = focal
        self.prefix_text = "\n".join(self.statements)
        self._facts: dict[str, tuple[int | None, bool, bool]] = {}

    @classmethod
    def of_sample(cls, sample: dict, statements: Sequence[str]) -> TemplateContext:
        """The context of a mined sample (JSON); samples mined before the habit fields have none."""
        return cls(
            statements,
            sample["test"],
            frozenset(sample.get("asserted", ())),
            sample.get("computes_value", False),
            sample.get("focal"),
        )

    def exception_conditions(self, templates: Sequence[str]) -> list[float]:
        """Per template, whether the focal method documents its exception type with a condition
        that the focal call's arguments meet (:func:`condition_signals`); 0 for assertions."""
        types = [thrown_type(text) or "" for text in templates]
        return condition_signals(self.focal, self.statements, types)

    def _base_facts(self, base: str) -> tuple[int | None, bool, bool]:
        """For the target's variable: statements since it was last mentioned (0: by the last
        statement), whether the last statement assigns it, whether the prefix built it with
        ``new``. Once per variable: a test's templates share a few."""
        facts = self._facts.get(base)
        if facts is None:
            name = rf"(?<![\w$.]){re.escape(base)}"
            mention = re.compile(rf"{name}(?![\w$])")
            mentions = (d for d, text in enumerate(reversed(self.statements)) if mention.search(text))
            distance = next(mentions, None)
            final = self.statements[-1] if self.statements else ""
            declared = re.search(rf"{name}\s*=[^=]", final) is not None
            fresh = any(re.search(rf"{name}\s*=\s*new\s", s) for s in self.statements)
            facts = self._facts[base] = (distance, declared, fresh)
        return facts

    def features(self, templates: Sequence[str], order: Sequence[str] | None = None) -> list[list[float]]:
        """One feature vector (:data:`FEATURES`) per template.

        ``order``: the engine's static templates in its order of targets (the order a training
        sample's candidates are in, and the default); a template's place is its target's place
        there, so the candidates observed values add first at run time do not move it.
        """
        targets: dict[str, int] = {}
        for text in order if order is not None else templates:
            parsed = parse_template(text)
            if parsed is not None:
                targets.setdefault(parsed.target, len(targets))
        last = max(1, len(targets) - 1)
        return [self._one(text, targets, last) for text in templates]

    def _one(self, text: str, targets: dict[str, int], last: int) -> list[float]:
        parsed = parse_template(text)
        if parsed is None:
            return [0.0] * (len(FEATURES) - 2) + [1.0, math.log1p(last)]
        target = parsed.target
        place = targets.get(target, last)
        base_match = _BASE.match(target)
        base = base_match.group(0) if base_match else ""
        words = identifier_words(target)
        overlap = len(words & self.tested)
        call = _FIRST_CALL.search(target) if target.endswith(")") else None
        variable = bool(base) and base == target
        distance, declared, fresh = self._base_facts(base) if base else (None, False, False)
        null_check = parsed.assertion in NULL_CHECKS
        alike = member_path(target) in self.asserted
        values = [
            *(float(parsed.assertion == name) for name in ASSERTIONS),
            overlap / len(words) if words else 0.0,
            float(overlap > 0),
            float(null_check and "null" in self.tested),
            float(variable),
            float(call is not None),
            float(call is not None and call.group(2).strip() != ""),
            float(not variable and call is None and "." in target),
            min(target.count("."), 3) / 3,
            float(call is not None and _GETTER.match(call.group(1)) is not None),
            float((call.group(1) if call is not None else target.rsplit(".", 1)[-1]) in _SIZE_LIKE),
            float(call is not None and call.group(1) == "toString"),
            float(call is not None and call.group(1) in ("hashCode", "getClass")),
            float(distance == 0),
            1.0 / (1 + distance) if distance is not None else 0.0,
            float(declared),
            float(call is not None and target in self.prefix_text),
            float(null_check and variable and fresh),
            float(not variable and base[:1].islower() and distance is None),
            float(alike),
            float(alike and not self.computes_value),
            min(place, last) / last,
            math.log1p(place),
        ]
        return values
