"""Finding the concrete test class an abstract test class's tests run on."""

from __future__ import annotations

from pathlib import Path

from oracular.execution.subclasses import ConcreteSubclass, concrete_subclass, is_abstract_class

from ..conftest import java


def _write(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / f"{name}.java").write_text(text, encoding="utf-8")


def test_the_first_concrete_subclass_by_file_name_through_abstract_ones(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "RealVectorAbstractTest": "package m;\npublic abstract class RealVectorAbstractTest {}\n",
            "SparseTest": "package m;\npublic abstract class SparseTest\n"
            "    extends RealVectorAbstractTest {}\n",
            "ZMapTest": "package m;\npublic class ZMapTest extends SparseTest {}\n",
            "ArrayTest": "package m;\nfinal class ArrayTest extends m.RealVectorAbstractTest {}\n",
            "Other": "package m;\npublic class Other extends Object {}\n",
        },
    )
    assert concrete_subclass(tmp_path, "RealVectorAbstractTest") == ConcreteSubclass(
        "m.ArrayTest", tmp_path / "ArrayTest.java"
    )
    zmap = ConcreteSubclass("m.ZMapTest", tmp_path / "ZMapTest.java")
    assert concrete_subclass(tmp_path, "SparseTest") == zmap


def test_generic_nested_and_missing_subclasses(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "FormatAbstractTest": "public abstract class FormatAbstractTest<T> {}\n",
            "Holder": "class Holder {\n  static class Inner extends FormatAbstractTest<String> {}\n}\n",
            "AbstractOnly": "abstract class AbstractOnly extends FormatAbstractTest<String> {}\n",
        },
    )
    assert concrete_subclass(tmp_path, "FormatAbstractTest") is None  # a nested class is not runnable by name
    (tmp_path / "IntFormatTest.java").write_text(
        "public class IntFormatTest extends FormatAbstractTest<Integer> {}\n", encoding="utf-8"
    )
    assert concrete_subclass(tmp_path, "FormatAbstractTest") == ConcreteSubclass(
        "IntFormatTest", tmp_path / "IntFormatTest.java"
    )
    assert concrete_subclass(tmp_path / "missing", "FormatAbstractTest") is None


def test_abstract_class_declarations() -> None:
    source = java("public abstract class A {}\nclass B {}\n")
    first, second = (n for n in source.root.named_children if n.type == "class_declaration")
    assert is_abstract_class(first)
    assert not is_abstract_class(second)
