"""Observe what the code does: run each oracle-free test's prefix and record its targets' values.

Why: the values the code under test really produces are the strongest oracle candidates (see
:mod:`oracular.candidates.observed`). For the oracle-free tests of a file, a scratch copy of the
class (never the user's file, :mod:`oracular.execution.scratch`) gets, per test, methods that run
the prefix and then hand each target to ``oracular.exec.Observe``, each read in its own
``try``/``catch`` so that one throwing target does not hide the others.

Choices, each for a reason:
- **Twice.** Every method is generated twice and a value is kept only when both runs agree:
  clocks, hash codes, temporary paths and identity ``toString`` differ between runs.
- **Reads that may change state run alone.** Observers (``size()``, ``getX()``, ``get(0)``...)
  are read together, one after the other. An ``action`` target (``s.pop()``) would change what
  the targets after it see, so each gets a method of its own.
- **A statement that does not compile is left out, not its test.** Each read sits on its own
  line behind a marker comment; javac's errors are mapped back to those markers and the
  statement is dropped in the next round (a wrongly inferred target must not cost the others).
- **The prefix may throw.** Then no target is read, and the exception's class is recorded: the
  expected-exception oracle that holds now.
- **Before the action too.** One more method reads the targets right before the action (the
  focal call's statement), so that what the action changed is known: what a test checks
  (:meth:`~oracular.candidates.observed.TestObservation.changed`). Targets naming a local the
  action or a later statement declares are new, not read (they would not compile there).
"""

from __future__ import annotations

import copy
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from oracular.candidates.observed import (
    NOT_OBSERVED,
    FileObservation,
    ObservationPlan,
    ObservedValue,
    TestObservation,
)
from oracular.execution.clock_values import holds_the_clock
from oracular.execution.jvm import NOT_RUN, HelperFailed, Observation, TestOutcome
from oracular.execution.oracle_checks import Bench, OracleChecker
from oracular.execution.runner import LINKAGE_ERRORS, ScratchOutcome, ScratchRunner
from oracular.execution.scratch import ByteEdit, ScratchBuilder, ScratchClass, Variant
from oracular.incremental import KeptResults, MemoKey
from oracular.java.junit import Flavour, TestMethod
from oracular.java.source import SourceText
from oracular.java.targets import Target

OBSERVER = "oracular.exec.Observe"
"""The helper class that records values (``execution/java/oracular/exec/Observe.java``)."""
RUNS = 2
MAX_REASON = 200
"""Characters of a run's own words kept in why a test was not observed (a class's set-up failure)."""
_MARKER = re.compile(r"/\*oracular:([sb][\d.]+)\*/")


@dataclass(frozen=True)
class _Read:
    """One target read in one generated method."""

    key: str
    """Statement key (what a compile error leaves out): ``s<test>.<target>``."""
    target: int
    expression: str


ALONE = frozenset({"action", "helper"})
"""Reads that may change state, so each runs in a method of its own: actions, and calls of the
suite's assertion helpers (joptsimple's ``assertNextTokenTakesNoArgument(lexer, 'W', true)``
consumes the lexer's token)."""


def _groups(plan: ObservationPlan) -> list[list[int]]:
    """Target indices per generated method: the reads first (none: does the prefix throw?), then
    each action and helper call alone."""
    reads = [i for i, t in enumerate(plan.targets) if t.kind not in ALONE]
    return [reads, *([i] for i, t in enumerate(plan.targets) if t.kind in ALONE)]


_NAME = re.compile(r"[A-Za-z_$][\w$]*")


def _before(plan: ObservationPlan) -> tuple[list[int], set[str]]:
    """The targets read right before the action, and those that are new after it.

    Reads of what changes state (actions), of expected values and of the last statement's own
    value are left out; so are targets naming a local declared from the action on (new ones).
    """
    action = plan.prefix.action
    if action is None:
        return [], set()
    declared = plan.prefix.declared_from(action)
    reads, fresh = [], set()
    for i, target in enumerate(plan.targets):
        if target.kind in ("action", "value", "helper") or (
            target.kind == "call" and plan.prefix.replace_last
        ):
            continue
        if declared.intersection(_NAME.findall(target.expression)):
            fresh.add(target.expression)
        else:
            reads.append(i)
    return reads, fresh


def java_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def observe_statement(observation_key: str, expression: str) -> str:
    """Records ``expression``'s value (or what evaluating it threw) under ``observation_key``."""
    k = java_string(observation_key)
    return (
        f"try {{ {OBSERVER}.value({k}, {expression}); }} "
        f"catch (Throwable oracular$t) {{ {OBSERVER}.thrown({k}, oracular$t); }}"
    )


