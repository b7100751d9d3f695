"""The workspace index: declarations, Javadoc facts, incremental refresh, project roots."""

import os
from pathlib import Path

from oracular.java.declarations import Import
from oracular.java.workspace import WorkspaceIndex, is_test_path, project_root

from ..conftest import EXAMPLE, indexed


def test_index_records_javadoc_throws_and_constants(index: WorkspaceIndex) -> None:
    stack = index.resolve("org.example.stack.Stack")
    assert stack is not None and stack.type_params == ("T",) and not stack.is_test
    pop = stack.methods_named("pop")[0]
    assert pop.return_type == "T"
    assert pop.javadoc.returns and pop.javadoc.throws[0].simple == "EmptyStackException"
    assert "EmptyStackException" in pop.thrown_in_body
    assert stack.fields["DEFAULT_CAPACITY"].is_constant


def test_refresh_is_incremental(tmp_path: Path) -> None:
    src = tmp_path / "src" / "main" / "java"
    src.mkdir(parents=True)
    a = src / "A.java"
    a.write_text("class A { int one() { return 1; } }")
    (src / "B.java").write_text("class B { }")
    index = WorkspaceIndex([tmp_path])
    first = index.refresh()
    assert (first.files, first.parsed) == (2, 2)
    assert index.refresh().parsed == 0
    a.write_text("class A { int one() { return 1; } int two() { return 2; } }")
    os.utime(a, ns=(a.stat().st_mtime_ns + 10**9, a.stat().st_mtime_ns + 10**9))
    second = index.refresh()
    assert second.parsed == 1
    assert [m.name for m in index.resolve("A").methods] == ["one", "two"]
    (src / "B.java").unlink()
    third = index.refresh()
    assert third.removed == 1 and index.resolve("B") is None


def test_index_skips_build_output_and_survives_bad_files(tmp_path: Path) -> None:
    (tmp_path / "target").mkdir()
    (tmp_path / "target" / "Gen.java").write_text("class Gen { }")
    (tmp_path / "Bad.java").write_bytes(b"\xff\xfe class Bad {")
    index = WorkspaceIndex([tmp_path])
    stats = index.refresh()
    assert index.resolve("Gen") is None
    assert stats.files == 1  # Bad.java is read leniently: broken code is indexed, not fatal


def test_project_root_and_test_paths() -> None:
    assert (
        project_root(EXAMPLE / "src" / "test" / "java" / "org" / "example" / "stack" / "StackTest.java")
        == EXAMPLE
    )
    assert is_test_path(Path("x/src/test/java/p/Anything.java"))

    assert is_test_path(Path("FooTest.java")) and is_test_path(Path("TestFoo.java"))
    assert not is_test_path(Path("x/src/main/java/p/Foo.java"))
    assert is_test_path(Path("x/p/OptionSpec.java"))
    assert not is_test_path(Path("x/src/main/java/p/OptionSpec.java"))  # the layout wins over the name


def test_a_loose_source_root_beside_src_belongs_to_the_project_holding_both(tmp_path: Path) -> None:
    """An Ant project whose build file is not at its root (jtharness keeps it in ``build/``): its
    ``unit-tests`` root needs the code under test in ``src``; a lone folder of sources, with no
    ``src`` beside it, stays its own project."""
    harness, lone = tmp_path / "harness", tmp_path / "scratch" / "alone"
    for path in (
        harness / "src/p/Unit.java",
        harness / "unit-tests/p/UnitTest.java",
        lone / "q/LoneTest.java",
    ):
        path.parent.mkdir(parents=True)
        path.write_text(f"package {path.parent.name}; class {path.stem} {{ }}")
    assert project_root(harness / "unit-tests/p/UnitTest.java") == harness.resolve()
    assert project_root(harness / "src/p/Unit.java") == harness.resolve()
    assert project_root(lone / "q/LoneTest.java") == lone.resolve()


def test_resolve_prefers_imports_then_package(tmp_path: Path) -> None:
    for pkg in ("a", "b"):
        (tmp_path / pkg).mkdir()
        (tmp_path / pkg / "Thing.java").write_text(f"package {pkg}; public class Thing {{ }}")
    index = indexed(tmp_path)
    assert index.resolve("Thing", "a").qualified_name == "a.Thing"
    assert index.resolve("Thing", "a", [Import("b.Thing", False, False)]).qualified_name == "b.Thing"
    assert index.resolve("Thing", "c", [Import("b", False, True)]).qualified_name == "b.Thing"


def test_a_classes_own_member_class_shadows_others_of_its_name(tmp_path: Path) -> None:
    """args4j: five test classes of one package each declare a ``TestBean``."""
    (tmp_path / "a").mkdir()
    for test in ("OneTest", "TwoTest"):
        (tmp_path / "a" / f"{test}.java").write_text(
            f"package a; public class {test} {{ private static class TestBean {{ String {test.lower()}; }} }}"
        )
    index = indexed(tmp_path)
    for test in ("OneTest", "TwoTest"):
        bean = index.resolve("TestBean", "a", scope=f"a.{test}")
        assert bean is not None and bean.qualified_name == f"a.{test}.TestBean"
        assert list(bean.fields) == [test.lower()]
    nested = index.resolve("TestBean", "a", scope="a.TwoTest.Inner")  # from a class inside it
    assert nested is not None and nested.qualified_name == "a.TwoTest.TestBean"


