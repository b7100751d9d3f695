"""Static type inference for test-prefix expressions, precise enough to build type-correct oracles.

Types are Java source strings (``int``, ``Stack<Integer>``, ``int[]``). Inference uses the
test's declarations, the workspace index (method return types with class generics substituted),
literals, and a small table of JDK methods for receivers outside the workspace. Unknown is
``None``: the grammar then proposes only oracles valid for any reference.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from tree_sitter import Node

from oracular.java import syntax
from oracular.java.declarations import ClassInfo, Import, MethodInfo
from oracular.java.jdk_types import COLLECTIONS, JDK_SUPERTYPES, LISTS
from oracular.java.workspace import WorkspaceIndex

PRIMITIVE_BOX = {
    "boolean": "Boolean", "byte": "Byte", "short": "Short", "int": "Integer", "long": "Long",
    "float": "Float", "double": "Double", "char": "Character",
}  # fmt: skip
BOX_PRIMITIVE = {v: k for k, v in PRIMITIVE_BOX.items()}
INTEGRAL = ("byte", "short", "int", "long")
FLOATING = ("float", "double")

# Return types of common JDK methods, for receivers the workspace does not declare.
JDK_RETURNS: dict[str, str] = {
    "size": "int", "length": "int", "indexOf": "int", "lastIndexOf": "int", "hashCode": "int",
    "compareTo": "int", "intValue": "int", "ordinal": "int", "count": "long", "longValue": "long",
    "doubleValue": "double", "floatValue": "float", "charAt": "char",
    "isEmpty": "boolean", "contains": "boolean", "containsKey": "boolean", "containsValue": "boolean",
    "containsAll": "boolean", "equals": "boolean", "equalsIgnoreCase": "boolean", "startsWith": "boolean",
    "endsWith": "boolean", "matches": "boolean", "isPresent": "boolean", "hasNext": "boolean",
    "booleanValue": "boolean", "isBlank": "boolean",
    "toString": "String", "trim": "String", "strip": "String", "substring": "String",
    "toUpperCase": "String", "toLowerCase": "String", "name": "String", "replace": "String",
    "concat": "String", "repeat": "String", "getMessage": "String", "getSimpleName": "String",
    "toCharArray": "char[]", "getBytes": "byte[]",
}  # fmt: skip
# JDK methods returning one of the receiver's type arguments: its index, -1 for the last
# (``List<E>.get`` -> E, ``Map<K, V>.get`` -> V).
JDK_GENERIC_RETURNS: dict[str, int] = {"get": -1, "getFirst": 0, "getLast": 0, "peek": 0, "poll": 0,
                                       "pop": 0, "remove": -1, "next": 0, "orElse": 0, "orElseThrow": 0,
                                       "first": 0, "last": 0}  # fmt: skip


def split_generic(type_text: str) -> tuple[str, list[str]]:
    """``Map<String, List<Integer>>`` -> (``Map``, [``String``, ``List<Integer>``])."""
    type_text = type_text.strip()
    if "<" not in type_text or not type_text.endswith(">"):
        return type_text, []
    base, _, inner = type_text.partition("<")
    inner = inner[:-1]
    args, depth, current = [], 0, ""
    for ch in inner:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        if ch == "," and depth == 0:
            args.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        args.append(current.strip())
    return base.strip(), args


def substitute(type_text: str, mapping: dict[str, str]) -> str:
    if not mapping:
        return type_text
    return re.sub(r"\b[A-Za-z_]\w*\b", lambda m: mapping.get(m.group(0), m.group(0)), type_text)


def is_boolean(t: str | None) -> bool:
    return t in ("boolean", "Boolean")


def unboxed(t: str | None) -> str | None:
    return BOX_PRIMITIVE.get(t, t) if t else t


def is_integral(t: str | None) -> bool:
    return unboxed(t) in INTEGRAL


def is_floating(t: str | None) -> bool:
    return unboxed(t) in FLOATING


def is_numeric(t: str | None) -> bool:
    return is_integral(t) or is_floating(t)


def is_primitive(t: str | None) -> bool:
    return t in PRIMITIVE_BOX


def is_array(t: str | None) -> bool:
    return bool(t) and t.endswith("]")


def base_name(t: str) -> str:
    """``java.util.concurrent.Future<String>`` -> ``Future``: a type's simple name."""
    return split_generic(t)[0].rsplit(".", 1)[-1]