def try_statement(observation_key: str, call: str) -> str:
    """Records whether the statement ``call;`` passes (``true``), fails an assertion (``false``) or
    throws anything else (what it threw): a helper candidate's verdict."""
    k = java_string(observation_key)
    return (
        f"try {{ {call}; {OBSERVER}.value({k}, true); }} "
        f"catch (AssertionError oracular$a) {{ {OBSERVER}.value({k}, false); }} "
        f"catch (Throwable oracular$t) {{ {OBSERVER}.thrown({k}, oracular$t); }}"
    )


def read_statement(key: str, observation_key: str, target: Target) -> str:
    """One read on one line, behind its marker: ``/*oracular:s0.3*/ try { Observe.value(...); } ...``."""
    statement = try_statement if target.kind == "helper" else observe_statement
    return f"/*oracular:{key}*/ {statement(observation_key, target.expression)}"


class Harness:
    """The observing scratch class of one file: which methods read which targets.

    ``idle`` are oracle-free tests not observed this time (their observation is kept): their
    bodies are emptied, as other tests' are by a check, so they cost no compile time.
    """

    def __init__(
        self, source: SourceText, plans: Sequence[ObservationPlan], idle: Sequence[TestMethod] = ()
    ) -> None:
        self.source = source
        self.plans = [p for p in plans if p.test.flavour is not Flavour.TESTNG]
        self.idle = tuple(idle)
        self.groups = [_groups(p) for p in self.plans]
        self.before = [_before(p) for p in self.plans]

    @staticmethod
    def variant_key(test: int, group: int, run: int) -> str:
        return f"o{test}.{group}.{run}"

    @staticmethod
    def observation_key(test: int, run: int, target: int) -> str:
        return f"{test}.{run}.{target}"

    @staticmethod
    def before_key(test: int, run: int) -> str:
        return f"o{test}.before.{run}"

    @staticmethod
    def before_observation_key(test: int, run: int, target: int) -> str:
        return f"{test}.{run}.before.{target}"

    def _edit(self, plan: ObservationPlan, statements: list[str], replaces_last: bool) -> ByteEdit:
        last = plan.prefix.last
        indent = self.source.line_indent(last.start_byte)
        text = f"\n{indent}".join(statements)
        if replaces_last:
            return ByteEdit(last.start_byte, last.end_byte, text)
        return ByteEdit(last.end_byte, last.end_byte, f"\n{indent}{text}")

    def _reach(self, plan: ObservationPlan, t: int, run: int) -> ByteEdit:
        """A mark right before the statement an exception oracle would wrap: if the prefix throws
        without passing it, ``assertThrows`` around that statement would not hold."""
        statement = plan.prefix.throwing_statement
        key = java_string(self.reach_key(t, run))
        text = f"{OBSERVER}.value({key}, true);\n{self.source.line_indent(statement.start_byte)}"
        return ByteEdit(statement.start_byte, statement.start_byte, text)

    @staticmethod
    def reach_key(test: int, run: int) -> str:
        return f"{test}.{run}.reach"

    def build(self, excluded: frozenset[str]) -> ScratchClass:
        """The scratch class without the statements and methods in ``excluded``."""
        builder = ScratchBuilder(self.source)
        for t, (plan, groups) in enumerate(zip(self.plans, self.groups, strict=True)):
            variants = []
            for g, group in enumerate(groups):
                for run in range(RUNS):
                    key = self.variant_key(t, g, run)
                    if key in excluded:
                        continue
                    statements = []
                    wraps_last = False
                    for i in group:
                        if f"s{t}.{i}" in excluded:
                            continue
                        target = plan.targets[i]
                        statements.append(
                            read_statement(f"s{t}.{i}", self.observation_key(t, run, i), target)
                        )
                        wraps_last = wraps_last or (plan.prefix.replace_last and target.kind == "call")
                    edits = [self._edit(plan, statements, wraps_last)] if statements else []
                    if g == 0:
                        edits.append(self._reach(plan, t, run))
                    variants.append(Variant(key, tuple(edits)))
            variants += self._before_variants(t, plan, excluded)
            builder.replace(plan.test, variants)
        builder.drop_other_tests([*(p.test for p in self.plans), *self.idle])
        return builder.build(excluded)

    def _before_variants(self, t: int, plan: ObservationPlan, excluded: frozenset[str]) -> list[Variant]:
        """The methods that read targets right before the action statement (see the module docstring)."""
        index = plan.prefix.action
        if index is None:
            return []
        action = plan.prefix.statements[index]
        indent = self.source.line_indent(action.start_byte)
        variants = []
        for run in range(RUNS):
            key = self.before_key(t, run)
            reads = [
                read_statement(f"b{t}.{i}", self.before_observation_key(t, run, i), plan.targets[i])
                for i in self.before[t][0]
                if f"b{t}.{i}" not in excluded and f"s{t}.{i}" not in excluded  # not after: not before
            ]
            if reads and key not in excluded:
                text = f"\n{indent}".join(reads) + f"\n{indent}"
                variants.append(Variant(key, (ByteEdit(action.start_byte, action.start_byte, text),)))
        return variants

    @staticmethod
    def locate(scratch: ScratchClass, line: int) -> str | None:
        """The statement a compile error is in (its marker), else the method's variant key."""
        lines = scratch.text.splitlines()
        if 0 < line <= len(lines) and (match := _MARKER.search(lines[line - 1])):
            return match.group(1)
        return scratch.method_at(line)

    # -- reading the outcome -----------------------------------------------------------------
    def interpret(self, outcome: ScratchOutcome) -> dict[int, TestObservation]:
        """Per plan index: the values both runs agreed on, flaky targets, what the prefix threw."""
        result: dict[int, TestObservation] = {}
        for t, (plan, groups) in enumerate(zip(self.plans, self.groups, strict=True)):
            observation = TestObservation()
            errors = []
            for g, group in enumerate(groups):
                runs = [outcome.results.get(self.variant_key(t, g, run)) for run in range(RUNS)]
                compile_error = outcome.compile_errors.get(self.variant_key(t, g, 0))
                if compile_error is not None or outcome.class_error is not None:
                    errors.append(f"does not compile here: {compile_error or outcome.class_error}")
                    continue
                if any(r is None or r.status in ("timeout", "crashed", "notrun", "notfound") for r in runs):
                    errors.append(_not_run(runs))
                    continue
                failed = [r.exception for r in runs if r is not None and r.status == "failed"]
                if any(e in LINKAGE_ERRORS for e in failed):  # a class of the project failed to load
                    errors.append(f"could not load the code here ({failed[0].rsplit('.', 1)[-1]})")
                    continue
                if failed:
                    if g == 0 and len(failed) == RUNS and len(set(failed)) == 1:  # the same both times
                        reached = all(self.reach_key(t, run) in outcome.observations for run in range(RUNS))
                        if reached:
                            observation.thrown = failed[0]
                        else:
                            observation.thrown_before = failed[0]
                    elif g == 0:
                        errors.append(_unsteady(failed))
                    continue
                if g == 0 and observation.thrown is None:
                    observation.completed = all(r is not None and r.status == "passed" for r in runs)
                for i in group:
                    self._read(plan, t, i, outcome.observations, observation)
            if errors and not observation.values and observation.thrown is None:
                observation.error = errors[0]
            if observation.thrown is not None:
                observation.thrown_ancestors = outcome.ancestors.get(observation.thrown, ())
            self._read_before(t, plan, outcome, observation)
            result[t] = observation
        return result

    def _read_before(
        self, t: int, plan: ObservationPlan, outcome: ScratchOutcome, into: TestObservation
    ) -> None:
        """The values right before the action, where both runs got there and agree."""
        reads, fresh = self.before[t]
        into.fresh = set(fresh)
        runs = [outcome.results.get(self.before_key(t, run)) for run in range(RUNS)]
        if any(r is None or r.status != "passed" for r in runs):
            return
        for i in reads:
            records = [
                outcome.observations.get(self.before_observation_key(t, run, i)) for run in range(RUNS)
            ]
            first = records[0]
            if first is not None and all(r == first for r in records[1:]):
                into.before[plan.targets[i].expression] = ObservedValue(first.kind, first.type, first.payload)

    def _read(
        self,
        plan: ObservationPlan,
        t: int,
        i: int,
        observations: dict[str, Observation],
        into: TestObservation,
    ) -> None:
        records = [observations.get(self.observation_key(t, run, i)) for run in range(RUNS)]
        if any(r is None for r in records):
            return
        target = plan.targets[i]
        first = records[0]
        assert first is not None
        clock = first.kind != "thrown" and holds_the_clock(first.payload)  # agrees within one second
        if clock or any(r != first for r in records[1:]):
            into.flaky.add(target.expression)
            return
        if first.kind == "thrown" and target.kind == "call" and plan.prefix.replace_last:
            into.thrown = first.type  # the prefix's own last statement threw
            into.completed = False
            return
        into.values[target.expression] = ObservedValue(first.kind, first.type, first.payload)


