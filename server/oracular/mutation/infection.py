"""The probe's runs: which tests really execute a surviving mutant's method, and which infect it.

Why before anything else is said of a survivor: the tests were matched to methods by their source
(:mod:`oracular.mutation.calls`), and a call in the source may not be reached, or may reach
another overload than the one inferred. A mutant that no test executes is not pseudo-tested, it
is untested: the tests that never ran the method are taken off its list. Each test runs alone
against the probed class (:mod:`oracular.mutation.probe`), its records telling whether the method
ran and, per mutant, whether the original differed from it where the method returned.
"""

from __future__ import annotations

from collections.abc import Sequence

from oracular.mutation.calls import method_node
from oracular.mutation.probe import called_key, probe_key, probed_source
from oracular.mutation.records import MethodResult
from oracular.mutation.runs import ClassBench, test_key

Infection = dict[tuple[str, str], bool]
"""(surviving mutant id, test) -> whether the original differed from the mutant there."""


def probe_survivors(runs: ClassBench, methods: Sequence[MethodResult]) -> Infection:
    """Run the probe for each method with survivors; drop the tests that never ran the method from
    its survivors' lists (into ``not_reached``). Where the probe does not compile, the lists stay
    as the source says and nothing is known of infection."""
    found: Infection = {}
    for method in methods:
        survivors = [m for m in method.mutants if m.survived]
        if not survivors:
            continue
        focal = runs.focal(method.method.path)
        node = method_node(focal, method.method)
        if node is None:
            continue
        mutants = [m.mutant for m in survivors]
        overlay = runs.overlay(f"probe-{mutants[0].id}", focal, probed_source(focal, node, mutants))
        if overlay is None:
            continue
        for test in dict.fromkeys(t for m in survivors for t in m.executed_by):
            records = runs.observations_alone("tests", test_key(test), overlay)
            ran = called_key(mutants) in records
            for m in survivors:
                if not ran and test in m.executed_by:
                    m.executed_by.remove(test)
                    m.not_reached.append(test)
                found[(m.mutant.id, test)] = probe_key(m.mutant) in records
    return found


__all__ = ["Infection", "probe_survivors"]
