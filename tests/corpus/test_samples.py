"""Sample extraction per oracle category, on the fixture corpus (tests/fixtures/corpus).

Why: the datasets are only as good as the cut. Each category must yield the right sample, the
prefix must be oracle-free with the throwing statement last, and nothing may leak the label
(test names, ``expected=`` annotations, messages).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from oracular.corpus.samples import FileMiner, FileSamples, build_sample_candidates, ground_truth_labels
from oracular.engine import OracleEngine
from oracular.java.source import load_source
from oracular.java.workspace import WorkspaceIndex
from tests.conftest import TEST_DICTIONARY

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "corpus"


def mine(package: str, test_file: str) -> FileSamples:
    root = CORPUS / package
    index = WorkspaceIndex([root])
    index.refresh()
    engine = OracleEngine(index, project_root=root)
    source = load_source(root / "src" / "test" / "java" / package / test_file)
    return FileMiner(engine, engine.analyse(source), {"package": package, "file": test_file}).run()


@pytest.fixture(scope="module")
def alpha() -> FileSamples:
    return mine("alpha", "CounterTest.java")


@pytest.fixture(scope="module")
def beta() -> FileSamples:
    return mine("beta", "StackTest.java")


def by_line(samples: list[dict], line: int) -> list[dict]:
    return [s for s in samples if s["line"] == line]


def test_categories(alpha: FileSamples, beta: FileSamples) -> None:
    assert alpha.categories == {
        "assertion-only": 5,  # incrementsByOne, startsAtZero, nameIsNull, addsTwo, addsOne
        "must-throw": 1,
        "must-not-throw": 1,
        "custom-helper": 1,
        "no-oracle": 1,
    }
    assert beta.categories["must-throw"] == 4  # expected=, try/fail/catch, rule, assertThatThrownBy
    assert beta.categories["assertion-only"] == 4


def test_assert_throws_sample_keeps_the_throwing_call_last(alpha: FileSamples) -> None:
    [sample] = [s for s in alpha.exception if s["label"]]
    assert sample["exception"] == "IllegalArgumentException"
    assert sample["source"] == "assertThrows"
    body = sample["prefix"].splitlines()
    assert body[-2].strip() == "c.add(-1);"
    assert "assertThrows" not in sample["prefix"]
    # The focal context is the signature and Javadoc, never the body.
    assert sample["focal"]["signature"] == "public void add(int step)"
    assert "negative" in sample["focal"]["javadoc"]
    assert "throw new" not in sample["focal"]["javadoc"]
    assert sample["exceptions"] == ["IllegalArgumentException"]


def test_every_exception_source_in_junit4(beta: FileSamples) -> None:
    positives = {s["source"]: s for s in beta.exception if s["label"]}
    assert set(positives) == {"expected", "try-fail-catch", "expected-rule", "assertThatThrownBy"}
    for sample in positives.values():
        assert sample["exception"] == "IllegalStateException"
        assert sample["prefix"].splitlines()[-2].strip() == "s.pop();"
        for leak in ("@Test", "expected", "fail(", "thrown.expect", "popEmpty"):
            assert leak not in sample["prefix"]


def test_negatives_come_from_assertion_tests_and_does_not_throw(alpha: FileSamples) -> None:
    negatives = [s for s in alpha.exception if not s["label"]]
    assert {s["source"] for s in negatives} == {"assertion", "does-not-throw"}
    [not_throw] = [s for s in negatives if s["source"] == "does-not-throw"]
    assert not_throw["prefix"].splitlines()[-2].strip() == "c.add(2);"
    # No negative is cut from the helper-checked or the oracle-free test.
    assert len([s for s in negatives if s["source"] == "assertion"]) == 5


def test_test_names_are_normalised(alpha: FileSamples) -> None:
    names = {s["test"] for s in alpha.exception + alpha.assertion}
    assert all(name.startswith("test") and name[4:].isdigit() for name in names)
    assert not any("increments" in s["prefix"] or "Zero" in s["prefix"] for s in alpha.assertion)


def test_assertion_samples_are_cut_before_each_oracle(alpha: FileSamples) -> None:
    texts = {s["assertion"] for s in alpha.assertion}
    assert "assertEquals(0L, c.value())" in texts  # message dropped
    second = next(s for s in alpha.assertion if s["assertion"] == "assertEquals(0L, c.value())")
    # The earlier assertTrue is not part of the second assertion's prefix.
    assert "assertTrue" not in second["prefix"]
    # c.value() is among the prefix's own targets (an action on c): nothing is appended
    assert second["mode"] == "as-is"
    assert "c.value()" in {t["expression"] for t in second["targets"]}
    assert second["prefix"].splitlines()[-2].strip() != "c.value();"


def test_ground_truth_is_found_among_engine_candidates(alpha: FileSamples) -> None:
    dictionary = TEST_DICTIONARY
    found = {}
    for sample in alpha.assertion:
        candidates = build_sample_candidates(sample, dictionary)
        found[sample["assertion"]] = bool(ground_truth_labels(candidates, sample["key"]))
        assert sample["in_grammar"]
    assert found["assertEquals(2, v)"]  # a prefix literal
    assert found["assertNull(name)"]
    assert found["assertTrue(c.isZero())"]
    assert found["assertEquals(0L, c.value())"]  # 0 from the global dictionary, suffix normalised
    [addsTwo] = [s for s in alpha.assertion if s["assertion"] == "assertEquals(2, v)"]
    assert addsTwo["mode"] == "as-is" and addsTwo["target_type"] == "long"


def test_hamcrest_and_delta_assertions(beta: FileSamples) -> None:
    texts = {s["assertion"]: s for s in beta.assertion}
    assert texts['assertEquals("x", s.peek())']["family"] == "assertThat (Hamcrest)"
    assert texts["assertEquals(0.5d, r)"]["in_grammar"]
    assert texts["assertEquals(1, s.size())"]["family"] == "assertEquals"


def test_nested_assertions_are_counted_not_mined() -> None:
    from tests.conftest import java

    source = java(
        """
        import org.junit.jupiter.api.Test;
        import static org.junit.jupiter.api.Assertions.*;
        class LoopTest {
            @Test void each() { int[] xs = {1, 2}; for (int x : xs) { assertTrue(x > 0); } }
        }
        """
    )
    engine = OracleEngine(WorkspaceIndex([]))
    out = FileMiner(engine, engine.analyse(source), {}).run()
    assert out.counts["nested_assertions"] == 1
    assert out.assertion == []


def test_a_sample_takes_only_the_global_values_its_target_can_equal() -> None:
    """As the engine does (``values.plausible``): no negative count, a list's text reads "[...]"."""
    sample = {
        "targets": [
            {
                "expression": "xs.size()",
                "type": "int",
                "kind": "observer",
                "receiver": "xs",
                "method": "size",
            },
            {
                "expression": "xs.toString()",
                "type": "String",
                "kind": "text",
                "receiver": "xs",
                "method": "toString",
            },
        ],
        "values": {},
        "exceptions": [],
    }
    dictionary = {"int": ("0", "-1"), "String": ('""', '"[]"')}
    texts = {c.expected.text for c in build_sample_candidates(sample, dictionary) if c.expected is not None}
    assert texts == {"0", '"[]"'}
