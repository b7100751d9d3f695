"""Why a mutant survives a test, in Reneri's terms, and the oracle that would kill it.

For each surviving extreme mutant and each test that executes it:

- **no infection**: the probe (:mod:`oracular.mutation.infection`) saw every call of the original
  return what the mutant returns and leave the receiver and arguments as they were;
- **no propagation**: it did not, but every value the test can read at its end (the targets the
  observation reads, :mod:`oracular.execution.observe`) is the same under the mutant;
- **weak oracle**: some such value differs, and the test does not check it.

For a weak oracle, the value the code produces is the oracle: rendered as the editor renders an
observed value, inserted at the end of the test, run on the code (it must hold) and on each of
the test's weak-oracle mutants (those it kills are listed). A few per test, chosen greedily by how
many not yet killed mutants each target's value would tell apart.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace

from oracular.candidates.grammar import Candidate
from oracular.candidates.observed import ObservationPlan, ObservedValue, TestObservation, observed_candidates
from oracular.engine import OracleEngine
from oracular.engine.analysis import FileAnalysis, TestStatus
from oracular.execution.observe import Harness
from oracular.execution.scratch import ScratchBuilder, Variant, byte_edit
from oracular.java.prefix import PrefixAnalysis
from oracular.java.prefix_values import block_locals
from oracular.java.source import SourceText
from oracular.java.targets import Target
from oracular.mutation.calls import tests_by_name
from oracular.mutation.infection import Infection
from oracular.mutation.records import Cause, KillingOracle, MethodResult, MutantResult
from oracular.mutation.runs import ClassBench

OBSERVE, KILL = "observe", "kill"
MAX_ORACLES_PER_TEST = 6
Differences = dict[tuple[str, str], dict[str, ObservedValue]]
"""(mutant id, test) -> the targets whose value at the test's end differs under the mutant, with
the mutant's value."""


def explain(
    engine: OracleEngine,
    analysis: FileAnalysis,
    runs: ClassBench,
    methods: Sequence[MethodResult],
    infected: Infection,
) -> int:
    """Fill each surviving mutant's causes (``infected``: the probe's word, where it ran), and each
    method's killing oracles; how many oracles were tried (run on the code and the mutants)."""
    survivors = [m for method in methods for m in method.mutants if m.survived]
    if not survivors:
        return 0
    statuses = tests_by_name(analysis, {t for m in survivors for t in m.executed_by})
    mutated = {t: {m.mutant.method or "" for m in survivors if t in m.executed_by} for t in statuses}
    prefixes = {
        name: _whole_test(engine, analysis, status, mutated[name]) for name, status in statuses.items()
    }
    plans = [
        ObservationPlan(statuses[n].test, p, tuple(p.targets)) for n, p in prefixes.items() if p is not None
    ]
    harness = Harness(analysis.source, plans)
    runs.compile(OBSERVE, harness.build, harness.locate)
    index = {plan.test.name: t for t, plan in enumerate(harness.plans)}
    original = harness.interpret(runs.run(OBSERVE, runs.keys(OBSERVE)))
    differences: Differences = {}
    for mutant in survivors:
        overlay = runs.mutant_overlay(mutant.mutant)
        keys = [
            k
            for k in runs.keys(OBSERVE)
            if any(k.startswith(f"o{index[t]}.") for t in mutant.executed_by if t in index)
        ]
        mutated = harness.interpret(runs.run(OBSERVE, keys, overlay)) if overlay is not None and keys else {}
        for test in mutant.executed_by:
            t = index.get(test)
            if not infected.get((mutant.mutant.id, test), True):
                mutant.causes[test] = Cause.NO_INFECTION  # what differs at the end is not its doing
                differences[(mutant.mutant.id, test)] = {}
                continue
            differ = _differing(original.get(t), mutated.get(t)) if t is not None else {}
            differences[(mutant.mutant.id, test)] = differ
            mutant.causes[test] = Cause.WEAK_ORACLE if differ else Cause.NO_PROPAGATION
    tried = _oracles(engine, analysis, runs, statuses, prefixes, original, index, survivors, differences)
    oracles = [oracle for oracle in tried if oracle.holds and oracle.kills]
    for method in methods:
        ids = {m.mutant.id for m in method.mutants}
        method.oracles = [o for o in oracles if ids.intersection(o.kills)]
    return len(tried)


