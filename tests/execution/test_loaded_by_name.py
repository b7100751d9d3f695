"""The classes a project loads by name are compiled with those javac compiles on demand, so a
prefix that loads one runs to its end (apacheds-jdbm's ``"jdbm.recman.Provider"``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from oracular.cli.common import engine_for
from oracular.engine import EngineSettings
from oracular.execution.loaded_by_name import MARKER, compile_loaded, loaded_by_name
from oracular.execution.oracle_checks import OracleChecker

from .conftest import require_toolchain
from .test_observe import observe, write_project

GREETER = "package p;\npublic interface Greeter { String greet(); }\n"
IMPL = 'package p;\npublic class Impl implements Greeter { public String greet() { return "hi"; } }\n'
GREETERS = """
package p;

public class Greeters {
    /** The greeter the system property names, else the default: loaded by name, never named. */
    public static Greeter load() throws Exception {
        String name = System.getProperty("greeter.class", "p.Impl");
        return (Greeter) Class.forName(name).getDeclaredConstructor().newInstance();
    }
}
"""
GREETERS_TEST = """
package p;

import org.junit.jupiter.api.Test;

class GreetersTest {
    @Test
    void greets() throws Exception {
        Greeter greeter = Greeters.load();
        String greeting = greeter.greet();
    }
}
"""


def _greeters(root: Path) -> Path:
    write_project(
        root,
        {
            "main/java/p/Greeter": GREETER,
            "main/java/p/Impl": IMPL,
            "main/java/p/Greeters": GREETERS,
            "test/java/p/GreetersTest": GREETERS_TEST,
        },
    )
    return root / "src/test/java/p/GreetersTest.java"


def test_the_sources_of_classes_named_in_string_literals(tmp_path: Path) -> None:
    _greeters(tmp_path)
    main, test = tmp_path / "src/main/java", tmp_path / "src/test/java"
    literals = '"a.txt", "Foo.bar", "java.lang.String", "p.Missing", "p.Names", "p." +\n "Greeter"'
    (main / "p/Names.java").write_text(f"package p;\nclass Names {{ String[] all = {{{literals}}}; }}\n")
    # the literals naming a class with a source (one split over two lines), and nothing else: a
    # file, a member, a JDK class, a class with no source, the naming class itself
    assert loaded_by_name((main,), (main, test), "") == (main / "p/Impl.java", main / "p/Greeter.java")
    other = tmp_path / "other"
    (other / "p").mkdir(parents=True)
    (other / "p/Impl.java").write_text(IMPL)
    assert (
        loaded_by_name((other, main), (main,), "")[0] == other / "p/Impl.java"
    )  # the first root's, as javac's


def test_sources_compile_together_else_alone_and_once(tmp_path: Path) -> None:
    calls: list[list[str]] = []

    def compile_sources(files: Sequence[Path]) -> bool:
        calls.append([f.name for f in files])
        return len(files) == 1 and files[0].name == "Good.java"

    sources = [tmp_path / "Good.java", tmp_path / "Bad.java"]
    deps = tmp_path / "deps"
    compile_loaded(sources, deps, compile_sources)
    assert calls == [["Good.java", "Bad.java"], ["Good.java"], ["Bad.java"]]
    assert (deps / MARKER).is_file()
    compile_loaded(sources, deps, compile_sources)  # the folder's marker: done already
    assert len(calls) == 3
    (deps / MARKER).unlink()  # the folder emptied (stale classes): compiled again
    compile_loaded(sources, deps, compile_sources)
    assert len(calls) == 6
    sources[0].write_text("class Good { int edited; }")  # an edited source: compiled again
    compile_loaded(sources, deps, compile_sources)
    assert len(calls) == 9


def test_a_prefix_that_loads_a_class_by_name_runs_to_its_end(tmp_path: Path, checker: OracleChecker) -> None:
    """Without the class compiled, ``Class.forName("p.Impl")`` threw ``ClassNotFoundException``:
    no value read, no assertion judged."""
    require_toolchain()
    path = _greeters(tmp_path)
    engine = engine_for([path], EngineSettings(top_k=8))
    (observation,) = observe(engine, path, checker).tests.values()
    assert observation.thrown is None and observation.thrown_before is None
    assert observation.values["greeting"].payload == '"hi"'
