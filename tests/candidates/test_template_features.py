"""Template features: what a template's text, the prefix and the test's name say about it.

Why: the prior (``models/prior.py``) is fitted on training samples (JSON texts) and applied to
live engine problems, so the features must read the same from both, and each must mean what its
name says.
"""

from __future__ import annotations

import math

import pytest

from oracular.candidates.template_features import FEATURES, TemplateContext, parse_template
from oracular.candidates.templates import group_by_template, target_templates
from oracular.engine import OracleEngine
from oracular.java import syntax

from ..conftest import EXAMPLE_TESTS
from ..models.conftest import engine_problems

STATEMENTS = ["Stack<Integer> s = new Stack<>();", "s.push(1);", 'int n = other.count(s, "a,b");']
TEMPLATES = [
    "assertNotNull(s)",
    "assertEquals(?, s.size())",
    "assertTrue(s.isEmpty())",
    "assertEquals(?, n)",
    "assertEquals(?, s.get(0))",
    "assertArrayEquals(?, s.toArray())",
]


def _features(
    templates: list[str], name: str = "testSizeAfterPush", order: list[str] | None = None
) -> list[dict]:
    rows = TemplateContext(STATEMENTS, name).features(templates, order)
    assert all(len(row) == len(FEATURES) for row in rows)
    return [dict(zip(FEATURES, row, strict=True)) for row in rows]


@pytest.mark.parametrize(
    ("text", "assertion", "target"),
    [
        ("assertEquals(?, s.size())", "assertEquals", "s.size()"),
        ('assertTrue(map.containsKey("a, b"))', "assertTrue", 'map.containsKey("a, b")'),
        ("assertEquals(?, f(a, g(b, c)))", "assertEquals", "f(a, g(b, c))"),
        ("assertNull(x);", "assertNull", "x"),
    ],
)
def test_a_template_is_read_as_its_assertion_and_target(text: str, assertion: str, target: str) -> None:
    parsed = parse_template(text)
    assert parsed is not None and (parsed.assertion, parsed.target) == (assertion, target)


def test_unreadable_templates_get_only_a_place() -> None:
    assert parse_template("not a template") is None
    row = _features(["not a template", "assertNull(s)"])[0]
    assert all(row[name] == 0.0 for name in FEATURES if name not in ("position", "log_position"))


def test_the_assertion_is_one_hot() -> None:
    rows = _features(TEMPLATES)
    kinds = [[name for name in FEATURES if name.startswith("is_") and row[name]] for row in rows]
    assert (
        kinds[0] == ["is_assertNotNull"]
        and kinds[2] == ["is_assertTrue"]
        and kinds[5] == ["is_assertArrayEquals"]
    )


def test_the_test_name_points_at_targets_named_like_it() -> None:
    size, empty = _features(TEMPLATES)[1:3]
    assert size["name_mentions"] == 1.0 and size["name_overlap"] == pytest.approx(0.5)  # {s, size}
    assert empty["name_mentions"] == 0.0
    renamed = _features(TEMPLATES, "ShapeTest.testIsEmptyAtFirst")[1:3]
    assert renamed[0]["name_mentions"] == 0.0 and renamed[1]["name_mentions"] == 1.0


def test_a_null_check_on_an_object_the_prefix_built_cannot_fail() -> None:
    rows = _features(["assertNotNull(s)", "assertNotNull(n)", "assertEquals(?, s.size())"])
    assert [row["built_fresh"] for row in rows] == [1.0, 0.0, 0.0]
    assert _features(["assertNull(s)"], "testNullStack")[0]["name_null"] == 1.0


def test_shape_and_recency_of_the_target() -> None:
    rows = _features(TEMPLATES)
    assert rows[0]["variable"] == 1.0 and rows[0]["call"] == 0.0
    assert rows[4]["call"] == 1.0 and rows[4]["call_arguments"] == 1.0 and rows[4]["getter"] == 1.0
    assert rows[1]["call_arguments"] == 0.0 and rows[1]["getter"] == 0.0
    assert rows[3]["base_last"] == 1.0 and rows[3]["base_declared_last"] == 1.0  # n, from the last statement
    assert rows[1]["base_last"] == 1.0 and rows[1]["base_declared_last"] == 0.0  # s is passed to count
    assert rows[3]["base_recency"] == 1.0
    assert _features(["assertEquals(?, holder.value)"])[0]["field"] == 1.0


