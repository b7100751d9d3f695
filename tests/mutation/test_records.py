"""An oracle that kills mutants of two methods is one oracle: counted per method, offered once."""

from __future__ import annotations

from pathlib import Path

from oracular.mutation.calls import CalledMethod
from oracular.mutation.operators import Mutant
from oracular.mutation.records import ClassResult, KillingOracle, MethodResult, MethodVerdict, MutantResult


def _method(name: str, mutant_id: str, oracle: KillingOracle) -> MethodResult:
    mutant = Mutant(mutant_id, Path("C.java"), "extreme", 3, 0, 1, "{ }", "{ }", name)
    called = CalledMethod(Path("C.java"), "p.Counter", name, 2, 0)
    return MethodResult(called, ["t"], [MutantResult(mutant, ["t"])], [oracle])


def test_a_shared_oracle_counts_per_method_and_is_listed_once() -> None:
    oracle = KillingOracle("t", 5, "assertEquals(1, v);", [], kills=["a", "b"], holds=True)
    increment, value = _method("increment", "a", oracle), _method("value", "b", oracle)
    result = ClassResult(Path("CounterTest.java"), [increment, value])
    assert (increment.kills_of(oracle), value.kills_of(oracle)) == (1, 1)
    assert result.oracles == [oracle]
    assert result.killed_methods(oracle) == ["Counter.increment", "Counter.value"]
    assert increment.verdict is MethodVerdict.PSEUDO_TESTED  # its one mutant survived
