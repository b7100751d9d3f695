"""Documented ``@throws`` conditions evaluated on the focal call's literal arguments."""

from __future__ import annotations

import pytest

from oracular.candidates.template_features import TemplateContext
from oracular.candidates.throws_conditions import (
    Argument,
    call_arguments,
    condition_holds,
    condition_signals,
    parameter_names,
    read_argument,
)

GAMMA = {
    "class": "Gamma",
    "method": "invGamma1pm1",
    "signature": "public static double invGamma1pm1(final double x)",
    "javadoc": "Returns 1 / Gamma(1 + x) - 1.\n@param x Argument.\n@return the value\n"
    "@throws NumberIsTooSmallException if x < -0.5\n@throws NumberIsTooLargeException if x > 1.5",
}
SIGMOID = {
    "class": "Parametric",
    "method": "value",
    "signature": "public double value(double x, double... param)",
    "javadoc": "Computes the value.\n@throws NullArgumentException if param is null.\n"
    "@throws DimensionMismatchException if the size of param is not 3.",
}


def test_arguments_are_read_from_literals_and_from_locals_set_to_one() -> None:
    assert read_argument("-0.51") == Argument(number=-0.51)
    assert read_argument("1.0e-12") == Argument(number=1e-12)
    assert read_argument("4L") == Argument(number=4.0)
    assert read_argument("null") == Argument(null=True)
    assert read_argument("{}") == Argument(length=0)
    assert read_argument("new double[] { 1, 2 }") == Argument(length=2)
    assert read_argument("new int[0]") == Argument(length=0)
    assert read_argument('""') == Argument(length=0)
    assert not read_argument("Integer.MAX_VALUE").known
    assert not read_argument("new Ledger(3)").known
    assert read_argument("data", {"data": "{}"}) == Argument(length=0)


def test_the_focal_call_is_found_and_split_into_arguments() -> None:
    assert parameter_names("public Entry record(long amount, String label) throws X") == ["amount", "label"]
    assert parameter_names("public double value(double x, double... param)") == ["x", "param"]
    assert parameter_names("public Stack()") == []
    assert parameter_names("<T> T pick(Map<String, List<T>> m, int n)") == ["m", "n"]
    statements = ["Gamma g = new Gamma();", "Gamma.invGamma1pm1(f(1, 2), -0.51);"]
    assert call_arguments(statements, GAMMA) == ["f(1, 2)", "-0.51"]
    built = {"class": "TriangularDistribution", "method": "TriangularDistribution"}
    assert call_arguments(["new TriangularDistribution(2, 1, 3);"], built) == ["2", "1", "3"]
    assert call_arguments(["int n = 1;"], GAMMA) is None


@pytest.mark.parametrize(
    ("condition", "arguments", "holds"),
    [
        ("if x < -0.5", {"x": "-0.51"}, True),
        ("if x > 1.5", {"x": "-0.51"}, False),
        ("if k > n.", {"n": "3", "k": "4"}, True),
        ("if a >= b or if c > b.", {"a": "2", "c": "1", "b": "3"}, False),
        ("if c < a.", {"a": "2", "c": "1", "b": "3"}, True),
        ("if stepsize <= 0 (note that ...)", {"stepsize": "0.0"}, True),
        ("if n is not strictly positive", {"n": "0"}, True),
        ("if n is not positive", {"n": "2"}, False),
        ("if n is negative", {"n": "0"}, False),
        ("if param is null.", {"x": "0", "param": "null"}, True),
        ("if param is null.", {"x": "0", "param": "{1, 2}"}, False),
        ("if the coefficients array is empty.", {"coefficients": "{}"}, True),
        ("if either name or value is null or empty", {"name": "null", "value": '"me"'}, True),
        ("if either name or value is null or empty", {"name": '"X"', "value": '""'}, True),
        ("if either name or value is null or empty", {"name": '"X"', "value": '"me"'}, False),
        ("if any of the arrays is null", {"x": "{1}", "y": "null"}, True),
        ("if aKey is a zero-length string", {"key": '""'}, True),  # the Javadoc's name for key
        ("if aKey is null", {"key": '""'}, False),
        ("if the array is empty", {"data": "{}"}, True),  # the one parameter there is
        ("if the array is empty", {"data": "{}", "n": "2"}, None),  # which one: unknown
        ("if the result is not null", {"x": "null"}, None),
        ("if data contains characters not legal in XML, such as a null", {"data": '"=,;"'}, None),
        ("if the mixing ratio is outside the [0, 1] range", {"ratio": "-0.5d"}, True),
        ("if the mixing ratio is outside the [0, 1] range", {"ratio": "0.5"}, False),
        ("if the matrix is singular", {"m": "0"}, None),  # nothing it says can be read
        ("if x < limit", {"x": "1", "limit": "someLimit()"}, None),  # an argument that is no literal
    ],
)
def test_conditions_are_evaluated_on_the_arguments(
    condition: str, arguments: dict[str, str], holds: bool | None
) -> None:
    assert condition_holds(condition, {n: read_argument(t) for n, t in arguments.items()}) is holds


def test_each_exception_type_gets_whether_its_documented_condition_is_met() -> None:
    types = ["NumberIsTooLargeException", "NumberIsTooSmallException", "IllegalArgumentException"]
    assert condition_signals(GAMMA, ["Gamma.invGamma1pm1(-0.51);"], types) == [-1.0, 1.0, 0.0]
    assert condition_signals(GAMMA, ["Gamma.invGamma1pm1(y);"], types) == [0.0, 0.0, 0.0]
    assert condition_signals(None, ["Gamma.invGamma1pm1(-0.51);"], types) == [0.0, 0.0, 0.0]
    statements = ["final Sigmoid.Parametric g = new Sigmoid.Parametric();", "g.value(0, null);"]
    # the size of a null array is unknown: only the null check can be read
    assert condition_signals(
        SIGMOID, statements, ["DimensionMismatchException", "NullArgumentException"]
    ) == [
        0.0,
        1.0,
    ]


def test_the_template_context_reads_the_types_out_of_exception_templates() -> None:
    context = TemplateContext(["Gamma.invGamma1pm1(2.0);"], "testLarge", focal=GAMMA)
    templates = [
        "assertEquals(?, x)",
        "assertThrows(NumberIsTooLargeException.class)",
        "assertThrows(org.apache.commons.math3.exception.NumberIsTooSmallException.class)",
    ]
    assert context.exception_conditions(templates) == [0.0, 1.0, -1.0]
    sample = {"test": "GammaTest.testLarge", "focal": GAMMA}
    assert TemplateContext.of_sample(sample, ["Gamma.invGamma1pm1(2.0);"]).exception_conditions(
        templates
    ) == [
        0.0,
        1.0,
        -1.0,
    ]