@dataclass(frozen=True)
class ObservationKey(MemoKey):
    """A test's observation: on the run's context (:meth:`ScratchRunner.context_key`: the helper,
    the project's code and classpath, the limits) and the targets read."""

    context: str
    targets: tuple[Target, ...]


def keeps(observation: TestObservation) -> bool:
    """Whether an observation may stand for the next versions: not one a loaded machine or a
    rebuilt class may change (a time limit, a run that did not happen, classes failing to load)."""
    return observation.error is None or observation.error.startswith("does not compile here")


class ValueObserver:
    """Observes the oracle-free tests of a file with the checker's helper JVMs and classpath."""

    def __init__(self, checker: OracleChecker) -> None:
        self.checker = checker

    def observe(
        self,
        source: SourceText,
        plans: Sequence[ObservationPlan],
        cancelled: Callable[[], bool] | None = None,
        kept: KeptResults | None = None,
    ) -> FileObservation:
        """Run ``plans``' prefixes and read their targets.

        With ``kept`` (the editor's), a test whose method, file, targets and run context are those
        of an observation kept there is not run again: an edit in one test of a large file
        compiles and runs that test's methods alone.
        """
        start = time.monotonic()
        result = FileObservation()
        harness = Harness(source, plans)
        if not harness.plans:
            return result
        bench = self.checker.bench(source)
        if isinstance(bench, str):
            result.notes.append(f"{NOT_OBSERVED}{bench}")
            return result
        result.notes.append(bench.classpath.describe())
        runner = ScratchRunner(bench.worker, self.checker.cache_dir, self.checker.settings.use_cache)
        kinds: dict[int, ObservationKey] = {}
        if kept is not None:
            context = runner.context_key(bench.context, self.checker.settings.timeout_s, {})
            todo, idle = [], []
            for plan in harness.plans:
                kinds[plan.test.node.id] = kind = ObservationKey(context, plan.targets)
                reuse = kept.get(kind, plan.key)
                if reuse is None:
                    todo.append(plan)
                else:
                    idle.append(plan.test)
                    result.tests[plan.test.line + 1] = copy.deepcopy(reuse.value)
            harness = Harness(source, todo, idle)
        if harness.plans:
            outcome = self._run(harness, runner, bench, cancelled)
            if isinstance(outcome, str):
                result.tests.clear()
                result.notes.append(f"{NOT_OBSERVED}{outcome}")
                return result
            if outcome.left_out:
                result.notes.append(left_out_note(outcome.left_out))
            for t, observation in harness.interpret(outcome).items():
                plan = harness.plans[t]
                result.tests[plan.test.line + 1] = observation
                if kept is not None and keeps(observation):
                    kept.put(kinds[plan.test.node.id], plan.key, copy.deepcopy(observation))
        result.elapsed_s = time.monotonic() - start
        return result

    def _run(
        self, harness: Harness, runner: ScratchRunner, bench: Bench, cancelled: Callable[[], bool] | None
    ) -> ScratchOutcome | str:
        timeout = self.checker.settings.timeout_s
        try:
            for attempt in range(2):
                outcome = runner.run(
                    harness.build, bench.context, timeout, cancelled=cancelled, locate=harness.locate
                )
                if attempt or not outcome.stale or bench.context.deps_dir is None:
                    break
                runner.reset_deps(bench.context)  # classes compiled on demand went stale: rebuild once
        except (HelperFailed, TimeoutError) as exc:
            return f"the observing JVM failed: {exc}"
        if outcome.class_error is not None:
            return f"the test class does not compile here: {outcome.class_error}"
        return outcome


