"""Developer tests cut before their oracle, as the bug-finding evaluation needs them.

Why the same cut as the corpus: the evaluation must ask the engine the question it was built
for (an oracle-free prefix) and compare its answer with what the developer wrote at that point.
So a test is cut at its first top-level oracle, exactly like :mod:`oracular.corpus.samples`
cuts assertion and exception samples (including appending the asserted call when the prefix
does not already compute it), and three bodies are kept:

- the **prefix**: what the engine sees, and the "never throws" baseline when run as is;
- the **developer variant**: the statements before the oracle plus the developer's own oracle
  statement (or ``@Test(expected = ...)``), the reference row of the evaluation;
- the oracle-free copy of the whole file, in which every selected test is replaced by its
  prefix, so the engine analyses and renders against a real, parseable document.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tree_sitter import Node

from oracular.candidates.text import canonical_expression
from oracular.corpus.normalise import GroundTruth, normalise_assertion
from oracular.corpus.samples import exception_oracle, is_not_throw_oracle, is_rule_statement
from oracular.engine import FileAnalysis, OracleEngine, TestStatus
from oracular.execution.scratch import ByteEdit, body_edit
from oracular.java import syntax
from oracular.java.junit import Flavour, TestMethod
from oracular.java.method_text import parse_method, synthesise_method
from oracular.java.oracle_statements import is_oracle_statement
from oracular.java.source import SourceText, parse_text

SKIPPED_ANNOTATIONS = frozenset({"Disabled", "Ignore"})


@dataclass(frozen=True)
class DevTest:
    class_name: str
    """Dotted within its file: ``Outer.Inner``."""
    name: str
    line: int
    """1-based line of the method name in the original file."""
    flavour: Flavour
    kind: str
    """``assertion`` or ``exception``: what the developer's first oracle checks."""
    prefix: tuple[str, ...]
    dev: tuple[str, ...]
    dev_expected: str | None
    """JUnit 4 ``@Test(expected = X.class)``: the developer variant keeps it."""
    oracle: str
    """The developer's oracle statement, for the report."""
    truth: GroundTruth | None = None
    """The developer's assertion in canonical form (assertion tests whose oracle normalises)."""
    exception: str | None = None
    """For exception tests: the simple name of the type the developer expects."""
    appended: bool = False
    """The developer asserts on a call no statement of the prefix computes (``xs.size()`` after
    ``xs.add(1);``): the corpus appends such a call to its samples' prefixes, which hands a
    ranker its target; a user's oracle-free test has no such hint."""

    @property
    def key(self) -> tuple[str, str]:
        return self.class_name, self.name


def _has_parameters(test: TestMethod) -> bool:
    params = test.node.child_by_field_name("parameters")
    return params is not None and bool(params.named_children)


def _cuttable(status: TestStatus) -> bool:
    """Whether ``status``'s test may be cut at all, whatever its body: a test analysed only in part
    or without evidence, a TestNG one, a parameterised one or a skipped one cannot be cut faithfully."""
    test = status.test
    return not (
        status.incomplete
        or status.evidence is None
        or test.flavour is Flavour.TESTNG
        or _has_parameters(test)
        or SKIPPED_ANNOTATIONS & test.annotations.keys()
    )


