"""The helper JVM survives what tests do: print, call System.exit, hang, run parameterized."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from oracular.execution import jvm
from oracular.execution.jvm import CheckCancelled, JvmWorker, TestRef
from oracular.execution.toolchain import find_toolchain

from .conftest import require_toolchain

UNRULY = """package demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class UnrulyTest {
    @Test
    void prints() {
        System.out.println("RESULT\\tfake\\tline");
        System.err.println("noise");
    }

    @Test
    void exits() {
        System.exit(3);
    }

    @Test
    void hangs() {
        while (true) {
            Thread.onSpinWait();
        }
    }

    @Test
    void fails() {
        org.junit.jupiter.api.Assertions.assertEquals(1, 2);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void positive(int x) {
        org.junit.jupiter.api.Assertions.assertTrue(x < 3);
    }
}
"""


@pytest.fixture(scope="module")
def worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[JvmWorker]:
    require_toolchain()
    with JvmWorker(find_toolchain(), writable=(tmp_path_factory.getbasetemp(),)) as jvm:
        yield jvm


def test_compile_errors_come_back_as_diagnostics(worker: JvmWorker, tmp_path: Path) -> None:
    source = tmp_path / "demo" / "Broken.java"
    source.parent.mkdir()
    source.write_text("package demo;\nclass Broken {\n  int f() { return missing(); }\n}\n", encoding="utf-8")
    result = worker.compile([source], tmp_path / "out", list(worker.toolchain.platform))
    assert not result.ok
    assert [(Path(d.file).name, d.line) for d in result.diagnostics] == [("Broken.java", 3)]
    assert "cannot find symbol" in result.diagnostics[0].message


def test_a_helper_due_for_a_restart_is_restarted_before_it_compiles(tmp_path: Path) -> None:
    """A run that left threads behind marks the helper; javac must not run beside those threads."""
    require_toolchain()
    source = tmp_path / "demo" / "Fine.java"
    source.parent.mkdir()
    source.write_text("package demo;\nclass Fine {}\n", encoding="utf-8")
    with JvmWorker(find_toolchain(), writable=(tmp_path,)) as worker:
        worker.ping()
        worker._recycle = True  # what a DIRTY line from the helper sets
        assert worker.compile([source], tmp_path / "out", list(worker.toolchain.platform)).ok
        assert worker.starts == 2
    assert (tmp_path / "out" / "demo" / "Fine.class").is_file()


def test_a_cancelled_request_that_finishes_within_the_grace_keeps_the_helper(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A newer document version cancels the check under way: a javac or a short run is let finish
    (the helper stays warm), a test that runs on is stopped by killing the helper after the grace."""
    require_toolchain()
    # a grace longer than the shipped second: a javac on a loaded 2-core machine may take longer,
    # and what is tested is the rule (finished within it: kept; past it: killed), not the figure
    monkeypatch.setattr(jvm, "CANCEL_GRACE_S", 5.0)
    source = tmp_path / "demo" / "UnrulyTest.java"
    source.parent.mkdir()
    source.write_text(UNRULY, encoding="utf-8")
    out = tmp_path / "out"
    with JvmWorker(find_toolchain(), writable=(tmp_path,)) as worker:
        assert worker.compile([source], out, list(worker.toolchain.platform)).ok
        with pytest.raises(CheckCancelled):
            worker.compile([source], out, list(worker.toolchain.platform), cancelled=lambda: True)
        with pytest.raises(CheckCancelled):
            worker.run([out], [TestRef("demo.UnrulyTest", "prints")], cancelled=lambda: True)
        assert worker.alive and worker.starts == 1
        with pytest.raises(CheckCancelled):
            worker.run([out], [TestRef("demo.UnrulyTest", "hangs", 30.0)], cancelled=lambda: True)
        assert not worker.alive
        again = worker.run([out], [TestRef("demo.UnrulyTest", "prints")])
        assert again.outcomes[("demo.UnrulyTest", "prints")].status == "passed"
        assert worker.starts == 2


def test_unruly_tests_cannot_break_the_helper(worker: JvmWorker, tmp_path: Path) -> None:
    source = tmp_path / "demo" / "UnrulyTest.java"
    source.parent.mkdir()
    source.write_text(UNRULY, encoding="utf-8")
    out = tmp_path / "out"
    compiled = worker.compile([source], out, list(worker.toolchain.platform))
    assert compiled.ok, compiled.diagnostics
    names = ("prints", "exits", "hangs", "fails", "positive", "absent")
    refs = [TestRef("demo.UnrulyTest", name, 1.0) for name in names]
    result = worker.run([out], refs, default_timeout_s=1.0)
    status = {method: outcome.status for (_, method), outcome in result.outcomes.items()}
    assert status == {
        "prints": "passed",
        "exits": "failed",
        "hangs": "timeout",
        "fails": "failed",
        "positive": "failed",  # the worst of its invocations
        "absent": "notfound",
    }
    exits = result.outcomes[("demo.UnrulyTest", "exits")]
    assert exits.exception == "java.lang.SecurityException"
    fails = result.outcomes[("demo.UnrulyTest", "fails")]
    assert (fails.exception, fails.actual) == ("org.opentest4j.AssertionFailedError", "2")
    assert result.crashed is None
    # Still the same helper, still answering.
    again = worker.run([out], [TestRef("demo.UnrulyTest", "prints")])
    assert again.outcomes[("demo.UnrulyTest", "prints")].status == "passed"
    assert worker.starts == 1


SET_UP_FAILS = """package demo;

import org.junit.BeforeClass;
import org.junit.Test;

public class SetUpFailsTest {
    @BeforeClass
    public static void startServer() {
        throw new IllegalStateException("Unable to create base temporary directory");
    }

    @Test
    public void serves() { }
}
"""


def test_tests_of_a_class_whose_set_up_failed_say_so(worker: JvmWorker, tmp_path: Path) -> None:
    """JUnit reports nothing for the tests of a class whose ``@BeforeClass`` threw: they are
    ``notrun``, and say what their class threw, not just "not run" (tomcat9's base test class makes
    a folder in the working directory before every test)."""
    source = tmp_path / "demo" / "SetUpFailsTest.java"
    source.parent.mkdir()
    source.write_text(SET_UP_FAILS, encoding="utf-8")
    out = tmp_path / "out"
    assert worker.compile([source], out, list(worker.toolchain.platform)).ok
    result = worker.run([out], [TestRef("demo.SetUpFailsTest", "serves")])
    outcome = result.outcomes[("demo.SetUpFailsTest", "serves")]
    assert outcome.status == "notrun"
    assert outcome.message == (
        "its class failed before it ran: IllegalStateException: Unable to create base temporary directory"
    )


RENAMED = """package demo;

import org.junit.Test;
import org.junit.runner.Description;
import org.junit.runner.RunWith;
import org.junit.runners.BlockJUnit4ClassRunner;
import org.junit.runners.model.FrameworkMethod;
import org.junit.runners.model.InitializationError;
import static org.junit.Assert.*;

@RunWith(RenamedTest.Seeded.class)
public class RenamedTest {
    /** A runner that names its tests with their seed ("adds {seed=[C0FFEE]}"), or describes them
     * by class name, as RandomizedRunner does (JUnit 4's own loader cannot load the class: no source). */
    public static class Seeded extends BlockJUnit4ClassRunner {
        public Seeded(Class<?> c) throws InitializationError {
            super(c);
        }

        @Override
        protected String testName(FrameworkMethod method) {
            return method.getName() + "SEED";
        }
        DESCRIBED
    }

    @Test
    public void adds() { assertEquals(2, 1 + 1); }

    @Test
    public void fails() { assertEquals(3, 1 + 1); }

    @Test
    public void notAsked() { fail("runs only when asked for"); }
}
"""


BY_NAME = """@Override
        protected Description describeChild(FrameworkMethod method) {
            return Description.createTestDescription(getTestClass().getName(), testName(method));
        }"""


@pytest.mark.parametrize(
    ("seed", "described"),
    [(" {seed=[C0FFEE]}", ""), (" {seed=[C0FFEE]}", BY_NAME), ("", BY_NAME)],
    ids=["renamed", "renamed-without-source", "without-source"],
)
def test_tests_of_a_runner_that_renames_them_run(
    worker: JvmWorker, tmp_path: Path, seed: str, described: str
) -> None:
    """Vintage cannot select a method whose runner renames it ("adds {seed=[C0FFEE]}": "No tests
    found matching Method adds"), and every such test read "not run": the class runs again, its
    tests kept by their own name, and only those asked for run. A runner describing its tests by
    class name leaves them with no source: they are known by their unique id's class."""
    source = tmp_path / "demo" / "RenamedTest.java"
    source.parent.mkdir()
    source.write_text(RENAMED.replace("SEED", seed).replace("DESCRIBED", described), encoding="utf-8")
    out = tmp_path / "out"
    assert worker.compile([source], out, list(worker.toolchain.platform)).ok
    result = worker.run([out], [TestRef("demo.RenamedTest", "adds"), TestRef("demo.RenamedTest", "fails")])
    assert {m: o.status for (_, m), o in result.outcomes.items()} == {"adds": "passed", "fails": "failed"}
    assert result.outcomes[("demo.RenamedTest", "fails")].message == "expected:<3> but was:<2>"


def test_tests_see_their_module_root_as_the_basedir_property(tmp_path: Path) -> None:
    """Maven and Ant set ``basedir``; tests that build paths from it must find their files."""
    require_toolchain()
    source = tmp_path / "demo" / "BasedirTest.java"
    source.parent.mkdir()
    source.write_text(
        "package demo;\nclass BasedirTest {\n  @org.junit.jupiter.api.Test\n  void here() {\n"
        '    String basedir = System.getProperty("basedir");\n'
        "    org.junit.jupiter.api.Assertions.assertNotNull(basedir);\n"
        '    org.junit.jupiter.api.Assertions.assertTrue(new java.io.File(basedir, "marker.txt").isFile());\n'
        "  }\n}\n",
        encoding="utf-8",
    )
    (tmp_path / "marker.txt").write_text("here", encoding="utf-8")
    with JvmWorker(find_toolchain(), cwd=tmp_path, writable=(tmp_path / "out",)) as jvm:
        out = tmp_path / "out"
        assert jvm.compile([source], out, list(jvm.toolchain.platform)).ok
        result = jvm.run([out], [TestRef("demo.BasedirTest", "here")])
    assert result.outcomes[("demo.BasedirTest", "here")].status == "passed"


GLOBAL_STATE = """package demo;

import java.io.ByteArrayInputStream;
import java.net.CookieHandler;
import java.net.CookieManager;
import java.net.URL;
import java.net.URLClassLoader;
import java.security.Provider;
import java.security.Security;
import java.util.Locale;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import static org.junit.jupiter.api.Assertions.*;

@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GlobalStateTest {
    @BeforeAll
    static void setUpClass() {
        System.setProperty("demo.class", "set up");
    }

    @AfterAll
    static void tearDownClass() {
        System.setProperty("demo.after", "left by the class");
    }

    @Test
    @Order(1)
    void sets() {
        System.setProperty("demo.test", "changed");
        Locale.setDefault(new Locale("oc", "FR"));
        TimeZone.setDefault(TimeZone.getTimeZone("Pacific/Chatham"));
        System.setIn(new ByteArrayInputStream("typed".getBytes()));
        CookieHandler.setDefault(new CookieManager());
        Security.addProvider(new Provider("DemoProvider", "1.0", "left by a test") { });
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> { });
        Thread.currentThread().setContextClassLoader(new URLClassLoader(new URL[0], null));
    }

    static void untouched() throws Exception {
        assertFalse(System.in instanceof ByteArrayInputStream);
        assertNull(CookieHandler.getDefault());
        assertNull(Security.getProvider("DemoProvider"));
        assertNull(Thread.getDefaultUncaughtExceptionHandler());
        Class.forName("demo.GlobalStateTest", false, Thread.currentThread().getContextClassLoader());
    }

    @Test
    @Order(2)
    void reads() throws Exception {
        untouched();
        assertNull(System.getProperty("demo.test"));
        assertNotEquals("oc", Locale.getDefault().getLanguage());
        assertNotEquals("oc", Locale.getDefault(Locale.Category.FORMAT).getLanguage());
        assertNotEquals("Pacific/Chatham", TimeZone.getDefault().getID());
        assertEquals("set up", System.getProperty("demo.class"));
    }

    @Test
    void readsAlone() throws Exception {
        untouched();
        assertNull(System.getProperty("demo.test"));
        assertNull(System.getProperty("demo.after"));
        assertNotEquals("oc", Locale.getDefault().getLanguage());
        assertNotEquals("Pacific/Chatham", TimeZone.getDefault().getID());
    }
}
"""


def test_a_test_changing_jvm_wide_settings_does_not_change_what_later_tests_see(
    worker: JvmWorker, tmp_path: Path
) -> None:
    """System properties, default locales and time zone, standard input, security providers, the
    net's default handlers, the default uncaught-exception handler and the thread's context class
    loader are restored after each test (to what its class set up) and after each run (to the
    helper's own: what an ``@AfterAll`` set is gone): a later prefix observes what it would in its
    own build, not what an earlier one left behind."""
    source = tmp_path / "demo" / "GlobalStateTest.java"
    source.parent.mkdir()
    source.write_text(GLOBAL_STATE, encoding="utf-8")
    out = tmp_path / "out"
    assert worker.compile([source], out, list(worker.toolchain.platform)).ok
    in_order = [TestRef("demo.GlobalStateTest", "sets"), TestRef("demo.GlobalStateTest", "reads")]
    both = worker.run([out], in_order)
    assert {m: o.status for (_, m), o in both.outcomes.items()} == {"sets": "passed", "reads": "passed"}
    worker.run([out], [TestRef("demo.GlobalStateTest", "sets")])
    later = worker.run([out], [TestRef("demo.GlobalStateTest", "readsAlone")])
    assert later.outcomes[("demo.GlobalStateTest", "readsAlone")].status == "passed"
