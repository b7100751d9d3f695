"""How often the developer's template is among the offered ones, and why not when it is not (issue 15).

Why: in the realistic setting (tests cut right before their first oracle, nothing appended) the
developer's template is offered for only about 40% of assertion tests, which caps what any
ranker can reach. This cuts the dev projects' tests exactly as ``oracular corpus realistic`` does
(:func:`oracular.corpus.realistic.chosen_cuts`, same seed and ``--max-tests``) and sorts each
assertion test into one reason:

- ``covered``: a template is the developer's (:func:`~oracular.corpus.realistic.is_developers`);
- ``not normalised``: the oracle statement is no assertion form :mod:`oracular.corpus.normalise` reads;
- ``assertThat (AssertJ/Hamcrest) unmapped``: by matcher name (``hasSize``, ``contains``...);
- ``method outside the grammar``: ``assertNotEquals``, ``assertSame``, ``verify``...;
- ``kind not offered``: the asserted expression is a target, but not with the developer's
  assertion (by assertion and target type);
- ``beyond MAX_TARGETS`` / ``beyond the per-base caps``: the expression would be a target with
  a larger :data:`~oracular.java.targets.MAX_TARGETS`, or with every enumeration cap raised;
- ``not a target``: by the asserted expression's shape (a field, a call with literal arguments,
  a chain...); for a call on a prefix variable whose method is not enumerated, where its type's
  members come from (the workspace, the JDK table, or neither: the type named).

Dev packages by default; train packages may be measured too (``--only``): their failures are
what a general rule is built from, never the report projects'.

    PYTHONPATH=server .venv/bin/python scripts/template_coverage.py [--max-tests 100] [--seed 13]
        [--only PKG ...] [--json out.json] [--examples 3] [--jobs 1]

It also reports the templates offered per assertion test (mean and max): widening the template
space must keep them few. ``--json`` writes one record per test, to compare two runs test by test.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from tqdm import tqdm
from tree_sitter import Node

from oracular.cache import default_cache_dir
from oracular.candidates.templates import target_templates
from oracular.candidates.text import canonical_expression
from oracular.corpus.devtests import DevTest
from oracular.corpus.lists import CorpusLists
from oracular.corpus.normalise import GroundTruth
from oracular.corpus.realistic import RealisticTask, chosen_cuts, cut_prefixes, is_developers
from oracular.engine import TestStatus
from oracular.java import syntax, targets
from oracular.java.assertions import GRAMMAR_FORMS
from oracular.java.method_text import parse_method
from oracular.java.oracle_statements import call_args, call_chain, statement_call
from oracular.java.prefix import PrefixAnalysis, analyse_prefix
from oracular.java.source import SourceError
from oracular.java.targets import TargetEnumerator
from oracular.java.types import LITERAL_TYPES, TypeEnv

WIDE_CAPS = ("MAX_TARGETS", "MAX_BASES", "MAX_OBSERVERS_PER_BASE", "MAX_ACTIONS_PER_BASE",
             "MAX_ARGUMENT_CALLS_PER_BASE", "MAX_CHAINS_PER_BASE", "MAX_STATIC_CALLS")  # fmt: skip
"""The enumeration caps of :mod:`oracular.java.targets`, all raised for the "would it be a target" probe."""


@contextlib.contextmanager
def raised_caps(names: tuple[str, ...]) -> Iterator[None]:
    """The target enumeration with ``names`` lifted (module constants, read at call time)."""
    saved = {name: getattr(targets, name) for name in names}
    try:
        for name in names:
            setattr(targets, name, 10**6)
        yield
    finally:
        for name, value in saved.items():
            setattr(targets, name, value)


def _parse_statement(text: str) -> Node | None:
    """The developer's oracle statement as a node (inside a wrapper method)."""
    try:
        body = parse_method("void oracle() {\n" + text + "\n}").child_by_field_name("body")
    except (SourceError, ValueError):
        return None
    statements = syntax.statements(body) if body is not None else []
    return statements[0] if statements else None


def _parse_expression(text: str) -> Node | None:
    statement = _parse_statement(f"Object oracularValue = {text};")
    declarators = statement.children_by_field_name("declarator") if statement is not None else []
    return declarators[0].child_by_field_name("value") if declarators else None


def matcher_name(oracle: str) -> str:
    """``assertThat(x).hasSize(2)`` -> ``hasSize``; ``assertThat(x, is(empty()))`` -> ``is(empty)``."""
    statement = _parse_statement(oracle)
    call = statement_call(statement) if statement is not None else None
    if call is None:
        return "?"
    chain = call_chain(call)
    if len(chain) > 1:  # AssertJ: the first check after assertThat(...) (and its as()/describedAs())
        names = [syntax.call_name(c) for c in chain[1:] if syntax.call_name(c) not in ("as", "describedAs")]
        return names[0] if names else "?"
    args = call_args(chain[0])
    if not args or args[-1].type != "method_invocation":
        return syntax.text(args[-1]).split("(")[0] if args else "?"
    matcher = args[-1]
    name = syntax.call_name(matcher)
    inner = call_args(matcher)
    if name in ("is", "not") and len(inner) == 1 and inner[0].type == "method_invocation":
        return f"{name}({syntax.call_name(inner[0])})"
    if name in ("is", "not") and len(inner) == 1:
        return f"{name}(value)"
    return name


