"""Declarations of a Java file (package, imports, classes, fields, methods) as plain data.

The workspace index stores these for every file, so they hold strings, not tree-sitter nodes:
keeping a node alive keeps its whole tree alive, which would make the index as large as the
sources themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from oracular.java import syntax
from oracular.java.guards import Step, opening_steps
from oracular.java.javadoc import Javadoc, parse_javadoc
from oracular.java.source import SourceText


@dataclass(frozen=True)
class Import:
    name: str
    is_static: bool
    is_wildcard: bool

    @property
    def simple(self) -> str:
        return self.name.rsplit(".", 1)[-1]


@dataclass(frozen=True)
class FieldInfo:
    name: str
    type: str
    modifiers: frozenset[str]
    initializer: str | None

    @property
    def is_constant(self) -> bool:
        return {"static", "final"} <= self.modifiers


@dataclass(frozen=True)
class MethodInfo:
    name: str
    params: tuple[tuple[str, str], ...]
    return_type: str | None
    """``None`` for constructors."""
    modifiers: frozenset[str]
    annotations: tuple[str, ...]
    throws: tuple[str, ...]
    javadoc: Javadoc | None
    thrown_in_body: tuple[str, ...]
    line: int
    called: frozenset[str]
    """Names of every method invoked in the body, plus ``receiver.name`` when the receiver is a
    name or a ``new`` expression (for helper and tester-object oracle resolution)."""
    throws_assertion_error: bool
    type_params: tuple[str, ...] = ()
    set_up_literals: tuple[str, ...] = ()
    """A per-test set-up's string literals passed as arguments, in order: the names the fixture
    registers (joptsimple's ``parser.accepts("f")``), which tests then query (``options.has("f")``)."""
    handed: frozenset[str] = frozenset()
    """Plain names the body assigns, calls methods on or passes as arguments: the fields a void
    helper of a test class can change (xmlunit's ``listenToDifferences`` fills ``listener``)."""
    delegates: tuple[int, ...] = ()
    """For a constructor, the arities of the ``this(...)`` calls it delegates to (``Quaternion(double[]
    v)`` calls ``this(0, v)``: 2), whose exceptions are its own."""
    opening: tuple[Step, ...] = ()
    """The guards and checks the body opens with (:func:`~oracular.java.guards.opening_steps`):
    which exception a call's arguments trip."""

    @property
    def is_constructor(self) -> bool:
        return self.return_type is None

    def signature(self, class_name: str) -> str:
        params = ", ".join(f"{t} {n}" for t, n in self.params)
        visible = " ".join(m for m in ("public", "protected", "private", "static") if m in self.modifiers)
        head = f"{visible} " if visible else ""
        if self.is_constructor:
            core = f"{head}{class_name}({params})"
        else:
            generics = f"<{', '.join(self.type_params)}> " if self.type_params else ""
            core = f"{head}{generics}{self.return_type} {self.name}({params})"
        if self.throws:
            core += " throws " + ", ".join(self.throws)
        return core

    def exception_types(self) -> list[str]:
        """Exceptions this method may throw, best evidence first: Javadoc, clause, body."""
        found: list[str] = []
        if self.javadoc:
            found += [t.exception for t in self.javadoc.throws]
        found += list(self.throws) + list(self.thrown_in_body)
        return unique_types(found)


def unique_types(names: list[str]) -> list[str]:
    """``names`` in order, each simple name once (``a.B`` and ``B`` are one type to a test)."""
    seen: set[str] = set()
    ordered = []
    for name in names:
        simple = name.rsplit(".", 1)[-1]
        if simple and simple not in seen:
            seen.add(simple)
            ordered.append(name)
    return ordered


@dataclass
class ClassInfo:
    name: str
    qualified_name: str
    package: str
    kind: str
    type_params: tuple[str, ...]
    superclass: str | None
    interfaces: tuple[str, ...]
    fields: dict[str, FieldInfo] = field(default_factory=dict)
    methods: list[MethodInfo] = field(default_factory=list)
    path: str = ""
    is_test: bool = False
    line: int = 0

    def methods_named(self, name: str) -> list[MethodInfo]:
        return [m for m in self.methods if m.name == name]

    def constructors(self) -> list[MethodInfo]:
        return [m for m in self.methods if m.is_constructor]


@dataclass
class FileDeclarations:
    package: str
    imports: list[Import]
    classes: list[ClassInfo]


def _type_params(node: Node) -> tuple[str, ...]:
    params = node.child_by_field_name("type_parameters")
    if params is None:
        return ()
    names = []
    for p in params.named_children:
        ident = next((c for c in p.named_children if c.type in ("type_identifier", "identifier")), None)
        if ident is not None:
            names.append(syntax.text(ident))
    return tuple(names)


def _params(method: Node) -> tuple[tuple[str, str], ...]:
    params = method.child_by_field_name("parameters")
    if params is None:
        return ()
    result = []
    for p in params.named_children:
        if p.type == "formal_parameter":
            result.append((syntax.declared_type(p, p), syntax.text(p.child_by_field_name("name"))))
        elif p.type == "spread_parameter":
            type_node = next(
                (c for c in p.named_children if c.type.endswith("type") or c.type == "type_identifier"), None
            )
            declarator = next((c for c in p.named_children if c.type == "variable_declarator"), None)
            name = syntax.text(declarator.child_by_field_name("name")) if declarator else ""
            result.append((syntax.text(type_node) + "...", name))
    return tuple(result)


def _throws(method: Node) -> tuple[str, ...]:
    for child in method.children:
        if child.type == "throws":
            return tuple(syntax.text(c) for c in child.named_children)
    return ()


BodyFacts = tuple[tuple[str, ...], frozenset[str], bool, frozenset[str], tuple[int, ...]]
BODY_FACTS_KEPT = 4096
"""Bodies whose facts are remembered by text (:class:`~oracular.java.syntax.ByText`): a body's
facts depend on its text alone."""


def body_facts(body: Node | None) -> BodyFacts:
    """Exceptions thrown by ``throw new X``, names called, whether it throws an AssertionError,
    names handed on, and the arities of the ``this(...)`` calls."""
    if body is None:
        return (), frozenset(), False, frozenset(), ()
    return _body_facts(body)


def _walk_body(body: Node) -> BodyFacts:
    thrown: list[str] = []
    called: set[str] = set()
    handed: set[str] = set()
    delegates: list[int] = []
    assertion_error = False
    for node in syntax.walk_skipping_classes(body):
        if node.type == "argument_list":
            handed.update(syntax.text(a) for a in node.named_children if a.type == "identifier")
        elif node.type == "assignment_expression":
            left = node.child_by_field_name("left")
            if left is not None and left.type == "field_access" and syntax.text(left).startswith("this."):
                left = left.child_by_field_name("field")
            if left is not None and left.type == "identifier":
                handed.add(syntax.text(left))
        elif node.type == "method_invocation":
            name = syntax.call_name(node)
            called.add(name)
            receiver = node.child_by_field_name("object")
            if receiver is not None and receiver.type == "identifier":
                handed.add(syntax.text(receiver))
                called.add(f"{syntax.text(receiver)}.{name}")  # Helpers.check(...), tester.test()
            elif receiver is not None and receiver.type == "object_creation_expression":
                called.add(f"{syntax.text(receiver.child_by_field_name('type'))}.{name}")
        elif node.type == "explicit_constructor_invocation":
            args = node.child_by_field_name("arguments")
            if syntax.text(node.child_by_field_name("constructor")) == "this":
                delegates.append(len(args.named_children) if args is not None else 0)
        elif node.type == "throw_statement":
            created = node.named_children[0] if node.named_children else None
            if created is not None and created.type == "object_creation_expression":
                exc = syntax.text(created.child_by_field_name("type"))
                if exc.endswith(("AssertionError", "AssertionFailedError", "ComparisonFailure")):
                    assertion_error = True
                elif exc not in thrown:
                    thrown.append(exc)
    return tuple(thrown), frozenset(called), assertion_error, frozenset(handed), tuple(delegates)


_body_facts = syntax.ByText(_walk_body, BODY_FACTS_KEPT)


PER_TEST_SET_UP = frozenset({"Before", "BeforeEach", "BeforeMethod"})
"""What marks a method run before each test (JUnit 4, JUnit 5, TestNG); JUnit 3 names it ``setUp``."""


def is_per_test_set_up(name: str, annotations: set[str] | tuple[str, ...]) -> bool:
    return name == "setUp" or not PER_TEST_SET_UP.isdisjoint(annotations)


def _argument_literals(body: Node | None) -> tuple[str, ...]:
    found: dict[str, None] = {}
    for node in syntax.walk_skipping_classes(body) if body is not None else ():
        if node.type == "argument_list":
            found.update(
                dict.fromkeys(syntax.text(a) for a in node.named_children if a.type == "string_literal")
            )
    return tuple(found)


def method_info(node: Node, openings: bool = True) -> MethodInfo:
    """``openings``: read the body's opening guards (:attr:`MethodInfo.opening`), which only the
    code under test needs: a test file's methods are never walked for the exception they throw."""
    doc = syntax.preceding_javadoc(node)
    body = node.child_by_field_name("body")
    thrown, called, assertion_error, handed, delegates = body_facts(body)
    is_ctor = node.type in ("constructor_declaration", "compact_constructor_declaration")
    name = syntax.text(node.child_by_field_name("name"))
    annotations = tuple(syntax.annotation_name(a) for a in syntax.annotations(node))
    return MethodInfo(
        name=name,
        params=_params(node),
        return_type=None if is_ctor else syntax.text(node.child_by_field_name("type")),
        modifiers=syntax.modifiers(node),
        annotations=annotations,
        throws=_throws(node),
        javadoc=parse_javadoc(doc) if doc else None,
        thrown_in_body=thrown,
        line=node.start_point[0],
        called=called,
        throws_assertion_error=assertion_error,
        type_params=_type_params(node),
        set_up_literals=_argument_literals(body) if is_per_test_set_up(name, annotations) else (),
        handed=handed,
        delegates=delegates,
        opening=opening_steps(body) if openings else (),
    )


def _fields(node: Node) -> list[FieldInfo]:
    mods = syntax.modifiers(node)
    result = []
    for declarator in node.children_by_field_name("declarator"):
        value = declarator.child_by_field_name("value")
        result.append(
            FieldInfo(
                name=syntax.text(declarator.child_by_field_name("name")),
                type=syntax.declared_type(node, declarator),
                modifiers=mods,
                initializer=syntax.text(value) if value is not None else None,
            )
        )
    return result


def class_info(node: Node, package: str, outer: str | None, path: str, openings: bool = True) -> ClassInfo:
    name = syntax.text(node.child_by_field_name("name"))
    dotted = f"{outer}.{name}" if outer else name
    kind = node.type.removesuffix("_declaration")
    info = ClassInfo(
        name=name,
        qualified_name=f"{package}.{dotted}" if package else dotted,
        package=package,
        kind=kind,
        type_params=_type_params(node),
        superclass=_superclass(node),
        interfaces=_interfaces(node),
        path=path,
        line=node.start_point[0],
    )
    body = node.child_by_field_name("body")
    if body is None:
        return info
    members = list(body.named_children)
    if kind == "enum":
        decls = next((c for c in members if c.type == "enum_body_declarations"), None)
        members = list(decls.named_children) if decls else []
        info.fields.update(_enum_constants(body, name))
    if kind == "record":
        info.methods += _record_accessors(node)
    for member in members:
        if member.type in (
            "method_declaration",
            "constructor_declaration",
            "compact_constructor_declaration",
        ):
            info.methods.append(method_info(member, openings))
        elif member.type in ("field_declaration", "constant_declaration"):
            for f in _fields(member):
                mods = f.modifiers | ({"public", "static", "final"} if kind == "interface" else set())
                info.fields[f.name] = FieldInfo(f.name, f.type, frozenset(mods), f.initializer)
    return info


def _superclass(node: Node) -> str | None:
    """The class it ``extends`` as written; an interface's ``extends`` are :func:`_interfaces`."""
    superclass = node.child_by_field_name("superclass")
    return syntax.text(superclass.named_children[0]) if superclass and superclass.named_children else None


def _interfaces(node: Node) -> tuple[str, ...]:
    """A class's ``implements`` list, or the interfaces an interface ``extends``."""
    interfaces = node.child_by_field_name("interfaces") or next(
        (c for c in node.named_children if c.type == "extends_interfaces"), None
    )
    return tuple(
        syntax.text(t)
        for t in (
            interfaces.named_children[0].named_children if interfaces and interfaces.named_children else []
        )
    )


def _enum_constants(body: Node, enum: str) -> dict[str, FieldInfo]:
    """An enum's constants, as the public static final fields they are (``Color.RED``)."""
    found: dict[str, FieldInfo] = {}
    for constant in body.named_children:
        if constant.type == "enum_constant":
            cname = syntax.text(constant.child_by_field_name("name"))
            found[cname] = FieldInfo(cname, enum, frozenset({"public", "static", "final"}), f"{enum}.{cname}")
    return found


def _record_accessors(node: Node) -> list[MethodInfo]:
    """A record's component accessors, which its body does not declare: ``point.x()``."""
    found: list[MethodInfo] = []
    params = node.child_by_field_name("parameters")
    for p in params.named_children if params else []:
        if p.type == "formal_parameter":
            ptype = syntax.text(p.child_by_field_name("type"))
            pname = syntax.text(p.child_by_field_name("name"))
            found.append(
                MethodInfo(
                    pname,
                    (),
                    ptype,
                    frozenset({"public"}),
                    (),
                    (),
                    None,
                    (),
                    p.start_point[0],
                    frozenset(),
                    False,
                )
            )
    return found


def _imports(root: Node) -> list[Import]:
    result = []
    for node in root.children:
        if node.type != "import_declaration":
            continue
        is_static = any(c.type == "static" for c in node.children)
        wildcard = any(c.type == "asterisk" for c in node.children)
        name_node = next(
            (c for c in node.named_children if c.type in ("scoped_identifier", "identifier")), None
        )
        if name_node is not None:
            result.append(Import(syntax.text(name_node), is_static, wildcard))
    return result


def package_of(root: Node) -> str:
    for node in root.children:
        if node.type == "package_declaration":
            name = next(
                (c for c in node.named_children if c.type in ("scoped_identifier", "identifier")), None
            )
            return syntax.text(name)
    return ""


def extract(source: SourceText, path: str = "", openings: bool = True) -> FileDeclarations:
    """Every class (nested ones too, named ``Outer.Inner``) with its members; ``openings``: see
    :func:`method_info` (reading them makes a main file's extraction about a third slower)."""
    root = source.root
    package = package_of(root)
    classes: list[ClassInfo] = []

    def visit(node: Node, outer: str | None) -> None:
        for child in node.children:
            if child.type in syntax.CLASS_LIKE:
                info = class_info(child, package, outer, path, openings)
                classes.append(info)
                body = child.child_by_field_name("body")
                if body is not None:
                    visit(
                        body,
                        info.qualified_name.removeprefix(f"{package}.") if package else info.qualified_name,
                    )
                    decls = next((c for c in body.named_children if c.type == "enum_body_declarations"), None)
                    if decls is not None:
                        visit(decls, info.name)
            elif child.type == "ERROR":
                visit(child, outer)

    visit(root, None)
    return FileDeclarations(package, _imports(root), classes)


def visible(owner: ClassInfo, modifiers: frozenset[str], package: str, inherited: bool = False) -> bool:
    """Whether a test in ``package`` can name a member of ``owner``: public ones (an interface's
    are, unless private), protected ones it ``inherited`` from ``owner``, and protected or
    package-private ones of a class in the test's own package. opencsv's builders expose their
    state to tests through protected getters (``builder.getSkipLines()``); a package-private
    method of another package (xom's ``Node.isText()``) does not compile in the test."""
    if "private" in modifiers:
        return False
    if "public" in modifiers or owner.kind in ("interface", "annotation_type"):
        return True
    return owner.package == package or (inherited and "protected" in modifiers)
