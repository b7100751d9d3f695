"""What the model reads: one formatting of a test for training and for the editor alike.

Why one module: a model is only as good as the match between the inputs it was trained on and
the ones it later sees. Mined samples (JSON texts) and the engine's live problems (tree-sitter
nodes) are both reduced to the same three things, the prefix statements' texts, the focal
context (:func:`focal_context`) and the candidates' canonical texts
(:func:`oracular.candidates.text.candidate_text`), and formatted here by the same code.

Choices, each for a reason:
- The test's name is a setting (``test_name``, off for models up to version 3). Mining writes
  every cut test as ``testN``, but the sample keeps the developer's name, and the editor has it
  too: ``testPopThrowsOnEmpty`` is written before the oracle and says what it will check. With the
  setting on, the name's words come first, in their own segment, so that truncating a long prefix
  never drops them. Generated tests (``test0``) carry no such words and lose nothing.
- MiniLM's WordPiece vocabulary is uncased English and splits ``assertEquals`` into
  ``assert ##e ##qual ##s``. Identifiers are split into words first (``assert equals``,
  ``max value``). It is a setting, recorded with the weights, so its effect can be measured on dev.
- Truncation keeps what predicts the oracle: the END of the prefix (the statements nearest to
  the oracle; TOGA cut the end instead) and the head of the focal context, which starts with the
  signature and the exceptions, then the Javadoc with its ``@throws`` clauses first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from oracular.options import option

if TYPE_CHECKING:
    from tokenizers import Tokenizer

    from oracular.java.guard_calls import GuardVerdict
    from oracular.java.prefix import FocalMethod

_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


@dataclass(frozen=True)
class InputSettings:
    """How texts become token ids; saved with the weights because the model depends on it."""

    split_identifiers: bool = field(
        default=True, metadata=option("feed identifiers unsplit", flag="--no-split-identifiers")
    )
    max_context: int = field(default=256, metadata=option("context tokens", metavar="N"))
    """Context tokens in all: ``[CLS] prefix [SEP] focal [SEP]``."""
    max_focal: int = 96
    max_candidate: int = 32
    """Candidate tokens including the closing ``[SEP]``."""
    test_name: bool = field(
        default=False,
        metadata=option("the context starts with the test's name (models v4); a continued model takes it on"),
    )
    """The context starts with the test's name, split into words: ``[CLS] name [SEP] prefix ...``."""
    max_name: int = 16
    templates: bool = field(
        default=False,
        metadata=option(
            "candidates are templates with a value slot (data from 'oracular corpus realistic'): models v2"
        ),
    )
    """Candidates are read as templates, their expected value a slot (``assertEquals(?, s.size())``,
    :mod:`oracular.candidates.templates`): the model ranks what to assert, and each value's share of
    its template comes from the observation or the static value sources (models v2). ``False``:
    full candidates, values included (version 1)."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Encoded:
    """One test as token ids: its context once, and each candidate on its own."""

    context: list[int]
    candidates: list[list[int]]


def split_identifier(word: str) -> str:
    """``parseHTTPResponse`` -> ``parse HTTP Response``; ``MAX_VALUE`` -> ``MAX VALUE``."""
    return " ".join(part for piece in word.split("_") for part in _CAMEL.split(piece) if part)


def split_identifiers(text: str) -> str:
    """Every identifier in ``text`` split into words (literals too: harmless, often helpful)."""
    return _IDENTIFIER.sub(lambda m: split_identifier(m.group()), text)


def prefix_text(statements: Sequence[str]) -> str:
    return "\n".join(statements)


def name_text(test_name: str) -> str:
    """A test's own name, without its class (samples name tests ``Class.method``)."""
    return test_name.rsplit(".", 1)[-1]


def focal_context(focal: FocalMethod | None, guards: GuardVerdict | None = None) -> dict[str, Any] | None:
    """The unit's side of the model input: signature, Javadoc and exceptions, never the body.
    ``guards``: which of the body's opening guards the prefix trips
    (:attr:`~oracular.java.prefix.PrefixAnalysis.guard_verdict`), read by the template prior's
    exception conditions, never by the network.

    A plain dict, because mined samples store it as JSON and the editor builds it from live
    trees: both then go through :func:`focal_text` alike.
    """
    if focal is None:
        return None
    method = focal.method
    context = {
        "class": focal.cls.name,
        "method": focal.name,
        "signature": focal.signature,
        "javadoc": method.javadoc.render() if method.javadoc else "",
        "throws": list(method.throws),
        "exception_types": method.exception_types(),
    }
    if guards is not None:
        context["guards"] = guards.to_json()
    return context


def focal_text(focal: dict[str, Any] | None) -> str:
    """Signature and exceptions first, then the Javadoc with its ``@throws`` lines first."""
    if focal is None:
        return "no focal method"
    parts = [f"{focal['class']}.{focal['method']}: {focal['signature']}"]
    if focal.get("exception_types"):
        parts.append("throws " + ", ".join(focal["exception_types"]))
    lines = [line for line in (focal.get("javadoc") or "").splitlines() if line.strip()]
    parts += sorted(lines, key=lambda line: not line.startswith("@throws"))
    return "\n".join(parts)


class InputFormatter:
    """Formats and tokenises tests; the one place that knows the input layout."""

    def __init__(self, tokenizer: Tokenizer, settings: InputSettings) -> None:
        self.tokenizer = tokenizer
        self.settings = settings
        self.cls_id = self._special("[CLS]")
        self.sep_id = self._special("[SEP]")
        self.pad_id = self._special("[PAD]")

    def _special(self, token: str) -> int:
        token_id = self.tokenizer.token_to_id(token)
        if token_id is None:
            raise ValueError(f"the tokenizer has no {token} token")
        return token_id

    def _ids(self, texts: Sequence[str]) -> list[list[int]]:
        if self.settings.split_identifiers:
            texts = [split_identifiers(t) for t in texts]
        return [e.ids for e in self.tokenizer.encode_batch(list(texts), add_special_tokens=False)]

    def encode(
        self,
        statements: Sequence[str],
        focal: dict[str, Any] | None,
        candidates: Sequence[str],
        test_name: str = "",
    ) -> Encoded:
        """``[CLS] prefix-tail [SEP] focal-head [SEP]`` and ``candidate [SEP]`` for each candidate;
        with ``test_name`` set, ``[CLS] name [SEP]`` comes before the prefix."""
        s = self.settings
        named = s.test_name and bool(test_name)
        name_ids, prefix_ids, focal_ids, *candidate_ids = self._ids(
            [name_text(test_name) if named else "", prefix_text(statements), focal_text(focal), *candidates]
        )
        head = [*name_ids[: s.max_name], self.sep_id] if named else []
        focal_ids = focal_ids[: s.max_focal]
        budget = s.max_context - 3 - len(head) - len(focal_ids)
        prefix_ids = prefix_ids[-budget:] if budget > 0 else []
        context = [self.cls_id, *head, *prefix_ids, self.sep_id, *focal_ids, self.sep_id]
        return Encoded(context, [self._candidate(ids) for ids in candidate_ids])

    def _candidate(self, ids: list[int]) -> list[int]:
        """Too long (a long string literal): keep both ends, where the method and the target are."""
        room = self.settings.max_candidate - 1
        if len(ids) > room:
            ids = ids[: (room + 1) // 2] + ids[len(ids) - room // 2 :]
        return [*ids, self.sep_id]
