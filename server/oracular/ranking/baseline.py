"""The baseline ranker: a documented heuristic every model is compared against.

Exception stage: a prefix is predicted to throw when the focal method documents an exception
whose condition the prefix visibly meets: a ``null`` argument and a null condition, a negative
literal and a "negative" condition, or a call on a freshly built, untouched receiver and an
"empty" condition. Otherwise the probability is low (and lower still with no documented
exception): "never throws" is a strong baseline on real tests.

Assertion stage: a candidate's score reflects where its expected value came from and what the
prefix did to the receiver:
- collection-like state: ``isEmpty()``/``size()`` are predicted from the net number of
  adding minus removing calls on the receiver (``push``/``add``/``put``... vs ``pop``/``remove``...);
- values: the last value passed to the receiver (for ``pop``/``peek``/``get*`` targets), then
  values passed to it, then other prefix literals and variables, the unit's constants, and the
  global dictionary in frequency order;
- ``assertTrue`` slightly over ``assertFalse``, ``assertNotNull`` over ``assertNull`` (how often
  developers write each).
"""

from __future__ import annotations

import re

from tree_sitter import Node

from oracular.candidates.grammar import Candidate
from oracular.java import syntax
from oracular.java.assertions import ASSERT_FALSE, ASSERT_NOT_NULL, ASSERT_NULL, ASSERT_TRUE
from oracular.java.prefix import FocalMethod
from oracular.ranking.problem import OracleProblem, Ranker, Ranking

_ADDING = re.compile(r"^(push|add|addAll|put|putAll|offer|insert|append|enqueue|addFirst|addLast|increment)")
_REMOVING = re.compile(r"^(pop|remove|poll|take|dequeue|removeFirst|removeLast|delete|decrement)")
_CLEARING = re.compile(r"^(clear|reset|removeAll)$")
_RETRIEVING = re.compile(r"^(pop|peek|get\w*|poll|top|first|last|remove\w*|take)$")

NEVER_THROWS = 0.02
DOCUMENTED = 0.15
CONDITION_MET = 0.85


class BaselineRanker(Ranker):
    name = "baseline"
    abstain_below = 0.1
    """Hand-set: the heuristic is not calibrated, so only near-zero scores (no evidence at all)
    make it abstain."""

    def rank(self, problem: OracleProblem) -> Ranking:
        calls = _receiver_calls(problem)
        p_exc, exc_type = _exception_probability(problem, calls)
        scores = []
        exception_rank = 0
        for candidate in problem.candidates:
            if candidate.kind == "exception":
                scores.append(p_exc * (1.0 - 0.05 * exception_rank))
                exception_rank += 1
            else:
                scores.append((1.0 - p_exc) * _assertion_score(candidate, calls))
        return Ranking(p_exc, exc_type, scores)


OBSERVED_WEIGHT = 4.0
"""A value the running code produced outweighs every static guess for its target together
(their weights are below 1 each, and a target keeps a handful of them)."""


def value_weights(problem: OracleProblem) -> list[float]:
    """How likely each candidate's value is, against the other values of the same assertion on
    the same target: the observed value first, else the heuristic's static value order.

    What a template model (:mod:`oracular.candidates.templates`) cannot say, since it never sees
    values; only ratios within a template matter.
    """
    calls = _receiver_calls(problem)
    return [
        OBSERVED_WEIGHT
        if c.expected is not None and c.expected.source == "observed"
        else max(0.01, _assertion_score(c, calls))
        for c in problem.candidates
    ]


def _receiver_calls(problem: OracleProblem) -> dict[str, list[tuple[str, list[str]]]]:
    """Calls per receiver in prefix order: ``{"s": [("push", ["a"]), ("pop", [])]}``."""
    calls: dict[str, list[tuple[str, list[str]]]] = {}
    for statement in problem.prefix.statements:
        for node in syntax.walk_skipping_classes(statement):
            if node.type != "method_invocation":
                continue
            receiver = node.child_by_field_name("object")
            args = node.child_by_field_name("arguments")
            if receiver is not None:
                arg_texts = [syntax.text(a) for a in args.named_children] if args is not None else []
                calls.setdefault(syntax.text(receiver), []).append((syntax.call_name(node), arg_texts))
    return calls


def _net_size(calls: list[tuple[str, list[str]]]) -> int:
    size = 0
    for name, _ in calls:
        if _CLEARING.match(name):
            size = 0
        elif _ADDING.match(name):
            size += 1
        elif _REMOVING.match(name):
            size = max(0, size - 1)
    return size


def _is_fresh(focal: FocalMethod, problem: OracleProblem) -> bool:
    """The focal call's receiver was built in the prefix and nothing was added to it."""
    receiver = focal.receiver
    if receiver is None or receiver not in problem.prefix.env.locals:
        return False
    for statement in problem.prefix.statements[: focal.statement_index]:
        for node in syntax.walk(statement):
            if (
                node.type == "method_invocation"
                and syntax.text(node.child_by_field_name("object")) == receiver
                and _ADDING.match(syntax.call_name(node))
            ):
                return False
    return True


def _args(call: Node) -> list[str]:
    args = call.child_by_field_name("arguments")
    return [syntax.text(a) for a in args.named_children] if args is not None else []


def _exception_probability(problem: OracleProblem, calls: dict) -> tuple[float, str]:
    focal = problem.focal
    if focal is None:
        return NEVER_THROWS, "Exception"
    types = focal.method.exception_types()
    if not types:
        return NEVER_THROWS, "Exception"
    clauses = list(focal.method.javadoc.throws) if focal.method.javadoc else []
    args = _args(focal.call)
    for clause in clauses:
        condition = clause.condition.lower()
        if "null" in condition and "null" in args:
            return CONDITION_MET, clause.exception
        if "negative" in condition and any(a.startswith("-") for a in args):
            return CONDITION_MET, clause.exception
        if "empty" in condition and _is_fresh(focal, problem):
            return CONDITION_MET, clause.exception
    return DOCUMENTED, types[0]


def _assertion_score(candidate: Candidate, calls: dict[str, list[tuple[str, list[str]]]]) -> float:
    target = candidate.target
    if target is None:
        return 0.0
    receiver_calls = calls.get(target.receiver or "", [])
    method = target.method or ""
    if candidate.assertion in (ASSERT_TRUE, ASSERT_FALSE):
        if method == "isEmpty" and receiver_calls:
            empty = _net_size(receiver_calls[:-1] if target.kind != "observer" else receiver_calls) == 0
            return 0.8 if (candidate.assertion == ASSERT_TRUE) == empty else 0.2
        return 0.55 if candidate.assertion == ASSERT_TRUE else 0.45
    if candidate.assertion == ASSERT_NOT_NULL:
        return 0.4
    if candidate.assertion == ASSERT_NULL:
        return 0.1
    value = candidate.expected
    if value is None:
        return 0.0
    if method in ("size", "length", "count") and receiver_calls:
        history = receiver_calls if target.kind == "observer" else receiver_calls[:-1]
        return 0.8 if value.text == str(_net_size(history)) else 0.2 - 0.01 * value.rank
    passed = [arg for _, args in receiver_calls for arg in args]
    if passed and _RETRIEVING.match(method) and value.text == passed[-1]:
        return 0.75
    if value.text in passed:
        return 0.6 - 0.01 * passed[::-1].index(value.text)
    base = {"observed": 0.6, "argument": 0.5, "literal": 0.5, "variable": 0.45, "constant": 0.35,
            "global": 0.3}[value.source]  # fmt: skip
    return max(0.01, base - 0.02 * value.rank)
