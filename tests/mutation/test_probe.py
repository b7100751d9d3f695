"""The infection probe's wrapper: the original body moved aside, compiled as Java (generics,
varargs, checked exceptions, static methods), each mutant's difference stated."""

from __future__ import annotations

import subprocess
from pathlib import Path

from oracular.execution.toolchain import find_toolchain
from oracular.java import syntax
from oracular.mutation.operators import extreme_mutants
from oracular.mutation.probe import probe_key, probed_source

from ..conftest import java
from .conftest import require_toolchain

CLASS = """
package p;

import java.io.IOException;
import java.util.List;

public class Shapes {
    private int count;

    @Deprecated
    public <T> T first(List<T> items) throws IOException {
        if (items.isEmpty()) throw new IOException("none");
        count++;
        return items.get(0);
    }

    public static int sum(int... xs) {
        int s = 0;
        for (int x : xs) s += x;
        return s;
    }

    public Shapes grow(int by) { count += by; return this; }

    public void reset() { count = 0; }
}
"""


def _probed(name: str, text: str = CLASS) -> tuple[str, list]:
    """``text`` with method ``name`` wrapped by the probe for its extreme mutants, and those."""
    source = java(text)
    source.path = Path("Shapes.java")
    node = next(
        n for n in syntax.walk(source.root)
        if n.type == "method_declaration" and syntax.text(n.child_by_field_name("name")) == name
    )  # fmt: skip
    mutants = extreme_mutants(source, node)
    return probed_source(source, node, mutants).decode(), mutants


def test_each_mutant_gets_its_comparison() -> None:
    text, mutants = _probed("first")
    assert "private <T> T first$oracular(List<T> items) throws IOException {" in text
    assert "@Deprecated\n    public <T> T first(List<T> items) throws IOException {" in text
    assert [m.replacement for m in mutants] == ["{ return null; }"]
    for mutant in mutants:
        assert probe_key(mutant) in text
    self_text, _ = _probed("grow")
    assert "oracular$r != this" in self_text
    sum_text, _ = _probed("sum")
    assert "oracular$r != (0)" in sum_text  # static: its class's static fields, not `this`
    assert "Probe.state(oracular.exec.Probe.statics(Shapes.class), xs)" in sum_text
    reset_text, _ = _probed("reset")
    assert "oracular$changed || false" in reset_text  # void: only the state tells


def test_the_probed_class_compiles(tmp_path: Path) -> None:
    require_toolchain()
    text = java(CLASS).text
    for name in ("first", "sum", "grow", "reset"):
        text, _ = _probed(name, text)
    src = tmp_path / "p" / "Shapes.java"
    src.parent.mkdir()
    src.write_text(text)
    helper = find_toolchain().helper
    command = ["javac", "-d", str(tmp_path / "out"), "-cp", str(helper), str(src)]
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