def simple_exception(name: str | None) -> str:
    """``java.io.IOException`` -> ``IOException``, ``None`` (an oracle that names no type) ->
    ``Exception``: how an oracle's, a guard's and a thrown exception's types are compared."""
    return base_name(name or "Exception")


def written_name(binary_name: str) -> str:
    """``java.util.Map$Entry`` -> ``Map.Entry``: a class the JVM names, as a test file writes it."""
    return binary_name.rsplit(".", 1)[-1].replace("$", ".")


def literal_type(node: Node) -> str | None:
    """Type of a literal node (or a negated numeric literal)."""
    kind = node.type
    if kind == "unary_expression" and node.named_children:
        return literal_type(node.named_children[-1]) if syntax.text(node).startswith(("-", "+")) else None
    raw = syntax.text(node)
    if kind in (
        "decimal_integer_literal",
        "hex_integer_literal",
        "octal_integer_literal",
        "binary_integer_literal",
    ):
        return "long" if raw[-1] in "lL" else "int"
    if kind in ("decimal_floating_point_literal", "hex_floating_point_literal"):
        return "float" if raw[-1] in "fF" else "double"
    return {
        "string_literal": "String", "text_block": "String", "character_literal": "char",
        "true": "boolean", "false": "boolean", "null_literal": "null",
    }.get(kind)  # fmt: skip


LITERAL_TYPES = frozenset(
    {
        "decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal",
        "decimal_floating_point_literal", "hex_floating_point_literal", "string_literal", "text_block",
        "character_literal", "true", "false", "null_literal",
    }
)  # fmt: skip


def instantiate_return(owner: ClassInfo, method: MethodInfo, receiver_type: str | None) -> str | None:
    """A method's return type with the receiver's type arguments substituted.

    A return type that is still a bare type variable afterwards is unknown (``None``).
    """
    return instantiate(owner, method.return_type, receiver_type, method.type_params)


def instantiate(
    owner: ClassInfo, type_text: str | None, receiver_type: str | None, own_params: tuple[str, ...] = ()
) -> str | None:
    """A member's declared type (a return or field type) with the receiver's type arguments
    substituted; ``None`` while it is still a bare type variable (of the class or ``own_params``)."""
    if type_text is None:
        return None
    _, type_args = split_generic(receiver_type or "")
    if len(type_args) == len(owner.type_params):
        type_text = substitute(type_text, dict(zip(owner.type_params, type_args, strict=True)))
    return None if type_text in owner.type_params or type_text in own_params else type_text


_INTEGER_LITERALS = frozenset(
    {"decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal"}
)


def takes(method: MethodInfo, arity: int) -> bool:
    """``method`` can be called with ``arity`` arguments (a varargs method with one less, or more)."""
    varargs = bool(method.params) and method.params[-1][0].endswith("...")
    return len(method.params) == arity or (varargs and arity >= len(method.params) - 1)


def _fits(param: str, arg: Node) -> bool:
    """False only where the argument plainly cannot be passed: a literal of another kind, an array
    for a scalar. Types this cannot read (a variable, a call, a type variable) fit."""
    if param in ("Object", "Serializable") or (len(param) == 1 and param.isupper()):
        return True
    integral = is_integral(param) or unboxed(param) == "char"
    numeric = integral or is_floating(param) or param == "Number"
    kind = arg.type
    if kind == "decimal_floating_point_literal":
        return not (integral or is_boolean(param) or param == "String" or is_array(param))
    if kind in _INTEGER_LITERALS:
        return not (is_boolean(param) or param == "String" or is_array(param))
    if kind == "string_literal":
        return not (numeric or is_boolean(param) or is_array(param))
    if kind in ("true", "false"):
        return not (numeric or param == "String" or is_array(param))
    if kind in ("array_creation_expression", "array_initializer"):
        return is_array(param)
    return True