def test_a_templates_place_is_its_targets_place_in_the_engines_order() -> None:
    rows = _features(TEMPLATES)
    assert rows[0]["position"] == 0.0 and rows[5]["position"] == 1.0
    assert rows[1]["position"] == pytest.approx(1 / 5)  # s.size() is the second target of six
    # observed candidates come first at run time: the engine's static order still decides
    moved = _features(list(reversed(TEMPLATES)), order=TEMPLATES)
    assert moved[::-1] == rows


def test_a_live_problem_reads_as_its_training_sample_would(engine: OracleEngine) -> None:
    """The engine's static templates are a sample's candidates, in the same order."""
    for problem in engine_problems(engine, EXAMPLE_TESTS / "StackTest.java"):
        texts, _ = group_by_template([c for c in problem.candidates if c.kind != "exception"])
        order, _ = group_by_template(target_templates(problem.prefix.targets))
        statements = [syntax.text(s) for s in problem.prefix.statements]
        assert [t for t in order if t in set(texts)] == texts
        context = TemplateContext(statements, problem.test_name)
        as_sample = dict(zip(order, context.features(order), strict=True))
        assert context.features(texts, order) == [as_sample[t] for t in texts]


def test_what_the_file_asserts_and_the_fixtures() -> None:
    """args4j: the file's other tests assert ``testObject.str``; this prefix parses and names no
    ``testObject`` (a fixture its set-up made)."""
    statements = ["CmdLineParser parser = new CmdLineParser(bean);", 'parser.parseArgument("-str", "x");']
    templates = [
        "assertEquals(?, testObject.str)",
        "assertEquals(?, parser.getArguments().size())",
        "assertNotNull(bean)",
    ]

    def named(context: TemplateContext) -> list[dict]:
        return [dict(zip(FEATURES, row, strict=True)) for row in context.features(templates)]

    after_action = named(
        TemplateContext(statements, "testStr", frozenset({".str", ".getArguments().size()"}))
    )
    assert [r["alike"] for r in after_action] == [1.0, 1.0, 0.0]
    assert [r["alike_after_action"] for r in after_action] == [1.0, 1.0, 0.0]
    assert [r["base_unmentioned"] for r in after_action] == [1.0, 0.0, 0.0]  # bean is named (an argument)
    computed = named(TemplateContext(statements, "testStr", frozenset({".str"}), computes_value=True))
    assert computed[0]["alike"] == 1.0 and computed[0]["alike_after_action"] == 0.0
    sample = {"test": "testStr", "asserted": [".str"], "computes_value": True}
    assert named(TemplateContext.of_sample(sample, statements)) == computed
    assert named(TemplateContext.of_sample({"test": "testStr"}, statements)) == named(
        TemplateContext(statements, "testStr")
    )  # a sample mined before these fields


def test_what_the_last_call_is() -> None:
    targets = ["s.size()", "a.length", "s.toString()", "s.hashCode()", "s.peek()"]
    rows = _features([f"assertEquals(?, {target})" for target in targets])
    assert [row["size_like"] for row in rows] == [1.0, 1.0, 0.0, 0.0, 0.0]
    assert [row["to_string"] for row in rows] == [0.0, 0.0, 1.0, 0.0, 0.0]
    assert [row["identity_method"] for row in rows] == [0.0, 0.0, 0.0, 1.0, 0.0]


def test_the_numbers_the_shipped_prior_was_fitted_on() -> None:
    """Changing a feature silently mis-applies the shipped prior's weights: re-fit it, then
    update these numbers. A chain is read by its first call (``getDeltas``, not ``size``)."""
    context = TemplateContext(["Patch p = diff(a, b);", "int n = 2;"], "DiffTest.testDeltas")
    rows = context.features(
        ["assertEquals(?, p.getDeltas().size())", "assertNotNull(p)", "assertEquals(?, n)"]
    )
    named = [{name: v for name, v in zip(FEATURES, row, strict=True) if v} for row in rows]
    assert named[0] == pytest.approx(
        {
            "is_assertEquals": 1.0,
            "name_overlap": 1 / 3,
            "name_mentions": 1.0,
            "call": 1.0,
            "call_arguments": 1.0,
            "depth": 2 / 3,
            "getter": 1.0,
            "base_recency": 0.5,
        }
    )
    assert named[1] == pytest.approx(
        {
            "is_assertNotNull": 1.0,
            "variable": 1.0,
            "base_recency": 0.5,
            "position": 0.5,
            "log_position": math.log(2),
        }
    )
    assert named[2] == pytest.approx(
        {
            "is_assertEquals": 1.0,
            "variable": 1.0,
            "base_last": 1.0,
            "base_recency": 1.0,
            "base_declared_last": 1.0,
            "position": 1.0,
            "log_position": math.log(3),
        }
    )
