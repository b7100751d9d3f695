"""What a test class may lose for not compiling here: only what cannot change a test's state."""

from __future__ import annotations

import textwrap

import pytest

from oracular.execution.pruning import blank, removable_at
from oracular.java.source import parse_text

SOURCE = textwrap.dedent(
    """
    package p;

    import org.junit.Before;
    import org.missing.Server;

    @RunWith(MissingRunner.class)
    public class MailTest extends Base {
        private Server server;
        @Mock private Server mocked;

        public MailTest() { server = new Server(); }

        @Before
        public void start() { server = new Server(); }

        public void setUp() { server = new Server(); }

        @Override
        protected Server make() { return new Server(); }

        @Test
        public void other() { server.send(); }

        protected void stop() {
            server.stop();
        }

        static class Helper extends Server {
        }

        public void testCallback() {
            Runnable r = new Runnable() {
                @Override
                public void run() { new Server().send(); }
            };
        }

        @Test
        public void observed() { new Server(); }
    }
    """
).lstrip()


CALLBACK = """public void testCallback() {
        Runnable r = new Runnable() {
            @Override
            public void run() { new Server().send(); }
        };
    }"""


def _line(text: str) -> int:
    return next(i for i, line in enumerate(SOURCE.splitlines(), start=1) if text in line)


def _removed(text: str, keep: list[tuple[int, int]] | None = None) -> str | None:
    data = SOURCE.encode()
    node = removable_at(parse_text(SOURCE).root, data, _line(text), keep or [])
    return data[node.start_byte : node.end_byte].decode() if node is not None else None


@pytest.mark.parametrize(
    ("line", "removed"),
    [
        ("import org.missing.Server", "import org.missing.Server;"),
        ("@RunWith", "@RunWith(MissingRunner.class)"),  # a runner the classpath lacks: JUnit's own runs
        ("private Server server", "private Server server;"),
        ("public void other()", "@Test\n    public void other() { server.send(); }"),
        ("server.stop()", "protected void stop() {\n        server.stop();\n    }"),
        ("static class Helper", "static class Helper extends Server {\n    }"),
        # an anonymous class's @Override is no member: the test holding it is what goes
        ("new Server().send()", CALLBACK),
    ],
)
def test_what_sets_nothing_up_is_left_out(line: str, removed: str) -> None:
    assert _removed(line) == removed


@pytest.mark.parametrize(
    "line",
    [
        "@Mock private",  # an annotated field: a framework fills it
        "public MailTest()",  # constructors, set-up methods and overrides change what runs
        "public void start()",
        "public void setUp()",
        "protected Server make()",
        "public class MailTest extends Base",  # the class itself
    ],
)
def test_what_may_set_a_test_up_stays_and_the_class_does_not_compile(line: str) -> None:
    assert _removed(line) is None


def test_a_member_holding_a_generated_method_stays() -> None:
    observed = _line("public void observed()")
    assert _removed("public void observed()", keep=[(observed, observed)]) is None


def test_blanking_keeps_every_other_line_where_it_was() -> None:
    data = SOURCE.encode()
    removed = [b"import org.missing.Server;", b"protected void stop() {\n        server.stop();\n    }"]
    pruned = blank(data, removed)
    assert pruned.count(b"\n") == data.count(b"\n")
    assert b"org.missing" not in pruned and b"server.stop()" not in pruned
    lines, before = pruned.decode().splitlines(), SOURCE.splitlines()
    assert lines[_line("public void observed()") - 1] == before[_line("public void observed()") - 1]