def cut_test(
    engine: OracleEngine, analysis: FileAnalysis, status: TestStatus, append_call: bool = True
) -> DevTest | None:
    """The test cut before its first oracle, or ``None`` when it cannot be cut faithfully.

    ``append_call``: end the prefix with the asserted call when the prefix does not compute it,
    as the corpus does. Without it the prefix is exactly what a user's oracle-free test holds
    (``DevTest.appended`` still says whether the corpus would have appended).
    """
    test = status.test
    if not _cuttable(status) or test.body is None:
        return None
    statements = syntax.statements(test.body)
    # ``thrown.expect(...)`` (JUnit 4's ``ExpectedException``): a cut cannot keep its meaning.
    if any(is_rule_statement(s) or is_not_throw_oracle(s) for s in statements):
        return None
    line = test.line + 1
    if test.expected_exception:
        kept = tuple(syntax.text(s) for s in statements if not is_oracle_statement(s))
        if not kept:
            return None
        expected = test.expected_exception
        return DevTest(test.class_name, test.name, line, test.flavour, "exception", kept, kept,
                       expected, f"@Test(expected = {expected}.class)",
                       exception=expected.rsplit(".", 1)[-1])  # fmt: skip
    before: list[str] = []
    computed: set[str] = set()
    for statement in statements:
        text = syntax.text(statement)
        oracle = exception_oracle(statement)
        if oracle is not None:
            prefix = tuple(before + oracle.inner)
            if not prefix:
                return None
            return DevTest(test.class_name, test.name, line, test.flavour, "exception", prefix,
                           (*before, text), None, text, exception=oracle.exception)  # fmt: skip
        if is_oracle_statement(statement):
            if not before:
                return None
            prefix = list(before)
            truth = normalise_assertion(statement, test.flavour)
            appended = False
            if truth is not None and truth.actual_is_call:
                key = canonical_expression(truth.actual)
                appended = key not in computed
                if append_call:
                    analysed = engine.prefix_for(
                        analysis, status, parse_method(synthesise_method(test, 1, prefix))
                    )
                    if analysed is None or not any(
                        canonical_expression(t.expression) == key for t in analysed.targets
                    ):
                        prefix.append(f"{truth.actual};")  # as the corpus does: the asserted call ends it
            return DevTest(test.class_name, test.name, line, test.flavour, "assertion", tuple(prefix),
                           (*before, text), None, text, truth=truth, appended=appended)  # fmt: skip
        before.append(text)
        computed |= _computed_values(statement)
    return None


def _computed_values(statement: Node) -> set[str]:
    """Canonical texts of the values a statement computes: a bare expression, declarators' values."""
    if statement.type == "expression_statement" and statement.named_children:
        return {canonical_expression(syntax.text(statement.named_children[0]))}
    values = (d.child_by_field_name("value") for d in statement.children_by_field_name("declarator"))
    return {canonical_expression(syntax.text(v)) for v in values if v is not None}


def cut_file(engine: OracleEngine, analysis: FileAnalysis, append_call: bool = True) -> list[DevTest]:
    """Every test of the file that can be cut (see :func:`cut_test`)."""
    found = []
    for status in analysis.statuses:
        cut = cut_test(engine, analysis, status, append_call)
        if cut is not None:
            found.append(cut)
    return found


def _test_annotation(test: TestMethod) -> Node | None:
    for annotation in syntax.annotations(test.node):
        if syntax.annotation_name(annotation) == "Test":
            return annotation
    return None


def expected_edit(test: TestMethod, expected: str | None) -> ByteEdit | None:
    """Set (or, with ``None``, remove) the ``expected`` exception of a JUnit 4 ``@Test``."""
    annotation = _test_annotation(test)
    if annotation is None:
        return None
    name = annotation.child_by_field_name("name")
    written = syntax.text(name) if name is not None else "Test"
    arguments = syntax.annotation_arguments(annotation)
    kept = [
        f"{k} = {v}" for k, v in arguments.items() if k not in ("expected", "expectedExceptions", "value")
    ]
    if expected is not None:
        kept.insert(0, f"expected = {expected}.class")
    text = f"@{written}" + (f"({', '.join(kept)})" if kept else "")
    return ByteEdit(annotation.start_byte, annotation.end_byte, text)


def oracle_free_copy(source: SourceText, analysis: FileAnalysis, tests: Sequence[DevTest]) -> SourceText:
    """The file with each of ``tests`` replaced by its prefix (same path, for the workspace index)."""
    wanted = {t.key: t for t in tests}
    edits: list[ByteEdit] = []
    for status in analysis.statuses:
        cut = wanted.get((status.test.class_name, status.test.name))
        if cut is None:
            continue
        edits.append(body_edit(status.test, cut.prefix, source))
        if status.test.node.child_by_field_name("body") is not None and not any(
            c.type == "throws" for c in status.test.node.children
        ):  # a statement taken out of an assertThrows lambda may throw a checked exception
            params = status.test.node.child_by_field_name("parameters")
            if params is not None:
                edits.append(ByteEdit(params.end_byte, params.end_byte, " throws Exception"))
        if status.test.expected_exception:
            edit = expected_edit(status.test, None)
            if edit is not None:
                edits.append(edit)
    data = source.data
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        data = data[: edit.start] + edit.text.encode("utf-8") + data[edit.end :]
    return parse_text(data.decode("utf-8"), source.path)


def find_status(analysis: FileAnalysis, test: DevTest) -> TestStatus | None:
    for status in analysis.statuses:
        if (status.test.class_name, status.test.name) == test.key:
            return status
    return None
