"""The regression-oracle baseline: assert that a test's target keeps the value it has now.

Why it is in the evaluation: it is what test generators (EvoSuite, Randoop) write, and it is
the strongest oracle one can get without understanding the code, since it can never fail on the
code it was recorded from (except for flaky values). An inserted oracle that kills fewer
mutants than a recorded value is not earning its keep.

Two steps over the scratch machinery: an observing variant runs the prefix and hands the
target's value to the helper (:func:`oracular.execution.observe.observe_statement`); then
:func:`regression_body` turns the observation into an ordinary JUnit assertion (fully
qualified, so it needs no import) or, when the prefix threw, into an expected-exception check.
"""

from __future__ import annotations

from collections.abc import Sequence

from oracular.execution.jvm import Observation, TestOutcome
from oracular.execution.observe import java_string
from oracular.java.assertions import ASSERT_FALSE, ASSERT_TRUE
from oracular.java.junit import Flavour

ASSERT_CLASS = {
    Flavour.JUNIT5: "org.junit.jupiter.api.Assertions",
    Flavour.JUNIT4: "org.junit.Assert",
    Flavour.JUNIT3: "junit.framework.Assert",
}


def _thrown_check(
    flavour: Flavour, prefix: Sequence[str], exception: str, extra: Sequence[str] = ()
) -> list[str]:
    assert_class = ASSERT_CLASS[flavour]
    body = "\n".join(f"    {s}" for s in (*prefix, *extra))
    return [
        f"try {{\n{body}\n}} catch (Throwable oracular$e) {{\n"
        f"    {assert_class}.assertEquals({java_string(exception)}, oracular$e.getClass().getName());\n"
        f"    return;\n}}",
        f"{assert_class}.fail({java_string('expected ' + exception)});",
    ]


def regression_body(
    flavour: Flavour,
    prefix: Sequence[str],
    expression: str | None,
    observed: TestOutcome,
    observation: Observation | None,
) -> list[str] | None:
    """The test body with a recorded-value oracle, from the observing run; ``None``: nothing to record.

    ``observed`` is the observing variant's outcome: if it failed, the prefix threw before the
    target could be read, and the recorded oracle expects that exception.
    """
    assert_class = ASSERT_CLASS.get(flavour)
    if assert_class is None:
        return None
    if observed.status == "failed" and observed.exception:
        return _thrown_check(flavour, prefix, observed.exception)
    if observed.status != "passed" or observation is None or expression is None:
        return None
    kind, payload = observation.kind, observation.payload
    value = f"({expression})"
    if kind == "thrown":
        return _thrown_check(flavour, prefix, observation.type, [f"Object oracular$v = {value};"])
    if kind == "boolean":
        method = ASSERT_TRUE if payload == "true" else ASSERT_FALSE
        oracle = f"{assert_class}.{method}({value});"
    elif kind == "literal":
        # `(Object) -1` would parse as a subtraction from a variable named Object.
        oracle = f"{assert_class}.assertEquals((Object) ({payload}), (Object) {value});"
    elif kind == "string":
        oracle = f"{assert_class}.assertEquals({payload}, String.valueOf((Object) {value}));"
    elif kind == "enum":
        oracle = f"{assert_class}.assertEquals({java_string(payload)}, String.valueOf((Object) {value}));"
    elif kind == "class":
        oracle = f"{assert_class}.assertEquals({payload}.class, (Object) {value});"
    elif kind == "array":
        oracle = f"{assert_class}.assertTrue(java.util.Objects.deepEquals({payload}, {value}));"
    elif kind == "list":
        oracle = f"{assert_class}.assertEquals(java.util.Arrays.asList({payload}), (Object) {value});"
    elif kind == "null":
        oracle = f"{assert_class}.assertNull({value});"
    elif kind == "object":
        oracle = f"{assert_class}.assertNotNull({value});"
    else:
        return None
    return [*prefix, oracle]
