"""Input formatting: identifier splitting, the context layout, and truncation that keeps what matters.

Why: the model sees only what this formatting keeps. TOGA truncated the wrong end of the prefix;
MiniLM's uncased vocabulary shreds ``assertEquals``; and a silent 128-token cap in the published
tokenizer file would cut every input without any error.
"""

from __future__ import annotations

from dataclasses import replace

from tokenizers import Tokenizer

from oracular.models.inputs import (
    InputFormatter,
    InputSettings,
    focal_text,
    split_identifier,
    split_identifiers,
)

from .conftest import STACK_CANDIDATES, STACK_FOCAL, STACK_STATEMENTS


def tokens(formatter: InputFormatter, ids: list[int]) -> list[str]:
    return [formatter.tokenizer.id_to_token(i) for i in ids]


def test_identifiers_are_split_into_words() -> None:
    assert split_identifier("assertEquals") == "assert Equals"
    assert split_identifier("parseHTTPResponse") == "parse HTTP Response"
    assert split_identifier("MAX_VALUE") == "MAX VALUE"
    assert split_identifier("value2Str") == "value2 Str"
    assert split_identifiers('assertEquals(MAX_VALUE, s.getSize()); "camelCase"') == (
        'assert Equals(MAX VALUE, s.get Size()); "camel Case"'
    )


def test_splitting_is_a_switch(tokenizer: Tokenizer) -> None:
    split = InputFormatter(tokenizer, InputSettings(split_identifiers=True))
    unsplit = InputFormatter(tokenizer, InputSettings(split_identifiers=False))
    assert tokens(split, split.encode([], None, ["assertEquals(1, x)"]).candidates[0])[:2] == [
        "assert",
        "equals",
    ]
    assert tokens(unsplit, unsplit.encode([], None, ["assertEquals(1, x)"]).candidates[0])[:4] == [
        "assert", "##e", "##qual", "##s",
    ]  # fmt: skip


def test_focal_text_puts_the_signature_and_throws_clauses_first() -> None:
    lines = focal_text(STACK_FOCAL).splitlines()
    assert lines[0] == "Stack.pop: public E pop()"
    assert lines[1] == "throws EmptyStackException"
    assert lines[2].startswith("@throws EmptyStackException")
    assert "Removes the top item." in lines[3:]
    assert focal_text(None) == "no focal method"


def test_context_and_candidate_layout(formatter: InputFormatter) -> None:
    encoded = formatter.encode(STACK_STATEMENTS, STACK_FOCAL, STACK_CANDIDATES)
    context = tokens(formatter, encoded.context)
    assert context[0] == "[CLS]" and context[-1] == "[SEP]" and context.count("[SEP]") == 2
    prefix, focal = context[1 : context.index("[SEP]")], context[context.index("[SEP]") + 1 : -1]
    assert prefix[:3] == ["stack", "<", "integer"] and prefix[-4:] == ["pop", "(", ")", ";"]
    assert focal[:3] == ["stack", ".", "pop"]
    assert len(encoded.candidates) == len(STACK_CANDIDATES)
    assert all(tokens(formatter, c)[-1] == "[SEP]" for c in encoded.candidates)


def test_the_tokenizer_files_own_128_token_cap_is_off(formatter: InputFormatter) -> None:
    long_text = " ".join(f"word{i}" for i in range(300))
    assert len(formatter.tokenizer.encode(long_text, add_special_tokens=False).ids) > 300


def test_truncation_keeps_the_end_of_the_prefix_and_the_focal_signature(formatter: InputFormatter) -> None:
    statements = [f"s.push({i});" for i in range(200)] + ["s.pop();"]
    focal = {**STACK_FOCAL, "javadoc": "word " * 500}
    encoded = formatter.encode(statements, focal, ["assertTrue(s.isEmpty())"])
    settings = formatter.settings
    context = tokens(formatter, encoded.context)
    assert len(encoded.context) == settings.max_context
    prefix = context[1 : context.index("[SEP]")]
    assert prefix[-10:] == ["(", "199", ")", ";", "s", ".", "pop", "(", ")", ";"]
    assert "0" not in prefix and "177" not in prefix  # the oldest statements went first
    focal_tokens = context[context.index("[SEP]") + 1 : -1]
    assert len(focal_tokens) == settings.max_focal
    assert focal_tokens[:9] == ["stack", ".", "pop", ":", "public", "e", "pop", "(", ")"]


def test_long_candidates_keep_both_ends(formatter: InputFormatter) -> None:
    literal = '"' + "lorem ipsum " * 40 + '"'
    candidate = f"assertEquals({literal}, s.peekLabel())"
    ids = formatter.encode([], None, [candidate]).candidates[0]
    words = tokens(formatter, ids)
    assert len(ids) == formatter.settings.max_candidate
    assert words[:4] == ["assert", "equals", "(", '"']
    assert words[-8:] == ["s", ".", "peek", "label", "(", ")", ")", "[SEP]"]


def test_short_budgets_still_fit(tokenizer: Tokenizer) -> None:
    settings = replace(InputSettings(), max_context=24, max_focal=8)
    encoded = InputFormatter(tokenizer, settings).encode(STACK_STATEMENTS, STACK_FOCAL, [])
    assert len(encoded.context) == 24 and encoded.candidates == []


def test_the_test_name_is_a_segment_of_its_own_when_the_setting_asks(tokenizer: Tokenizer) -> None:
    named = InputFormatter(tokenizer, replace(InputSettings(), test_name=True))
    encoded = named.encode(STACK_STATEMENTS, STACK_FOCAL, STACK_CANDIDATES, "StackTest.popThrowsOnEmpty")
    context = tokens(named, encoded.context)
    assert context[:6] == ["[CLS]", "pop", "throws", "on", "empty", "[SEP]"]
    assert context.count("[SEP]") == 3
    # Models up to version 3 never saw names: their inputs stay as they were trained on.
    unnamed = InputFormatter(tokenizer, InputSettings())
    assert unnamed.encode(STACK_STATEMENTS, STACK_FOCAL, [], "popThrowsOnEmpty").context == (
        unnamed.encode(STACK_STATEMENTS, STACK_FOCAL, []).context
    )
    # No name (a problem built without one): no empty segment.
    assert (
        named.encode(STACK_STATEMENTS, STACK_FOCAL, []).context
        == unnamed.encode(STACK_STATEMENTS, STACK_FOCAL, []).context
    )


def test_a_long_prefix_never_pushes_the_name_out(tokenizer: Tokenizer) -> None:
    settings = replace(InputSettings(), test_name=True, max_name=4)
    formatter = InputFormatter(tokenizer, settings)
    statements = [f"s.push({i});" for i in range(200)] + ["s.pop();"]
    encoded = formatter.encode(statements, STACK_FOCAL, [], "popOnAStackOfTwoHundredItemsKeepsTheRest")
    context = tokens(formatter, encoded.context)
    assert len(encoded.context) == settings.max_context
    assert context[:6] == ["[CLS]", "pop", "on", "a", "stack", "[SEP]"]
    assert context[context.index("[SEP]", 6) - 4 : context.index("[SEP]", 6)] == ["pop", "(", ")", ";"]
