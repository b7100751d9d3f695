"""Turn one analysed test file into exception and assertion samples (TOGA's two datasets).

Why this module exists: a sample must look exactly like what the editor will later ask the
models about, an oracle-free prefix. So each developer test is cut before its oracle, the cut is
written out as a new test method (name normalised, annotations dropped so ``expected=`` cannot
leak), and that method is analysed by the engine itself (:meth:`OracleEngine.prefix_for`): the
targets, values and exception types recorded are the ones the engine would generate.

Samples are plain JSON-ready dicts: they go straight to JSONL and to worker processes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from tree_sitter import Node

from oracular.candidates.grammar import Candidate, build_candidates
from oracular.candidates.text import candidate_text, canonical_expression
from oracular.candidates.values import Value, global_values, plausible
from oracular.corpus.normalise import GroundTruth, normalise_assertion
from oracular.engine import FileAnalysis, OracleEngine, TestStatus
from oracular.java import syntax
from oracular.java.method_text import parse_method, synthesise_method
from oracular.java.oracle_statements import (
    ASSERTJ_THROWN,
    call_args,
    call_chain,
    contains_fail,
    ends_with_fail,
    is_oracle_statement,
    statement_call,
)
from oracular.java.prefix import PrefixAnalysis, Target
from oracular.models.inputs import focal_context
from oracular.ranking.problem import OracleProblem, Ranker

CATEGORIES = ("assertion-only", "must-throw", "must-not-throw", "custom-helper", "no-oracle")
THROWS_ENTRY = frozenset({"assertThrows", "assertThrowsExactly", "expectThrows"})
Dictionary = dict[str, tuple[str, ...]]


@dataclass(frozen=True)
class ExceptionOracle:
    """A statement that says "this must throw": the statements inside it and the type."""

    exception: str
    inner: list[str]
    source: str


@dataclass
class FileSamples:
    """What one file yields: samples plus the counts the corpus report is built from."""

    exception: list[dict[str, Any]] = field(default_factory=list)
    assertion: list[dict[str, Any]] = field(default_factory=list)
    categories: Counter[str] = field(default_factory=Counter)
    assertions_by_family: Counter[str] = field(default_factory=Counter)
    in_grammar_by_family: Counter[str] = field(default_factory=Counter)
    counts: Counter[str] = field(default_factory=Counter)
    """``tests``, ``incomplete``, ``nested_assertions``, ``empty_prefix``..."""


def _simple_type(name: str) -> str:
    return name.removesuffix(".class").strip().rsplit(".", 1)[-1]


def _lambda_statements(node: Node) -> list[str]:
    """The statements a lambda (or method reference) runs, as source texts."""
    if node.type != "lambda_expression":
        return [f"{syntax.text(node)};"] if node.type != "method_reference" else []
    body = node.child_by_field_name("body")
    if body is None:
        return []
    if body.type == "block":
        return [syntax.text(s) for s in syntax.statements(body)]
    return [f"{syntax.text(body)};"]


def _class_literal(node: Node | None) -> str | None:
    return _simple_type(syntax.text(node)) if node is not None and node.type == "class_literal" else None


def exception_oracle(statement: Node) -> ExceptionOracle | None:
    """``assertThrows``, AssertJ's thrown-by forms, and try/``fail``/catch."""
    if statement.type == "try_statement":
        body = statement.child_by_field_name("body")
        inner = syntax.statements(body) if body is not None else []
        catches = [c for c in statement.named_children if c.type == "catch_clause"]
        if not catches or not ends_with_fail(inner) or len(inner) < 2:
            return None
        param = next((c for c in catches[0].named_children if c.type == "catch_formal_parameter"), None)
        caught = next((c for c in param.named_children if c.type == "catch_type"), None) if param else None
        exception = _simple_type(syntax.text(caught).split("|")[0]) if caught is not None else "Exception"
        return ExceptionOracle(exception, [syntax.text(s) for s in inner[:-1]], "try-fail-catch")
    call = statement_call(statement)
    if call is None:
        return None
    chain = call_chain(call)
    root, name = chain[0], syntax.call_name(chain[0])
    args = call_args(root)
    if name in THROWS_ENTRY and len(args) >= 2 and _class_literal(args[0]):
        return ExceptionOracle(_class_literal(args[0]) or "", _lambda_statements(args[1]), "assertThrows")
    if name == "assertThatThrownBy" and args:
        exception = "Throwable"
        for link in chain[1:]:
            if syntax.call_name(link) in ("isInstanceOf", "isExactlyInstanceOf"):
                exception = _class_literal(next(iter(call_args(link)), None)) or exception
                break
        return ExceptionOracle(exception, _lambda_statements(args[0]), "assertThatThrownBy")
    thrown_by = next((c for c in chain[1:] if syntax.call_name(c) == "isThrownBy" and call_args(c)), None)
    if thrown_by is not None:
        exception = ASSERTJ_THROWN.get(name) or (_class_literal(args[0]) if args else None)
        if exception:
            inner = _lambda_statements(call_args(thrown_by)[0])
            return ExceptionOracle(exception, inner, "assertThatThrownBy")
    return None