def test_a_member_class_named_through_its_outer_class_is_that_one(tmp_path: Path) -> None:
    """commons-math3: ``Logistic.Parametric`` and ``Logit.Parametric`` are two classes; the test
    names one through its outer class, which an import or the package resolves."""
    for outer in ("Logistic", "Logit"):
        (tmp_path / f"{outer}.java").write_text(
            f"package f; public class {outer} {{ public static class Parametric {{ int {outer.lower()}; }} }}"
        )
    index = indexed(tmp_path)
    for outer in ("Logit", "Logistic"):
        found = index.resolve(f"{outer}.Parametric", "f")
        assert found is not None and found.qualified_name == f"f.{outer}.Parametric"
        imported = index.resolve(f"{outer}.Parametric", "g", [Import(f"f.{outer}", False, False)])
        assert imported is not None and imported.qualified_name == f"f.{outer}.Parametric"


JDBM_MODULES = (("jdbm1", "Root"), ("jdbm2", "MetaRoot"))
"""Two modules of one project, each declaring the same classes with a member named for it."""


def _jdbm_modules(root: Path, files: dict[str, str]) -> None:
    """``files`` (``{"main/java/jdbm/btree/BTree": text}``, ``{name}`` the module's word) in
    both :data:`JDBM_MODULES`."""
    for module, name in JDBM_MODULES:
        for relative, text in files.items():
            path = root / module / "src" / f"{relative}.java"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text.replace("{name}", name))


def _test_file(root: Path, module: str) -> str:
    return str((root / module / "src/test/java/jdbm/btree/TestBTree.java").resolve())


def test_a_class_declared_in_several_modules_is_the_one_nearest_the_file_naming_it(tmp_path: Path) -> None:
    """apacheds-jdbm's ``jdbm1`` and ``jdbm2`` modules both declare ``jdbm.btree.BTree``; each
    module's tests compile against their own (guava's Android flavour copies every class too)."""
    _jdbm_modules(tmp_path, {
        "main/java/jdbm/btree/BTree": "package jdbm.btree; class BTree { int get{name}() { return 0; } }",
        "main/java/jdbm/btree/Leaf": "package jdbm.btree; public class Leaf extends BTree { }",
        "test/java/jdbm/btree/TestBTree": "package jdbm.btree; public class TestBTree { BTree tree; }",
    })  # fmt: skip
    index = indexed(tmp_path)
    for module, name in JDBM_MODULES:
        origin = _test_file(tmp_path, module)
        for type_name in ("BTree", "jdbm.btree.BTree"):
            found = index.resolve(type_name, "jdbm.btree", origin=origin)
            assert found is not None and [m.name for m in found.methods] == [f"get{name}"]
        leaf = index.resolve("Leaf", "jdbm.btree", origin=origin)
        assert leaf is not None and [m.name for m in next(index.superclasses(leaf)).methods] == [f"get{name}"]
    assert index.resolve("BTree", "jdbm.btree") is not None  # without an origin: one of them


def test_a_helper_class_declared_in_several_modules_is_the_test_modules(tmp_path: Path) -> None:
    """The suite's helpers (``Checks.assertRoot(tree)``) resolve from the test's own module too."""
    from oracular.java.oracles import HelperScope

    _jdbm_modules(tmp_path, {
        "test/java/jdbm/btree/Checks": "package jdbm.btree; class Checks { static void assert{name}() {} }",
        "test/java/jdbm/btree/TestBTree": "package jdbm.btree; public class TestBTree { }",
    })  # fmt: skip
    index = indexed(tmp_path)
    for module, name in JDBM_MODULES:
        test_class = index.resolve("TestBTree", "jdbm.btree", origin=_test_file(tmp_path, module))
        assert test_class is not None
        scope = HelperScope([test_class], index, "jdbm.btree")
        assert [m.name for m in scope[f"Checks.assert{name}"]] == [f"assert{name}"]


def test_test_roots_are_judged_below_the_index_root(tmp_path: Path) -> None:
    """A project checked out under a folder named ``tests`` still has main code."""
    root = tmp_path / "tests" / "project"
    main = root / "src" / "main" / "java" / "Foo.java"
    test = root / "src" / "test" / "java" / "FooTest.java"
    for path, body in ((main, "class Foo {}"), (test, "class FooTest {}")):
        path.parent.mkdir(parents=True)
        path.write_text(body + "\n")
    index = indexed(root)
    assert not index.is_test_file(main)
    assert index.is_test_file(test)
    assert index.resolve("Foo") is not None and not index.resolve("Foo").is_test


def test_c_style_array_fields_and_parameters_are_arrays(tmp_path: Path) -> None:
    src = tmp_path / "src" / "main" / "java"
    src.mkdir(parents=True)
    (src / "A.java").write_text("class A { String names[], one; int sum(int values[], int n) { return n; } }")
    index = WorkspaceIndex([tmp_path])
    index.refresh()
    a = index.resolve("A")
    assert a is not None
    assert (a.fields["names"].type, a.fields["one"].type) == ("String[]", "String")
    assert a.methods_named("sum")[0].params == (("int[]", "values"), ("int", "n"))
