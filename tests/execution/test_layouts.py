"""Every project layout is observed: no build file, Ant, a test file deep below a Maven or Gradle
root, and a file opened outside any project. Each test's prefix runs (in the sandbox, where one can
run) and its observed value is the top oracle; where the classpath cannot be found, the reason is
one line, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from oracular.cli.common import engine_for
from oracular.engine import EngineSettings
from oracular.execution.observe import ValueObserver
from oracular.execution.oracle_checks import OracleChecker
from oracular.java.source import load_source
from oracular.java.workspace import project_root

from .conftest import require_toolchain

BOX = """{package}public class Box {{
    private int value;

    public void put(int value) {{
        this.value = value;
    }}

    public int get() {{
        return value;
    }}
}}
"""
BOX_TEST = """{package}import org.junit.Test;

public class BoxTest {{
    @Test
    public void testPut() {{
        Box b = new Box();
        b.put(7);
    }}
}}
"""
LAYOUTS = {
    # layout: (files other than the two sources, the main source, the test source, package)
    "no build file": ((), "src/main/java/p/Box.java", "src/test/java/p/BoxTest.java", "p"),
    "ant": (("build.xml",), "src/p/Box.java", "test/p/BoxTest.java", "p"),
    "maven, deep": (
        ("pom.xml", "core/pom.xml"),
        "core/src/main/java/org/acme/box/Box.java",
        "core/src/test/java/org/acme/box/BoxTest.java",
        "org.acme.box",
    ),
    "gradle, deep": (
        ("settings.gradle", "lib/build.gradle"),
        "lib/src/main/java/org/acme/box/Box.java",
        "lib/src/test/java/org/acme/box/BoxTest.java",
        "org.acme.box",
    ),
    "outside any project": ((), "loose/Box.java", "loose/BoxTest.java", ""),
}
BUILD_FILES = {
    "build.xml": '<project name="box" default="test"/>\n',
    "pom.xml": "<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId>"
    "<version>1</version><packaging>pom</packaging><modules><module>core</module></modules></project>\n",
    "core/pom.xml": "<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId>"
    "<artifactId>core</artifactId><version>1</version></project>\n",
    "settings.gradle": "include 'lib'\n",
    "lib/build.gradle": "plugins { id 'java' }\n",
}


def write_layout(root: Path, layout: str) -> Path:
    extra, main, test, package = LAYOUTS[layout]
    for name in extra:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(BUILD_FILES[name], encoding="utf-8")
    declaration = f"package {package};\n\n" if package else ""
    for path, text in ((main, BOX), (test, BOX_TEST)):
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text.format(package=declaration), encoding="utf-8")
    return root / test


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_each_layout_is_observed(layout: str, tmp_path: Path, checker: OracleChecker) -> None:
    require_toolchain()
    test = write_layout(tmp_path, layout)
    engine = engine_for([test], EngineSettings(top_k=3))
    report = engine.suggest(load_source(test), observer=ValueObserver(checker))
    (only,) = report.tests
    assert only.observed, report.notes
    assert only.suggestions[0].oracle == "assertEquals(7, b.get());"


@pytest.mark.parametrize(
    ("layout", "root"),
    [
        ("no build file", "."),
        ("ant", "."),
        ("maven, deep", "."),
        ("gradle, deep", "."),
        ("outside any project", "loose"),
    ],
)
def test_the_project_root_holds_the_code_under_test(layout: str, root: str, tmp_path: Path) -> None:
    """The root is never the test's package folder, below its source root (the crash this fixes:
    ``'/x/src/test/java' is not in the subpath of '/x/src/test/java/p'``)."""
    test = write_layout(tmp_path, layout)
    assert project_root(test) == (tmp_path / root).resolve()


def test_where_the_classpath_lacks_a_dependency_each_test_says_why_it_was_not_observed(
    tmp_path: Path, checker: OracleChecker
) -> None:
    """The test class extends a class of a jar the classpath lacks: nothing can be left out for
    that (``execution/pruning.py``), so the test is not observed, and says so."""
    test = write_layout(tmp_path, "no build file")
    text = (
        test.read_text(encoding="utf-8")
        .replace("import org.junit.Test;", "import org.junit.Test;\nimport com.absent.Lib;")
        .replace("public class BoxTest {", "public class BoxTest extends Lib {")
    )
    test.write_text(text, encoding="utf-8")
    engine = engine_for([test], EngineSettings(top_k=3))
    report = engine.suggest(load_source(test), observer=ValueObserver(checker))
    (only,) = report.tests
    assert not only.observed
    assert only.unobserved is not None and "com.absent" in only.unobserved
    assert report.to_json()["tests"][0]["unobserved"] == only.unobserved


def test_a_source_root_declaring_a_module_is_observed_on_the_class_path(
    tmp_path: Path, checker: OracleChecker
) -> None:
    """``module-info.java`` at the main root, requiring a module this JDK no longer has (istack's
    ``java.activation``): javac reads the root without it (``execution/source_mirrors.py``), so the
    test compiles on the class path as Maven's patched module would, and the root is left as it was."""
    test = write_layout(tmp_path, "maven, deep")
    declaration = tmp_path / "core/src/main/java/module-info.java"
    declaration.write_text("module org.acme.box {\n    requires java.activation;\n}\n", encoding="utf-8")
    engine = engine_for([test], EngineSettings(top_k=3))
    report = engine.suggest(load_source(test), observer=ValueObserver(checker))
    (only,) = report.tests
    assert only.observed, only.unobserved
    assert only.suggestions[0].oracle == "assertEquals(7, b.get());"
    assert sorted(p.name for p in declaration.parent.iterdir()) == ["module-info.java", "org"]