def _asserted(truth: GroundTruth) -> str:
    """The side of the oracle that is computed, not given: developers sometimes swap the arguments."""
    if truth.expected is None:
        return truth.actual
    expected = _parse_expression(truth.expected)
    actual = _parse_expression(truth.actual)
    if actual is not None and expected is not None and _is_constant(actual) and not _is_constant(expected):
        return truth.expected
    return truth.actual


def _is_constant(node: Node) -> bool:
    if node.type in LITERAL_TYPES or node.type == "unary_expression":
        return True
    return node.type == "field_access" and syntax.text(node).split(".")[-1].isupper()


def shape(text: str, prefix: PrefixAnalysis) -> str:
    """The asserted expression's shape, in the words of the target kinds it misses; for a call on a
    name, also why its receiver yields no such target (not among the bases, type unknown)."""
    node = _parse_expression(text)
    env = prefix.env
    if node is None:
        return "unparsed"
    if node.type == "identifier":
        name = syntax.text(node)
        if name in env.locals:
            return "local variable"
        return "test-class field" if name in env.fields else "other name"
    if node.type == "field_access":
        root = node.child_by_field_name("object")
        return f"field access on a {_name_kind(root, env)}"
    if node.type != "method_invocation":
        return node.type.replace("_", " ")
    chain = call_chain(node)
    root = chain[0].child_by_field_name("object")
    args = [a for c in chain for a in call_args(c)]
    start = f"call on a {_name_kind(root, env)}" if root is not None else "unqualified call"
    depth = "chain" if len(chain) > 1 else "call"
    if not args:
        described = f"{start}: {depth}, no arguments"
    else:
        literal = all(a.type in LITERAL_TYPES or a.type == "unary_expression" for a in args)
        described = f"{start}: {depth}, {'literal' if literal else 'other'} arguments"
    if root is None or root.type != "identifier" or start.endswith(("static", "name")):
        return described
    name = syntax.text(root)
    if env.variable_type(name) in (None, "var"):
        return f"{described} (receiver type unknown)"
    bases = [b.name for b in TargetEnumerator(prefix.statements, env, None).variables]
    if name not in bases:
        return f"{described} (receiver not a base)"
    return f"{described} (method not enumerated, {_type_source(env.variable_type(name) or '', env)})"


def _type_source(type_text: str, env: TypeEnv) -> str:
    """Where the receiver's members would come from: the workspace, the JDK table, or neither
    (a library's class, whose members the index does not hold)."""
    if env.resolve_class(type_text) is not None:
        return "workspace type"
    return "JDK table type" if targets.jdk_type(type_text) is not None else f"other type: {type_text}"


def _name_kind(node: Node | None, env: TypeEnv) -> str:
    """``local``, ``test-class field``, ``static`` (a capitalised name) or the node's type."""
    if node is None or node.type != "identifier":
        return node.type.replace("_", " ") if node is not None else "nothing"
    name = syntax.text(node)
    if name in env.locals:
        return "local"
    if name in env.fields:
        return "test-class field"
    return "static" if name[:1].isupper() else "other name"


def classify(cut: DevTest, status: TestStatus | None, prefix: PrefixAnalysis | None) -> tuple[str, str]:
    """``(reason, detail)`` for one assertion test (see the module docstring)."""
    truth = cut.truth
    if truth is None:
        statement = _parse_statement(cut.oracle)
        call = statement_call(statement) if statement is not None else None
        return "not normalised", syntax.call_name(call_chain(call)[0]) if call is not None else "?"
    if prefix is None or status is None:
        return "prefix not analysed", ""
    if any(is_developers(t, truth) for t in target_templates(prefix.targets)):
        return "covered", ""
    if truth.method == "assertThat":
        return f"{truth.family} unmapped", matcher_name(cut.oracle)
    if truth.method not in GRAMMAR_FORMS:
        return "method outside the grammar", truth.method
    keys = {canonical_expression(truth.actual)}
    if truth.expected is not None:
        keys.add(canonical_expression(truth.expected))
    hit = next((t for t in prefix.targets if canonical_expression(t.expression) in keys), None)
    if hit is not None:
        return "kind not offered", f"{truth.method} on {hit.type or 'unknown type'}"
    for reason, caps in (("beyond MAX_TARGETS", WIDE_CAPS[:1]), ("beyond the per-base caps", WIDE_CAPS)):
        with raised_caps(caps):
            wide = analyse_prefix(status.test.node, prefix.env, status.test.class_name)
        listed = wide.targets if wide is not None else []
        found = next((i for i, t in enumerate(listed) if canonical_expression(t.expression) in keys), None)
        if found is not None:
            return reason, f"{listed[found].kind} at {found + 1} of {len(listed)}"
    return "not a target", shape(_asserted(truth), prefix)