def _mismatches(method: MethodInfo, args: list[Node]) -> int:
    types = [t for t, _ in method.params]
    if not (types and types[-1].endswith("...")):
        if len(types) != len(args):
            return len(types) + len(args)  # another arity: only where none takes this one
        return sum(not _fits(t, a) for t, a in zip(types, args, strict=True))
    element = types[-1].removesuffix("...").strip()
    fixed, rest = types[:-1], args[len(types) - 1 :]
    cost = sum(not _fits(t, a) for t, a in zip(fixed, args, strict=False))
    if len(rest) == 1 and _fits(f"{element}[]", rest[0]):
        return cost  # the array itself
    return cost + sum(not _fits(element, a) for a in rest)


def best_overload(methods: list[MethodInfo], args: list[Node]) -> MethodInfo:
    """The first of ``methods`` whose parameters the arguments fit best.

    Why: picking by arity alone read ``new DerivativeStructure(1, 4, 0.0, 0.0)`` as the
    ``(int, int, int, double)`` constructor, whose exceptions are not the varargs one's
    (``DimensionMismatchException``), and ``new Quaternion(new double[] {1, 2})`` likewise.
    """
    return min(methods, key=lambda m: _mismatches(m, args)) if args else methods[0]


@dataclass
class ResolvedCall:
    cls: ClassInfo
    method: MethodInfo
    receiver_type: str | None
    return_type: str | None