def left_out_note(left_out: Sequence[str], shown: int = 3) -> str:
    """What a file's tests were observed without (:mod:`oracular.execution.pruning`), in one line."""
    more = f" and {len(left_out) - shown} more" if len(left_out) > shown else ""
    return f"observed without what does not compile here: {'; '.join(left_out[:shown])}{more}"


def _not_run(runs: Sequence[TestOutcome | None]) -> str:
    """Why a prefix the helper never ran to its end is not observed, as far as the run says: a time
    limit, its class failing before it (a ``@BeforeClass`` that threw), the helper stopping, or
    JUnit not finding it."""
    if any(r is not None and r.status == "timeout" for r in runs):
        return "ran past its time limit"
    said = next((r for r in runs if r is not None and r.message and r.message != NOT_RUN), None)
    if said is None:
        return "did not run"
    reason = " ".join(said.message.split())
    reason = reason if len(reason) <= MAX_REASON else reason[: MAX_REASON - 3] + "..."
    return f"did not run: {'JUnit did not find it: ' if said.status == 'notfound' else ''}{reason}"


def _unsteady(failed: Sequence[str]) -> str:
    """Why a prefix that threw in one run but not the other, or threw differently, is not observed:
    neither an exception oracle nor a value read after it could be trusted to hold next time."""
    names = [name.rsplit(".", 1)[-1] for name in failed]
    if len(failed) < RUNS:
        return f"the prefix threw {names[0]} in {len(failed)} of {RUNS} runs"
    return f"the prefix threw differently from run to run ({', '.join(dict.fromkeys(names))})"