def _whole_test(
    engine: OracleEngine, analysis: FileAnalysis, status: TestStatus, mutated: set[str]
) -> PrefixAnalysis | None:
    """The test's whole body as the prefix: its targets are what it could read at its end, and the
    readers of what the survivors it runs would have set (:func:`readers`). A last statement that
    is an oracle stays (its value is not a target)."""
    prefix = engine.prefix_for(analysis, status)
    if prefix is None:
        return None
    targets = prefix.targets if status.oracle_free else [t for t in prefix.targets if t.kind != "call"]
    known = {t.expression for t in targets}
    extra = [t for t in readers(prefix, mutated) if t.expression not in known]
    return replace(
        prefix, replace_last=prefix.replace_last and status.oracle_free, targets=[*targets, *extra]
    )


_STEM = re.compile(r"^(?:set|with|add|put|enable|disable|is|get|has)(?=[A-Z])")


def readers(prefix: PrefixAnalysis, mutated: set[str]) -> list[Target]:
    """The JavaBeans readers (``getX()``, ``isX()``, ``hasX()``) of what the mutated methods name,
    on the locals in scope at the test's end: a builder's ``setQuoteMode`` whose extreme mutant
    returns ``this`` leaves ``format.getQuoteMode()`` as it was, which the test's generic targets
    (a few observers per local, by relevance) may not include."""
    stems = {_STEM.sub("", name)[:1].upper() + _STEM.sub("", name)[1:] for name in mutated}
    out_of_scope = block_locals(prefix.statements)
    found: list[Target] = []
    for local, type_text in prefix.env.locals.items():
        cls = prefix.env.resolve_class(type_text) if local not in out_of_scope else None
        for stem in sorted(stems) if cls is not None else []:
            for reader in (f"get{stem}", f"is{stem}", f"has{stem}"):
                hit = prefix.env.find_method(cls, reader, 0)
                if hit is not None and hit[1].name == reader and hit[1].return_type not in (None, "void"):
                    found.append(Target(f"{local}.{reader}()", hit[1].return_type, "observer"))
    return found


def _differing(original: TestObservation | None, mutated: TestObservation | None) -> dict[str, ObservedValue]:
    """Targets read under both whose values differ (a read that threw under one differs too), with
    the mutant's value."""
    if original is None or mutated is None:
        return {}
    return {
        expression: other for expression, value in original.values.items()
        if (other := mutated.values.get(expression)) is not None and _distinct(value, other)
    }  # fmt: skip


BY_CONTENT = frozenset({"list", "literal", "boolean", "null"})
"""Kinds whose equality ignores the runtime class: ``List.equals`` compares elements (joptsimple's
``nonOptionArguments()`` is an unmodifiable empty list, its mutant ``Collections.emptyList()``:
equal), and a literal's payload spells its type."""


def _distinct(a: ObservedValue, b: ObservedValue) -> bool:
    """Whether an assertion could tell two observed values apart (of a throw, its class: the
    message of ``List.get``'s ``IndexOutOfBoundsException`` depends on the list's class)."""
    if a.kind != b.kind:
        return True
    if a.kind == "thrown":
        return a.type != b.type
    if a.kind in BY_CONTENT:
        return a.payload != b.payload
    return (a.type, a.payload) != (b.type, b.payload)