@dataclass
class TypeEnv:
    """What the prefix can see: locals, the test class's fields, and the workspace."""

    index: WorkspaceIndex
    package: str = ""
    imports: list[Import] = field(default_factory=list)
    locals: dict[str, str] = field(default_factory=dict)
    fields: dict[str, str] = field(default_factory=dict)
    instance_fields: set[str] = field(default_factory=set)
    """The test class's non-static fields: what the code under test can set once the prefix
    hands it ``this`` (args4j's ``new CmdLineParser(this)`` fills the test's ``@Option`` fields)."""
    set_up_literals: list[str] = field(default_factory=list)
    """The string literals the test class's per-test set-up passes on, its own set-up's first."""
    helpers: dict[str, frozenset[str]] = field(default_factory=dict)
    """The test class's methods by name -> the names their bodies write or hand on
    (:attr:`~oracular.java.declarations.MethodInfo.handed`)."""
    scope: str = ""
    """The qualified name of the test class: its member classes shadow the workspace's others."""
    origin: str = ""
    """The test file's path: of the classes of one qualified name in several modules, the
    nearest's (:meth:`~oracular.java.workspace.WorkspaceIndex.nearest`)."""

    def resolve_class(self, type_text: str | None) -> ClassInfo | None:
        if not type_text or is_primitive(type_text):
            return None
        return self.index.resolve(type_text, self.package, self.imports, self.scope, self.origin)

    def variable_type(self, name: str) -> str | None:
        return self.locals.get(name) or self.fields.get(name)

    def methods_in_hierarchy(self, cls: ClassInfo) -> Iterator[tuple[ClassInfo, MethodInfo]]:
        for owner in (cls, *self.index.supertypes(cls)):
            for method in owner.methods:
                yield owner, method

    def find_method(
        self, cls: ClassInfo, name: str, arity: int, args: list[Node] | None = None
    ) -> tuple[ClassInfo, MethodInfo] | None:
        """The nearest method of that name taking ``arity`` arguments; with ``args``, the overload
        whose parameters the literal arguments fit best (:func:`best_overload`)."""
        matching: list[tuple[ClassInfo, MethodInfo]] = []
        fallback = None
        for owner, method in self.methods_in_hierarchy(cls):
            if method.name != name or method.is_constructor:
                continue
            if takes(method, arity):
                matching.append((owner, method))
            fallback = fallback or (owner, method)
        if not matching:
            return fallback
        best = best_overload([m for _, m in matching], args or [])
        return next(pair for pair in matching if pair[1] is best)

    def resolve_call(self, call: Node) -> ResolvedCall | None:
        """The workspace method a ``method_invocation`` calls, with its instantiated return type."""
        receiver = call.child_by_field_name("object")
        name = syntax.call_name(call)
        args = call.child_by_field_name("arguments")
        arity = len(args.named_children) if args is not None else 0
        if receiver is None:
            return None
        receiver_type = self.type_of(receiver)
        cls = self.resolve_class(receiver_type)
        if (
            cls is None
            and receiver.type == "identifier"
            and self.variable_type(syntax.text(receiver)) is None
        ):
            cls = self.resolve_class(syntax.text(receiver))
            receiver_type = None
        if cls is None:
            return None
        found = self.find_method(cls, name, arity, args.named_children if args is not None else None)
        if found is None:
            return None
        owner, method = found
        return ResolvedCall(owner, method, receiver_type, instantiate_return(owner, method, receiver_type))

    def own_method(self, call: Node) -> tuple[ClassInfo, MethodInfo] | None:
        """The test class's own (or inherited) method an unqualified call reaches: commons-math3's
        ``createRegression()``, whose return type types ``.newSampleData(...)`` chained on it, and
        whose opening a throwing statement's guard walk enters (``create(weights, ...)``)."""
        own = self.resolve_class(self.scope) if self.scope else None
        if own is None or call.type != "method_invocation" or call.child_by_field_name("object") is not None:
            return None
        args = call.child_by_field_name("arguments")
        return self.find_method(own, syntax.call_name(call), len(args.named_children) if args else 0)

    def _jdk_return(self, call: Node) -> str | None:
        name = syntax.call_name(call)
        if name in JDK_RETURNS:
            return JDK_RETURNS[name]
        receiver = call.child_by_field_name("object")
        arguments = call.child_by_field_name("arguments")
        if name == "asList" and arguments is not None and len(arguments.named_children) == 1:
            array = self.type_of(arguments.named_children[0]) or ""  # Arrays.asList(bean.values)
            element = array[:-2]
            reference = array.endswith("[]") and not is_primitive(element) and "[" not in element
            return f"List<{element}>" if reference else None
        if name in JDK_GENERIC_RETURNS and receiver is not None:
            _, args = split_generic(self.type_of(receiver) or "")
            pick = JDK_GENERIC_RETURNS[name]
            if -len(args) <= pick < len(args):
                return args[pick]
        if re.match(r"^(is|has|can|should)[A-Z]", name):
            return "boolean"
        return None

    def type_of(self, node: Node | None) -> str | None:
        """Best-effort static type of an expression node."""
        if node is None:
            return None
        kind = node.type
        if kind in LITERAL_TYPES or (kind == "unary_expression" and syntax.text(node)[:1] in "-+"):
            lit = literal_type(node)
            if lit:
                return lit
        if kind == "identifier":
            return self.variable_type(syntax.text(node))
        if kind == "parenthesized_expression" and node.named_children:
            return self.type_of(node.named_children[0])
        if kind == "object_creation_expression":
            type_text = syntax.text(node.child_by_field_name("type"))
            return type_text if not type_text.endswith("<>") else None
        if kind == "array_creation_expression":
            base = syntax.text(node.child_by_field_name("type"))
            dims = syntax.text(node).count("[")
            return base + "[]" * max(dims, 1)
        if kind == "cast_expression":
            return syntax.text(node.child_by_field_name("type"))
        if kind == "method_invocation":
            resolved = self.resolve_call(node)
            if resolved is not None:
                return resolved.return_type
            own = self.own_method(node)
            return instantiate_return(*own, None) if own is not None else self._jdk_return(node)
        if kind == "field_access":
            obj = self.resolve_class(self.type_of(node.child_by_field_name("object")))
            if obj is None:
                obj = self.resolve_class(syntax.text(node.child_by_field_name("object")))
            fname = syntax.text(node.child_by_field_name("field"))
            if obj is not None and fname in obj.fields:
                return obj.fields[fname].type
            if fname == "length":
                return "int"
            return None
        if kind == "array_access":
            array = self.type_of(node.child_by_field_name("array"))
            return array[:-2] if array and array.endswith("[]") else None
        if kind in ("instanceof_expression",):
            return "boolean"
        if kind == "unary_expression":
            op = syntax.text(node.child_by_field_name("operator"))
            return "boolean" if op == "!" else self.type_of(node.child_by_field_name("operand"))
        if kind == "binary_expression":
            return self._binary_type(node)
        if kind == "ternary_expression":
            return self.type_of(node.child_by_field_name("consequence")) or self.type_of(
                node.child_by_field_name("alternative")
            )
        if kind == "assignment_expression":
            return self.type_of(node.child_by_field_name("left"))
        if kind == "update_expression" and node.named_children:
            return self.type_of(node.named_children[0])
        return None

    def _binary_type(self, node: Node) -> str | None:
        op = syntax.text(node.child_by_field_name("operator"))
        if op in ("==", "!=", "<", ">", "<=", ">=", "&&", "||"):
            return "boolean"
        left = self.type_of(node.child_by_field_name("left"))
        right = self.type_of(node.child_by_field_name("right"))
        if op == "+" and "String" in (left, right):
            return "String"
        if op in ("&", "|", "^") and is_boolean(left):
            return "boolean"
        if is_numeric(left) and is_numeric(right):
            order = ["int", "long", "float", "double"]
            ranks = [order.index(unboxed(t)) if unboxed(t) in order else 0 for t in (left, right)]
            return order[max(ranks)]
        return left if left == right else None


