"""Oracle detection: does a test check anything?

A false "missing oracle" is noise that teaches users to ignore the tool, so detection is
generous: any assertion library entry point, expected-exception annotations and rules, thrown
``AssertionError``s, and helper methods (in the class, enclosing classes, or workspace
superclasses) that assert, followed several levels deep.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from oracular.java.declarations import ClassInfo, Import, MethodInfo
from oracular.java.workspace import WorkspaceIndex

_ORACLE_NAME = re.compile(r"^(assert|fail|verify|expect|check)([A-Z_]\w*)?$")
ORACLE_NAMES = frozenset(
    {
        # AssertJ / BDD / Mockito BDD / Truth / JUnit 4 ErrorCollector / TestNG
        "then", "should", "shouldHaveThrown", "failBecauseExceptionWasNotThrown", "assertSoftly",
        "that", "about", "checkThat", "checkSucceeds", "addError", "expectThrows",
        "assertIsSatisfied", "catchThrowableOfType",
    }
)  # fmt: skip
_CHECK_NAME = re.compile(r"^check([A-Z]\w*)?$")
_TESTER_CALL = re.compile(r"^\w*[Tt]ester(<[^>]*>)?\.test([A-Z]\w*)?$")
"""Guava-testlib style tester objects (``new NullPointerTester().testAllPublicStaticMethods(...)``,
``iteratorTester.test()``) carry the oracle inside them."""
HELPER_DEPTH = 3


@dataclass(frozen=True)
class OracleEvidence:
    """Why a test counts as having an oracle, for messages and corpus statistics."""

    reason: str
    via_helper: str | None = None


def is_oracle_call(name: str, extra: frozenset[str] = frozenset()) -> bool:
    """Whether a call by this name is an assertion entry point.

    ``check*`` only counts through helper resolution (``checkArgument`` from Guava is not an
    oracle), so it is excluded here.
    """
    if name in extra or name in ORACLE_NAMES or _TESTER_CALL.match(name):
        return True
    return bool(_ORACLE_NAME.match(name)) and not _CHECK_NAME.match(name)


def _direct(method: MethodInfo, extra: frozenset[str]) -> str | None:
    if method.throws_assertion_error:
        return "throws AssertionError"
    hits = sorted(n for n in method.called if is_oracle_call(n, extra))
    return hits[0] if hits else None


def find_oracle(
    method: MethodInfo,
    scope: Mapping[str, Iterable[MethodInfo]],
    extra: frozenset[str] = frozenset(),
    expected_exception: str | None = None,
) -> OracleEvidence | None:
    """The evidence that ``method`` has an oracle, or ``None`` if it checks nothing.

    ``scope`` maps a method name to the helper declarations a call by that name may reach.
    """
    if expected_exception:
        return OracleEvidence(f"expected={expected_exception}")
    direct = _direct(method, extra)
    if direct:
        return OracleEvidence(direct)
    visited = {id(method)}
    frontier = [(method, None)]
    for _ in range(HELPER_DEPTH):
        next_frontier: list[tuple[MethodInfo, str | None]] = []
        for current, first_helper in frontier:
            for name in sorted(current.called):
                for helper in scope.get(name, ()):
                    if id(helper) in visited:
                        continue
                    visited.add(id(helper))
                    via = first_helper or name
                    reason = _direct(helper, extra)
                    if reason:
                        return OracleEvidence(reason, via_helper=via)
                    next_frontier.append((helper, via))
        frontier = next_frontier
    return None


@dataclass
class HelperScope(Mapping[str, list[MethodInfo]]):
    """The helpers a test's calls may reach, resolved lazily.

    Bare names reach methods of the test's class chain (``classes``) or a statically imported
    helper; ``Class.name`` reaches a static method of a workspace class (suites keep shared
    assertions in ``TestUtils``-style classes). Resolving by name across the whole workspace
    would wrongly clear tests that merely call ``close()`` or ``get()``.
    """

    classes: list[ClassInfo]
    index: WorkspaceIndex
    package: str = ""
    imports: list[Import] = field(default_factory=list)
    _cache: dict[str, list[MethodInfo]] = field(default_factory=dict, repr=False)

    @property
    def origin(self) -> str:
        """The test file's path: of classes declared in several modules, its own module's."""
        return self.classes[0].path if self.classes else ""

    def __getitem__(self, key: str) -> list[MethodInfo]:
        if key not in self._cache:
            self._cache[key] = self._resolve(key)
        return self._cache[key]

    def _resolve(self, key: str) -> list[MethodInfo]:
        owner_name, _, name = key.rpartition(".")
        if owner_name[:1].islower():
            return []  # an instance call: only Class.method names a helper we can follow
        if owner_name:
            owner = self.index.resolve(owner_name, self.package, self.imports, origin=self.origin)
            return owner.methods_named(name) if owner is not None else []
        found = [m for cls in self.classes for m in cls.methods_named(name)]
        for imp in self.imports:
            if imp.is_static and (imp.simple == name or imp.is_wildcard):
                owner_name = imp.name if imp.is_wildcard else imp.name.rpartition(".")[0]
                owner = self.index.resolve(owner_name, origin=self.origin)
                if owner is not None:
                    found += owner.methods_named(name)
        return found

    def __iter__(self):
        return iter(self._cache)

    def __len__(self) -> int:
        return len(self._cache)