def _oracles(
    engine: OracleEngine,
    analysis: FileAnalysis,
    runs: ClassBench,
    statuses: dict[str, TestStatus],
    prefixes: dict[str, PrefixAnalysis | None],
    original: dict[int, TestObservation],
    index: dict[str, int],
    survivors: Sequence[MutantResult],
    differences: Differences,
) -> list[KillingOracle]:
    """Greedy per test: the target telling most weak-oracle mutants apart, rendered and run (each
    says whether it holds and what it kills)."""
    namer = engine.type_namer(analysis)
    chosen: list[tuple[KillingOracle, list[MutantResult]]] = []
    weak_by_test: dict[str, list[MutantResult]] = defaultdict(list)
    for mutant in survivors:
        for test, cause in mutant.causes.items():
            if cause is Cause.WEAK_ORACLE:
                weak_by_test[test].append(mutant)
    for test, weak in weak_by_test.items():
        status, prefix = statuses[test], prefixes[test]
        observation = original.get(index[test])
        if prefix is None or observation is None:
            continue
        stating = _stating(
            prefix, observation, {e for m in weak for e in differences[(m.mutant.id, test)]}, namer
        )
        renderer = engine.renderer_for(analysis, status.test.flavour, False, prefix.focal)
        left = list(weak)
        for _ in range(MAX_ORACLES_PER_TEST):
            killing: dict[str, list[MutantResult]] = defaultdict(list)
            for m in left:
                for expression, value in differences[(m.mutant.id, test)].items():
                    if expression in stating and _tells(stating[expression], value):
                        killing[expression].append(m)
            if not killing:
                break
            best = max(killing, key=lambda e: (len(killing[e]), _plainness(observation.values[e]), -len(e)))
            chosen.append((_render(test, status, prefix, best, stating[best], renderer), killing[best]))
            left = [m for m in left if m not in killing[best]]
    _verify(analysis.source, runs, statuses, chosen)
    return [oracle for oracle, _ in chosen]


PLAIN = ("boolean", "literal", "null", "enum", "class", "list", "array", "string")
"""Observed kinds, the plainest value to state first: a flag or a number before an object's text."""


def _plainness(value: ObservedValue) -> int:
    return len(PLAIN) - PLAIN.index(value.kind) if value.kind in PLAIN else 0


def _stating(
    prefix: PrefixAnalysis, observation: TestObservation, expressions: set[str], namer
) -> dict[str, Candidate]:
    """Per differing target, the first observed candidate that states its value, else
    ``assertNotNull`` (which tells the value from ``null`` only: :func:`_tells`)."""
    found = {}
    for target in prefix.targets:
        value = observation.values.get(target.expression)
        if target.expression not in expressions or value is None:
            continue
        candidates = observed_candidates(target, value, namer)
        stated = [c for c in candidates if c.assertion != "assertNotNull"] or candidates
        if stated:
            found[target.expression] = stated[0]
    return found


def _tells(candidate: Candidate, mutated: ObservedValue) -> bool:
    """Whether ``candidate`` (true of the code's value) fails on the mutant's differing value."""
    return candidate.assertion != "assertNotNull" or mutated.kind == "null"


def _render(
    test: str, status: TestStatus, prefix: PrefixAnalysis, expression: str, candidate: Candidate, renderer
) -> KillingOracle:
    rendered = renderer.render(candidate, prefix, status.test.node)
    edits = [rendered.statement_edit, *renderer.import_edits(rendered.imports)]
    imports = [line.text() for line in sorted(rendered.imports, key=lambda i: i.name)]
    statement = rendered.statement_edit.new_text.strip()
    expected = candidate.expected.text if candidate.expected is not None else ""
    return KillingOracle(test, status.test.line + 1, statement, edits, imports, expression, expected)


def _verify(
    source: SourceText,
    runs: ClassBench,
    statuses: dict[str, TestStatus],
    chosen: list[tuple[KillingOracle, list[MutantResult]]],
) -> None:
    """Run each oracle inserted in its test: on the code (it must hold), on its mutants (kills)."""
    if not chosen:
        return
    builder = ScratchBuilder(source)
    variants: dict[str, list[Variant]] = defaultdict(list)
    for i, (oracle, _) in enumerate(chosen):
        variants[oracle.test].append(Variant(f"k{i}", (byte_edit(source, oracle.edits[0]),)))
        builder.add_imports(oracle.imports)
    for test, found in variants.items():
        builder.replace(statuses[test].test, found)
    builder.drop_other_tests(s.test for s in statuses.values())
    runs.compile(KILL, builder.build)
    on_code = runs.run(KILL, runs.keys(KILL))
    for i, (oracle, mutants) in enumerate(chosen):
        result = on_code.results.get(f"k{i}")
        oracle.holds = result is not None and result.status == "passed"
        if not oracle.holds:
            continue
        for mutant in mutants:
            overlay = runs.mutant_overlay(mutant.mutant)
            outcome = runs.run(KILL, [f"k{i}"], overlay) if overlay is not None else None
            if (
                outcome is not None
                and outcome.results.get(f"k{i}") is not None
                and outcome.results[f"k{i}"].status == "failed"
            ):
                oracle.kills.append(mutant.mutant.id)


__all__ = ["explain"]