# -- assignability ----------------------------------------------------------------------------
def accepts(param_type: str, value_type: str) -> bool:
    """Whether a value of ``value_type`` can be passed where ``param_type`` is expected."""
    param, value = unboxed(param_type), unboxed(value_type)
    if param == value:
        return True
    if is_integral(param) and value == "int":
        return True
    if param in ("Object", "java.lang.Object") and not is_primitive(value_type):
        return True
    return not is_primitive(param) and not is_primitive(value) and base_name(param) == base_name(value)


def is_subtype(value_type: str, param_type: str, env: TypeEnv) -> bool:
    """Whether a value of ``value_type`` can be passed as ``param_type`` because the type extends or
    implements it: a workspace class through its workspace supertypes, a common JDK type through
    :data:`JDK_SUPERTYPES` (an ``Element`` is a ``Node``)."""
    wanted = base_name(param_type)
    if wanted in JDK_SUPERTYPES.get(base_name(value_type), ()):
        return True
    cls = env.resolve_class(value_type)
    return cls is not None and any(parent.name == wanted for parent in env.index.supertypes(cls))


def fits(param_type: str, value_type: str, env: TypeEnv) -> bool:
    """Whether a value can be passed as ``param_type``, of its type or a subtype (xmlunit's
    ``validator.isInstanceValid(Source)`` given the test's ``StreamSource``)."""
    return accepts(param_type, value_type) or is_subtype(value_type, param_type, env)


def is_collection(type_text: str) -> bool:
    """A JDK list or set (``java.util.List<String>``...), whose text reads ``[a, b]``."""
    return split_generic(type_text)[0].rsplit(".", 1)[-1] in (*LISTS, *COLLECTIONS)