def measure_package(task: RealisticTask) -> tuple[list[dict[str, Any]], Counter[str]]:
    """One record per chosen assertion test of a package (in a worker process)."""
    counts: Counter[str] = Counter()
    engine, by_file = chosen_cuts(task, counts)
    records: list[dict[str, Any]] = []
    for path, cuts in by_file.items():
        wanted = [c for c in cuts if c.kind == "assertion"]
        try:
            found = cut_prefixes(engine, path, cuts)
            analysed = {c.key: (status, prefix) for _, c, status, prefix, _ in found}
        except (SourceError, RecursionError, ValueError):
            analysed = {}
        for cut in wanted:
            status, prefix = analysed.get(cut.key, (None, None))
            reason, detail = classify(cut, status, prefix)
            records.append({
                "package": task.package, "file": str(path.relative_to(task.root)),
                "test": f"{cut.class_name}.{cut.name}", "oracle": cut.oracle,
                "canonical": cut.truth.text if cut.truth else None, "reason": reason, "detail": detail,
                "targets": len(prefix.targets) if prefix else None,
                "templates": len(target_templates(prefix.targets)) if prefix else None,
            })  # fmt: skip
    return records, counts


def _report(records: list[dict[str, Any]], examples: int) -> str:
    n = len(records)
    lines = [f"{n} assertion tests", ""]
    analysed = [r for r in records if r["templates"] is not None]
    if analysed:
        templates = [r["templates"] for r in analysed]
        target_counts = [r["targets"] for r in analysed]
        lines += [
            f"templates per test: mean {sum(templates) / len(templates):.1f}, max {max(templates)}; "
            f"targets per test: mean {sum(target_counts) / len(target_counts):.1f}, max {max(target_counts)}",
            "",
        ]
    reasons = Counter(r["reason"] for r in records)
    lines += ["| reason | tests | share |", "|---|---:|---:|"]
    lines += [f"| {reason} | {count} | {100 * count / n:.1f}% |" for reason, count in reasons.most_common()]
    by_reason: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        by_reason[record["reason"]].append(record)
    for reason, _ in reasons.most_common():
        if reason == "covered":
            continue
        details = Counter(r["detail"] for r in by_reason[reason])
        lines += ["", f"## {reason} ({len(by_reason[reason])})", "", "| detail | tests | examples |",
                  "|---|---:|---|"]  # fmt: skip
        for detail, count in details.most_common(25):
            shown = [r for r in by_reason[reason] if r["detail"] == detail][:examples]
            text = "<br>".join(f"`{' '.join(r['oracle'].split())[:110]}` ({r['package']})" for r in shown)
            lines.append(f"| {detail or '—'} | {count} | {text} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-tests", type=int, default=100, help="tests per package, seeded (as corpus)")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--only", nargs="*", default=None, help="dev or train packages (default: dev)")
    parser.add_argument("--examples", type=int, default=3, help="examples shown per detail")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--json", type=Path, default=None, help="one record per assertion test")
    args = parser.parse_args()
    sources = default_cache_dir() / "src"
    lists = CorpusLists.load()
    split = {**{n: "train" for n in lists.train}, **{n: "dev" for n in lists.dev}}
    names = [n for n in (args.only or lists.dev) if (sources / n).is_dir()]
    if any(n not in split for n in names):
        parser.error("only packages of the corpus lists may be measured")
    tasks = [RealisticTask(n, split[n], sources / n, args.max_tests, args.seed) for n in names]
    start = time.monotonic()
    records: list[dict[str, Any]] = []
    context = multiprocessing.get_context("spawn")
    with (
        ProcessPoolExecutor(max_workers=max(1, args.jobs), mp_context=context) as pool,
        tqdm(total=len(tasks), desc="dev packages", unit="pkg") as bar,
    ):
        futures = {pool.submit(measure_package, task): task for task in tasks}
        for future in as_completed(futures):
            records += future.result()[0]
            bar.set_postfix_str(futures[future].package, refresh=False)
            bar.update()
    records.sort(key=lambda r: (r["package"], r["file"], r["test"]))
    print(f"# Template coverage: {len(tasks)} dev packages, at most {args.max_tests} tests each "
          f"(seed {args.seed}), {time.monotonic() - start:.0f} s\n")  # fmt: skip
    print(_report(records, args.examples))
    if args.json is not None:
        args.json.write_text(json.dumps(records, indent=0) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
