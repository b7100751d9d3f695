"""The layering the README's "Architecture" section describes, checked on the source itself.

Why a test: the seams it guards (the editor loading the offline pipeline, a cycle held open only by
a deferred import) are invisible in review and cost start-up time or a confusing import error
later. The graph is read from the source with ``ast``: every ``import`` counts, deferred ones
inside functions included; imports under ``if TYPE_CHECKING:`` never run and do not.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import oracular

PACKAGE = Path(oracular.__file__).parent
OFFLINE = frozenset({"corpus", "training", "evaluation"})
"""What builds and measures the editor; nothing else may import these (the CLI may)."""
TOP = frozenset({"cli", "__main__"})
HEAVY = ("torch", "transformers", "tokenizers", "tqdm", "ray", "safetensors", "numpy")


def _module_name(path: Path) -> str:
    parts = ("oracular", *path.relative_to(PACKAGE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_nodes(tree: ast.Module) -> set[int]:
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(n) for child in node.body for n in ast.walk(child)}
    return skipped


def import_graph() -> dict[str, set[str]]:
    """Module -> the oracular modules it imports (a package's ``__init__`` stands for the package)."""
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = _type_checking_nodes(tree)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [f"{base}.{alias.name}" for alias in node.names]
            else:
                continue
            for target in targets:
                while target not in modules and "." in target:
                    target = target.rpartition(".")[0]
                if target in modules and target != name and target != "oracular":
                    graph[name].add(target)
    return graph


def _top(module: str) -> str:
    return module.split(".")[1] if "." in module else module


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for successor in graph.get(node, ()):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def package_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for source, targets in import_graph().items():
        graph[_top(source)] |= {_top(t) for t in targets} - {_top(source)}
    return graph


def test_no_module_import_cycle() -> None:
    assert cycles(import_graph()) == []


def test_no_package_import_cycle() -> None:
    assert cycles(package_graph()) == []


def test_the_editor_never_imports_the_offline_pipeline_or_the_commands() -> None:
    crossing = {
        (source, target)
        for source, targets in package_graph().items()
        if source not in OFFLINE | TOP
        for target in targets
        if target in OFFLINE | TOP
    }
    assert crossing == set()


def test_the_checks_see_a_known_edge() -> None:
    """Guards the two tests above against a graph reader that finds nothing."""
    graph = import_graph()
    assert "oracular.engine" in graph["oracular.corpus.samples"]
    assert "corpus" in package_graph()["evaluation"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_servers_start_up_imports_are_pinned() -> None:
    """``oracular serve`` up to its first message: the editor's packages, and no model code or torch.

    The model loads later, in the background, once the client has initialised.
    """
    probe = (
        "import atexit, sys\n"
        "atexit.register(lambda: print(' '.join(sorted(sys.modules))))\n"
        "from oracular.cli.main import main\n"
        "sys.exit(main(['serve']))\n"
    )
    env = {**os.environ, "ORACULAR_RANKER": ""}
    result = subprocess.run(
        [sys.executable, "-c", probe], stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env
    )
    loaded = set(result.stdout.split())
    assert "oracular.lsp.server" in loaded, result.stderr
    ours = {m for m in loaded if m.startswith("oracular.")}
    assert {_top(m) for m in ours} == {
        "cache", "candidates", "cli", "engine", "execution", "incremental", "java", "lsp", "models",
        "options", "quality", "ranking", "training",
    }  # fmt: skip
    assert {m for m in ours if _top(m) == "models"} == {
        "oracular.models", "oracular.models.devices", "oracular.models.inputs", "oracular.models.layout",
        "oracular.models.ranker",
    }  # fmt: skip
    # the train command's options are read off its settings dataclass: that alone, no trainer
    assert {m for m in ours if _top(m) == "training"} == {"oracular.training", "oracular.training.settings"}
    assert [m for m in HEAVY if m in loaded] == []


EDITOR_LAYERS = (("java",), ("candidates",), ("incremental", "ranking"), ("models", "engine"),
                 ("execution", "quality"), ("mutation",), ("lsp",))  # fmt: skip
"""The editor's packages, bottom up: each imports only from the layers below it (and the neutral
``cache`` and ``options``). Java analysis knows no candidates; candidates know no ranking (a weight
they need is handed to them); the ranking steps know no engine; the engine knows no JVM."""


def test_the_editor_packages_are_layered() -> None:
    graph = package_graph()
    below: set[str] = {"cache", "options"}
    for layer in EDITOR_LAYERS:
        for package in layer:
            assert graph.get(package, set()) <= below, (package, sorted(graph[package] - below))
        below |= set(layer)


MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 60


def test_modules_and_functions_stay_small() -> None:
    """A module has one job and a function one step: past these sizes they have grown several."""
    long_modules, long_functions = [], []
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > MAX_MODULE_LINES:
            long_modules.append(_module_name(path))
        functions = (
            n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        )
        long_functions += [
            f"{_module_name(path)}.{f.name}"
            for f in functions
            if f.end_lineno is not None and f.end_lineno - f.lineno + 1 > MAX_FUNCTION_LINES
        ]
    assert (long_modules, long_functions) == ([], [])