def is_not_throw_oracle(statement: Node) -> bool:
    """``assertDoesNotThrow(...)`` or ``try { ... } catch (X e) { fail(...); }``."""
    if statement.type == "try_statement":
        catches = [c for c in statement.named_children if c.type == "catch_clause"]
        return bool(catches) and all(contains_fail(c) for c in catches)
    call = statement_call(statement)
    return call is not None and syntax.call_name(call_chain(call)[0]) == "assertDoesNotThrow"


def _rule_expectation(statement: Node) -> str | None:
    """``thrown.expect(X.class)`` (JUnit 4's ``ExpectedException`` rule)."""
    call = statement_call(statement)
    if call is None or syntax.call_name(call) != "expect":
        return None
    receiver = call.child_by_field_name("object")
    if receiver is None or receiver.type != "identifier":
        return None
    return _class_literal(next(iter(call_args(call)), None))


def is_rule_statement(statement: Node) -> bool:
    """``thrown.expect(...)``, ``thrown.expectMessage(...)``: a JUnit 4 ``ExpectedException`` rule.

    Such a statement is part of the oracle (it says what must be thrown), so prefixes leave it out.
    """
    call = statement_call(statement)
    return (
        call is not None
        and syntax.call_name(call).startswith("expect")
        and (receiver := call.child_by_field_name("object")) is not None
        and receiver.type == "identifier"
    )


def _target_json(target: Target) -> dict[str, Any]:
    return asdict(target)


def build_sample_candidates(sample: dict[str, Any], dictionary: Dictionary) -> list[Candidate]:
    """The engine's candidate set for a mined assertion sample, with ``dictionary`` as global values.

    Mining stores targets and non-global values; the global dictionary is only known once the
    train split is mined, so candidates are completed here exactly as the engine does it.
    """
    targets = [Target(**t) for t in sample["targets"]]
    values_for: dict[str, list[Value]] = {}
    for target in targets:
        values = [Value(**v) for v in sample["values"].get(target.expression, [])]
        if target.type:
            values += global_values(target.type, dictionary)
        values_for[target.expression] = plausible(target, values)
    return build_candidates(targets, values_for, sample["exceptions"])


def ground_truth_labels(candidates: list[Candidate], key: str) -> list[int]:
    return [
        i
        for i, c in enumerate(candidates)
        if c.kind == "assertion" and canonical_expression(candidate_text(c)) == key
    ]


