"""A compiled class's members as the declarations the workspace index holds: a ``.class`` file's
name, supertypes, public and protected methods and fields, read from its bytes.

Why: a test asserts on what a library's object tells (``response.getStatusCode()``, a StAX
reader's ``next()``), and the workspace's sources do not declare it. The JVM's class file format
(JVMS chapter 4) says it exactly, and reading it needs no JVM: the constant pool, the access
flags, the fields' and methods' names and descriptors. Generic signatures are not read (the
erased types are), nor code, nor anything private or synthetic.
"""

from __future__ import annotations

import struct

from oracular.java.declarations import ClassInfo, FieldInfo, MethodInfo

MAGIC = 0xCAFEBABE
_PUBLIC, _PRIVATE, _PROTECTED, _STATIC, _FINAL = 0x1, 0x2, 0x4, 0x8, 0x10
_BRIDGE, _INTERFACE, _ABSTRACT, _SYNTHETIC, _ANNOTATION, _ENUM = 0x40, 0x200, 0x400, 0x1000, 0x2000, 0x4000
_MODIFIERS = ((_PUBLIC, "public"), (_PROTECTED, "protected"), (_STATIC, "static"), (_FINAL, "final"),
              (_ABSTRACT, "abstract"))  # fmt: skip
_PRIMITIVES = {"B": "byte", "C": "char", "D": "double", "F": "float", "I": "int", "J": "long", "S": "short",
               "Z": "boolean", "V": "void"}  # fmt: skip
_SLOTS = {3: 4, 4: 4, 5: 8, 6: 8, 7: 2, 8: 2, 9: 4, 10: 4, 11: 4, 12: 4, 15: 3, 16: 2, 17: 4, 18: 4, 19: 2,
          20: 2}  # fmt: skip
"""Constant pool tag -> its size in bytes after the tag (UTF-8 entries carry their own length)."""


class ClassFileError(ValueError):
    """The bytes are no class file this reader knows."""


def type_text(name: str) -> str:
    """A binary class name as a test would write its type: the JDK's by simple name (as the
    workspace's sources and :mod:`oracular.java.jdk_types` name them), others qualified
    (``com.google.api.client.http.HttpHeaders``), a member class with a dot."""
    dotted = name.replace("/", ".").replace("$", ".")
    if dotted.startswith(("java.", "javax.")):
        return dotted.rsplit(".", 1)[-1]
    return dotted


def _binary(name: str) -> str:
    return name.replace("/", ".")


def descriptor_types(descriptor: str) -> list[str]:
    """The types a field or method descriptor names, in order (a method's return type last)."""
    found: list[str] = []
    i, dims = 0, 0
    while i < len(descriptor):
        char = descriptor[i]
        if char in "()":
            i += 1
            continue
        if char == "[":
            dims += 1
            i += 1
            continue
        if char == "L":
            end = descriptor.index(";", i)
            base, i = type_text(descriptor[i + 1 : end]), end + 1
        elif char in _PRIMITIVES:
            base, i = _PRIMITIVES[char], i + 1
        else:
            raise ClassFileError(f"bad descriptor {descriptor!r}")
        found.append(base + "[]" * dims)
        dims = 0
    return found


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def take(self, fmt: str) -> tuple[int, ...]:
        values = struct.unpack_from(fmt, self.data, self.at)
        self.at += struct.calcsize(fmt)
        return values

    def u2(self) -> int:
        return self.take(">H")[0]

    def skip_attributes(self) -> None:
        for _ in range(self.u2()):
            _, length = self.take(">HI")
            self.at += length


def _constant_pool(reader: _Reader) -> tuple[dict[int, str], dict[int, int]]:
    """The UTF-8 entries and the class entries (index -> its name's UTF-8 index)."""
    texts: dict[int, str] = {}
    classes: dict[int, int] = {}
    count, index = reader.u2(), 1
    while index < count:
        (tag,) = reader.take(">B")
        if tag == 1:
            length = reader.u2()
            texts[index] = reader.data[reader.at : reader.at + length].decode("utf-8", "replace")
            reader.at += length
        elif tag == 7:
            classes[index] = reader.u2()
        elif tag in _SLOTS:
            reader.at += _SLOTS[tag]
        else:
            raise ClassFileError(f"unknown constant pool tag {tag}")
        index += 2 if tag in (5, 6) else 1  # a long or a double takes two entries
    return texts, classes


def _modifiers(flags: int) -> frozenset[str]:
    return frozenset(word for bit, word in _MODIFIERS if flags & bit)


def _kind(flags: int) -> str:
    if flags & _ANNOTATION:
        return "annotation_type"
    if flags & _INTERFACE:
        return "interface"
    return "enum" if flags & _ENUM else "class"


def read_class(data: bytes) -> ClassInfo:
    """The class a ``.class`` file declares, with its non-private, non-synthetic members; its
    superclass and interfaces by binary name (``java.util.Map$Entry``: where a library finds them),
    its members' types as :func:`type_text` writes them."""
    if len(data) < 10 or struct.unpack_from(">I", data)[0] != MAGIC:
        raise ClassFileError("not a class file")
    reader = _Reader(data)
    reader.at = 8
    try:
        texts, classes = _constant_pool(reader)
        flags, this, parent = reader.take(">HHH")

        def class_name(index: int) -> str:
            return texts[classes[index]]

        interfaces = tuple(_binary(class_name(reader.u2())) for _ in range(reader.u2()))
        binary = class_name(this)
        fields: dict[str, FieldInfo] = {}
        for _ in range(reader.u2()):
            access, name, descriptor = reader.take(">HHH")
            reader.skip_attributes()
            if not access & (_PRIVATE | _SYNTHETIC):
                (kind,) = descriptor_types(texts[descriptor])
                fields[texts[name]] = FieldInfo(texts[name], kind, _modifiers(access), None)
        methods: list[MethodInfo] = []
        for _ in range(reader.u2()):
            access, name, descriptor = reader.take(">HHH")
            reader.skip_attributes()
            if access & (_PRIVATE | _SYNTHETIC | _BRIDGE) or texts[name] == "<clinit>":
                continue
            *params, returns = descriptor_types(texts[descriptor])
            constructor = texts[name] == "<init>"
            methods.append(MethodInfo(
                binary.rsplit("/", 1)[-1].rsplit("$", 1)[-1] if constructor else texts[name],
                tuple((p, f"arg{i}") for i, p in enumerate(params)), None if constructor else returns,
                _modifiers(access), (), (), None, (), 0, frozenset(), False,
            ))  # fmt: skip
    except (struct.error, KeyError, IndexError, ValueError) as error:
        raise ClassFileError(f"unreadable class file: {error}") from error
    package, _, simple = binary.rpartition("/")
    return ClassInfo(
        name=simple.rsplit("$", 1)[-1],
        qualified_name=binary.replace("/", ".").replace("$", "."),
        package=package.replace("/", "."),
        kind=_kind(flags),
        type_params=(),
        superclass=_binary(class_name(parent)) if parent else None,
        interfaces=interfaces,
        fields=fields,
        methods=methods,
    )
