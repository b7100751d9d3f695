"""The settings schema (:mod:`oracular.lsp.settings_schema`): the committed copy the VS Code
extension is tested against is the current one, and it says what the parser does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from oracular.lsp.settings import SETTINGS, ServerSettings, parse_settings
from oracular.lsp.settings_schema import SCHEMA_FILE, dumps, main, schema, write
from oracular.quality.runner import CHECKS

CLIENT = Path(__file__).resolve().parents[2] / "vscode-client"
PROPERTIES: dict[str, dict[str, Any]] = schema()["properties"]


def test_the_committed_schema_is_current() -> None:
    committed = (CLIENT / SCHEMA_FILE).read_text(encoding="utf-8")
    assert committed == dumps(schema()), (
        f"vscode-client/{SCHEMA_FILE} is stale: run `python -m oracular.lsp.settings_schema --write "
        "vscode-client` and commit it with package.json"
    )


def test_main_prints_the_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    assert json.loads(capsys.readouterr().out) == schema()


@pytest.mark.parametrize("key", list(SETTINGS))
def test_each_default_is_what_the_server_uses(key: str) -> None:
    """The stated default, given back to the parser, changes nothing (and is accepted)."""
    assert parse_settings({key: PROPERTIES[key]["default"]}) == (ServerSettings(), [])


@pytest.mark.parametrize("key", [key for key, p in PROPERTIES.items() if "enum" in p])
def test_each_enum_is_what_the_parser_accepts(key: str) -> None:
    prop = PROPERTIES[key]
    for value in prop["enum"]:
        assert parse_settings({key: value})[1] == [], f"{key}: the server rejects {value!r}"
    assert len(prop.get("enumDescriptions", prop["enum"])) == len(prop["enum"])
    if prop["type"] == "string":  # and nothing else: the problem lists exactly the enum's values
        (problem,) = parse_settings({key: "no-such-value"})[1]
        listed = problem.partition("expected one of ")[2].partition(", got")[0]
        assert sorted(listed.split(", ")) == sorted(map(repr, prop["enum"]))


def test_the_checks_are_the_quality_checks_with_their_defaults() -> None:
    checks = PROPERTIES["checks"]
    assert list(checks["properties"]) == list(CHECKS)
    assert checks["properties"]["unused-input"]["markdownDescription"].endswith("(on by default: no).")
    assert checks["properties"]["swapped-arguments"]["markdownDescription"].endswith("(on by default: yes).")
    assert "`discarded-result` and `unused-input` start off" in checks["markdownDescription"]
    assert parse_settings({"checks": {"unused-input": True}})[0].quality.enabled("unused-input")


def test_write_replaces_the_servers_settings_and_keeps_the_clients(tmp_path: Path) -> None:
    own = {"type": "string", "default": "", "markdownDescription": "the extension's own"}
    stale = {"type": "integer", "default": 3, "markdownDescription": "an old description"}
    manifest = {"name": "x", "contributes": {"configuration": {"properties": {"oracular.python": own}}}}
    manifest["contributes"]["configuration"]["properties"]["oracular.topK"] = stale
    (tmp_path / "package.json").write_text(dumps(manifest), encoding="utf-8")
    write(tmp_path)
    written = json.loads((tmp_path / "package.json").read_text(encoding="utf-8"))
    properties = written["contributes"]["configuration"]["properties"]
    assert list(properties)[:2] == ["oracular.python", "oracular.topK"]  # in place, order kept
    assert properties == {"oracular.python": own, **{f"oracular.{k}": p for k, p in PROPERTIES.items()}}
    assert json.loads((tmp_path / SCHEMA_FILE).read_text(encoding="utf-8")) == schema()


def _lua(value: Any) -> str:
    """A default as docs/neovim.md writes it for Lua: ``unset``, ``{}`` for empty lists and maps."""
    if value is None:
        return "unset"
    if value in ([], {}):
        return "`{}`"
    return f"`{json.dumps(value)}`"


def test_the_neovim_settings_table_lists_every_setting_with_its_default_and_values() -> None:
    """docs/neovim.md is written by hand for Lua users; this keeps it in step with the schema."""
    text = (CLIENT.parent / "docs" / "neovim.md").read_text(encoding="utf-8")
    rows = {
        cells[0].strip("` "): cells[1].strip()
        for line in text.splitlines()
        if line.startswith("| `") and len(cells := line.strip("|").split("|")) >= 3
    }
    assert set(rows) == set(PROPERTIES)
    for key, spec in PROPERTIES.items():
        values = rows[key]
        assert values.startswith(_lua(spec.get("default"))), (key, values)
        for allowed in spec.get("enum", []):
            assert f"`{json.dumps(allowed)}`" in values, (key, allowed)