class FileMiner:
    """Mines one analysed file; ``sweep`` maps K -> global dictionary, to rank under each K."""

    def __init__(
        self,
        engine: OracleEngine,
        analysis: FileAnalysis,
        meta: dict[str, Any],
        ranker: Ranker | None = None,
        sweep: dict[int, Dictionary] | None = None,
    ) -> None:
        self.engine = engine
        self.analysis = analysis
        self.meta = meta
        self.ranker = ranker
        self.sweep = sweep or {}
        self.out = FileSamples()

    def run(self) -> FileSamples:
        for number, status in enumerate(self.analysis.statuses, start=1):
            self.out.counts["tests"] += 1
            if status.incomplete:
                self.out.counts["incomplete"] += 1
                continue
            self._mine_test(status, number)
        return self.out

    # -- per test -----------------------------------------------------------------------
    def _mine_test(self, status: TestStatus, number: int) -> None:
        test = status.test
        body = test.body
        statements = syntax.statements(body) if body is not None else []
        top_level_oracles = {s.id for s in statements if is_oracle_statement(s)}
        if body is not None:
            self.out.counts["nested_assertions"] += sum(
                1
                for node in syntax.walk_skipping_classes(body)
                if node.type == "expression_statement"
                and node.parent is not None
                and node.parent.id != body.id
                and is_oracle_statement(node)
            )
        category = self._category(status, statements)
        self.out.categories[category] += 1
        if test.expected_exception:
            kept = [syntax.text(s) for s in statements if not is_oracle_statement(s)]
            self._exception_sample(status, number, kept, _simple_type(test.expected_exception), "expected")
            return
        before: list[str] = []
        first_assertion: dict[str, Any] | None = None
        for i, statement in enumerate(statements):
            expected_by_rule = _rule_expectation(statement)
            if expected_by_rule:
                rest = [
                    syntax.text(s)
                    for s in statements[i + 1 :]
                    if not is_rule_statement(s) and not is_oracle_statement(s)
                ]
                self._exception_sample(status, number, before + rest, expected_by_rule, "expected-rule")
                return
            oracle = exception_oracle(statement)
            if oracle is not None:
                self._exception_sample(status, number, before + oracle.inner, oracle.exception, oracle.source)
                return
            if is_not_throw_oracle(statement):
                call = statement_call(statement)
                inner = _lambda_statements(call_args(call)[0]) if call is not None and call_args(call) else []
                if statement.type == "try_statement" and (block := statement.child_by_field_name("body")):
                    inner = [syntax.text(s) for s in syntax.statements(block)]
                self._exception_sample(status, number, before + inner, None, "does-not-throw")
                before += inner
                continue
            if statement.id in top_level_oracles:
                truth = normalise_assertion(statement, test.flavour)
                if truth is not None:
                    sample = self._assertion_sample(status, number, before, truth, statement)
                    if sample is not None and first_assertion is None:
                        first_assertion = sample
                continue
            before.append(syntax.text(statement))
        if first_assertion is not None:
            self._negative_from(first_assertion)

    def _category(self, status: TestStatus, statements: list[Node]) -> str:
        if status.evidence is None:
            return "no-oracle"
        if status.test.expected_exception or any(
            exception_oracle(s) is not None or _rule_expectation(s) for s in statements
        ):
            return "must-throw"
        if any(is_not_throw_oracle(s) for s in statements):
            return "must-not-throw"
        if status.evidence.via_helper:
            return "custom-helper"
        return "assertion-only"

    # -- samples ------------------------------------------------------------------------
    def _base(self, status: TestStatus, number: int, statements: list[str]) -> dict[str, Any]:
        return {
            **self.meta,
            "line": status.test.line + 1,
            "class": status.test.class_name,
            "test": f"test{number}",
            "flavour": str(status.test.flavour),
            "prefix": synthesise_method(status.test, number, statements),
            "statements_key": canonical_expression("\n".join(statements)),
        }

    def _analyse(self, status: TestStatus, method_text: str) -> PrefixAnalysis | None:
        return self.engine.prefix_for(self.analysis, status, parse_method(method_text))

    def _exception_sample(
        self, status: TestStatus, number: int, statements: list[str], exception: str | None, source: str
    ) -> None:
        if not statements:
            self.out.counts["empty_prefix"] += 1
            return
        sample = self._base(status, number, statements)
        prefix = self._analyse(status, sample["prefix"])
        sample.update(
            type="exception",
            label=exception is not None,
            exception=exception,
            source=source,
            focal=focal_context(prefix.focal, prefix.guard_verdict) if prefix else None,
            exceptions=prefix.exception_types() if prefix else [],
        )
        self.out.exception.append(sample)

    def _negative_from(self, assertion: dict[str, Any]) -> None:
        """A test whose oracle is an assertion: the first assertion's prefix must not throw."""
        keys = ("package", "split", "file", "line", "class", "test", "flavour", "prefix", "statements_key",
                "focal", "exceptions")  # fmt: skip
        sample = {k: assertion[k] for k in keys if k in assertion}
        sample.update(type="exception", label=False, exception=None, source="assertion")
        self.out.exception.append(sample)

    def _assertion_sample(
        self, status: TestStatus, number: int, before: list[str], truth: GroundTruth, statement: Node
    ) -> dict[str, Any] | None:
        self.out.assertions_by_family[truth.family] += 1
        if truth.in_grammar:
            self.out.in_grammar_by_family[truth.family] += 1
        statements, mode = list(before), "as-is"
        prefix = self._analyse(status, synthesise_method(status.test, number, statements)) if before else None
        actual_key = canonical_expression(truth.actual)
        covered = prefix is not None and any(
            canonical_expression(t.expression) == actual_key for t in prefix.targets
        )
        if not covered and truth.actual_is_call:
            statements, mode = [*before, f"{truth.actual};"], "call-appended"
            prefix = self._analyse(status, synthesise_method(status.test, number, statements))
        if prefix is None:
            self.out.counts["empty_prefix"] += 1
            return None
        sample = self._base(status, number, statements)
        targets_type = {t.expression: t.type for t in prefix.targets}
        target_type = next(
            (t for e, t in targets_type.items() if canonical_expression(e) == actual_key), None
        )
        sample.update(
            type="assertion",
            mode=mode,
            focal=focal_context(prefix.focal, prefix.guard_verdict),
            assertion=truth.text,
            original=" ".join(syntax.text(statement).split()),
            family=truth.family,
            method=truth.method,
            actual=truth.actual,
            expected=truth.expected,
            target_type=target_type,
            in_grammar=truth.in_grammar,
            key=truth.key,
            targets=[_target_json(t) for t in prefix.targets],
            values={
                expression: [asdict(v) for v in values]
                for expression, values in self.engine.values_for(prefix, status, dictionary={}).items()
            },
            exceptions=prefix.exception_types(),
        )
        if self.ranker is not None and self.sweep:
            sample["sweep"] = {str(k): self._rank_under(prefix, sample, d) for k, d in self.sweep.items()}
        self.out.assertion.append(sample)
        return sample

    def _rank_under(
        self, prefix: PrefixAnalysis, sample: dict[str, Any], dictionary: Dictionary
    ) -> int | None:
        """1-based rank of the ground truth among the candidates built with ``dictionary``."""
        candidates = build_sample_candidates(sample, dictionary)
        labels = set(ground_truth_labels(candidates, sample["key"]))
        if not labels:
            return None
        assert self.ranker is not None
        scores = self.ranker.rank(OracleProblem(sample["test"], prefix, candidates)).scores
        order = sorted(range(len(candidates)), key=lambda i: -scores[i])
        return next(rank for rank, i in enumerate(order, start=1) if i in labels)
