"""What the common JDK types can be asked (observers, queries), and which JDK types a value of
them can be passed as: the knowledge of the JDK that target enumeration and assignability share."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class JdkType:
    """What the common JDK types can be asked: zero-argument observers and one-argument queries."""

    observers: tuple[tuple[str, str], ...]
    """``(method, return type)``; ``E``, ``K``, ``V`` stand for the type arguments."""
    queries: tuple[tuple[str, str, str], ...] = ()
    """``(method, parameter type, return type)``."""
    actions: frozenset[str] = frozenset()
    """Observers that change what they read (a ``Matcher``'s ``find()``): ``action`` targets, which
    the observation reads each alone (:mod:`oracular.execution.observe`)."""


_COLLECTION = JdkType(
    (("size", "int"), ("isEmpty", "boolean"), ("toString", "String")), (("contains", "E", "boolean"),)
)
"""``toString()`` too: a collection's text (``[a, b]``) is how tests pin the elements of
objects without ``equals`` (java-diff-utils' ``assertEquals("[[EQUAL,<,<]]", rows.toString())``);
only where the elements' text is stable (:meth:`TargetEnumerator.stable_text`)."""


_LIST = JdkType(
    (("size", "int"), ("isEmpty", "boolean"), ("toString", "String")),
    (("get", "int", "E"), ("contains", "E", "boolean"), ("indexOf", "E", "int")),
)


MAP = JdkType((("size", "int"), ("isEmpty", "boolean")), (("get", "K", "V"), ("containsKey", "K", "boolean")))


_TEXT = JdkType((("length", "int"), ("toString", "String")))


LISTS = ("List", "ArrayList", "LinkedList", "Vector", "Stack", "CopyOnWriteArrayList")


COLLECTIONS = ("Collection", "Set", "HashSet", "LinkedHashSet", "TreeSet", "SortedSet", "NavigableSet",
                "Queue", "Deque", "ArrayDeque", "PriorityQueue", "EnumSet")  # fmt: skip


MAPS = ("Map", "HashMap", "LinkedHashMap", "TreeMap", "SortedMap", "NavigableMap", "ConcurrentHashMap",
         "ConcurrentMap", "EnumMap", "Hashtable", "Properties")  # fmt: skip


_FILE = JdkType(
    (("exists", "boolean"), ("isDirectory", "boolean"), ("length", "long"), ("getName", "String"))
)


THROWABLE = JdkType((("getMessage", "String"), ("getCause", "Throwable")))
"""Any ``Throwable``: a JDK exception, or the JDK root of a workspace one (``MathException``)."""


JDK_TYPES: dict[str, JdkType] = {
    "String": JdkType((("length", "int"), ("isEmpty", "boolean")), (("charAt", "int", "char"),)),
    "StringBuilder": _TEXT,
    "StringBuffer": _TEXT,
    "CharSequence": _TEXT,
    "StringWriter": JdkType((("toString", "String"),)),
    # what a printer is handed to write to; in a test, a StringBuilder or StringWriter
    # (commons-csv's `Appendable out = new StringBuilder(); format.print(in, out, true);`)
    "Appendable": JdkType((("toString", "String"),)),
    "CharArrayWriter": JdkType((("size", "int"), ("toString", "String"))),
    "ByteArrayOutputStream": JdkType((("size", "int"), ("toString", "String"), ("toByteArray", "byte[]"))),
    "Optional": JdkType((("isPresent", "boolean"), ("get", "E"))),
    "AtomicInteger": JdkType((("get", "int"),)),
    "AtomicLong": JdkType((("get", "long"),)),
    "AtomicBoolean": JdkType((("get", "boolean"),)),
    "AtomicReference": JdkType((("get", "E"),)),
    "NodeList": JdkType((("getLength", "int"),)),
    # next() hands the test the element it walked to (`assertEquals(n1, iter.next())`) and moves on
    **dict.fromkeys(
        ("Iterator", "ListIterator"),
        JdkType((("hasNext", "boolean"), ("next", "E")), actions=frozenset({"next"})),
    ),
    "Enumeration": JdkType(
        (("hasMoreElements", "boolean"), ("nextElement", "E")), actions=frozenset({"nextElement"})
    ),
    "Matcher": JdkType((("matches", "boolean"), ("find", "boolean")), actions=frozenset({"matches", "find"})),
    "File": _FILE,
    **dict.fromkeys(LISTS, _LIST),
    **dict.fromkeys(COLLECTIONS, _COLLECTION),
    **dict.fromkeys(MAPS, MAP),
}


_DOM_NODES = ("Element", "Document", "Attr", "Text", "Comment", "CDATASection", "CharacterData",
              "ProcessingInstruction", "DocumentType", "DocumentFragment", "Entity", "EntityReference",
              "Notation")  # fmt: skip


_SETS = ("HashSet", "LinkedHashSet", "TreeSet", "SortedSet", "NavigableSet", "EnumSet")


_SUPERTYPES_OF = (
    (_DOM_NODES, ("Node",)),
    (("CDATASection",), ("Text", "CharacterData")),
    (("Text", "Comment"), ("CharacterData",)),
    (LISTS, ("List", "Collection", "Iterable")),
    (("ListIterator",), ("Iterator",)),
    (COLLECTIONS, ("Collection", "Iterable")),
    (_SETS, ("Set",)),
    (MAPS, ("Map",)),
    (("String", "StringBuilder", "StringBuffer"), ("CharSequence",)),
    (("StringWriter", "PrintWriter", "BufferedWriter", "FileWriter"), ("Writer",)),
    (("StringReader", "BufferedReader", "FileReader", "InputStreamReader"), ("Reader",)),
    (("ByteArrayInputStream", "FileInputStream", "BufferedInputStream"), ("InputStream",)),
    (("ByteArrayOutputStream", "FileOutputStream", "PrintStream"), ("OutputStream",)),
    (("StreamSource", "DOMSource", "SAXSource"), ("Source",)),
)


def _supertypes_table() -> dict[str, frozenset[str]]:
    table: dict[str, frozenset[str]] = {}
    for names, supertypes in _SUPERTYPES_OF:
        for name in names:
            table[name] = table.get(name, frozenset()) | frozenset(supertypes)
    return table


JDK_SUPERTYPES = _supertypes_table()
"""Common JDK types (simple names, the families of :data:`JDK_TYPES` among them) and the JDK types
a value of them can be passed as: a suite's helper takes a ``Node`` where the test holds
``Element`` s (xmlunit's ``assertDifferentChildren``)."""
