"""Tests for the corpus lists and the resumable source cache, using fake downloaders (no apt).

Why: fetching runs for tens of minutes against a flaky mirror, so the properties that matter
(per-package failure isolation, resumability, safe unpacking, list hygiene) must hold without it.
"""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest

from oracular.cache import default_cache_dir
from oracular.corpus import lists as lists_module
from oracular.corpus.fetch import (
    MARKER_NAME,
    AptSourceError,
    FetchReport,
    count_test_files,
    fetch_packages,
    find_orig_tarball,
)
from oracular.corpus.lists import CorpusLists, default_lists_dir, read_package_list

JAVA_TEST = b"class FooTest { @org.junit.Test public void t() { assert 1 == 1; } }\n"


def make_tarball(path: Path, members: dict[str, bytes]) -> Path:
    """Write a gzip tarball holding ``members`` (name -> content)."""
    with tarfile.open(path, "w:gz") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


class FakeDownloader:
    """Writes a prebuilt ``<pkg>_1.0.orig.tar.gz`` into the destination, recording each call."""

    def __init__(self, members: dict[str, bytes]) -> None:
        self.members = members
        self.calls: list[str] = []

    def __call__(self, name: str, dest_dir: Path) -> Path | None:
        self.calls.append(name)
        return make_tarball(dest_dir / f"{name}_1.0.orig.tar.gz", self.members)


def missing_tarball(name: str, dest_dir: Path) -> Path | None:
    return None


def broken_apt(name: str, dest_dir: Path) -> Path | None:
    raise AptSourceError("no deb-src")


@pytest.fixture
def with_tests() -> FakeDownloader:
    return FakeDownloader(
        {
            "proj-1.0/pom.xml": b"<project/>\n",
            "proj-1.0/src/main/java/Foo.java": b"class Foo {}\n",
            "proj-1.0/src/test/java/FooTest.java": JAVA_TEST,
        }
    )


def test_fetch_unpacks_strips_top_dir_and_writes_marker(tmp_path: Path, with_tests: FakeDownloader) -> None:
    report = fetch_packages(["proj"], tmp_path, downloader=with_tests, progress=False)

    assert (report.fetched, report.cached, report.failed, report.no_tests) == (1, 0, 0, 0)
    root = tmp_path / "src" / "proj"
    assert (root / "src" / "test" / "java" / "FooTest.java").read_bytes() == JAVA_TEST
    assert not (root / "proj-1.0").exists()
    marker = json.loads((root / MARKER_NAME).read_text())
    assert marker["version"] == "1.0"
    assert marker["tarball"] == "proj_1.0.orig.tar.gz"
    assert marker["test_files"] == 1
    assert marker["elapsed_s"] >= 0
    assert (tmp_path / "downloads" / "proj" / "proj_1.0.orig.tar.gz").is_file()
    assert [p.name for p in (tmp_path / "src").iterdir()] == ["proj"]  # no temp leftovers
    assert "proj\tfetched\t1.0\t1" in (tmp_path / "fetch.log").read_text()


def test_tarball_without_single_top_dir_is_unpacked_as_is(tmp_path: Path) -> None:
    flat = FakeDownloader({"pom.xml": b"<project/>\n", "src/test/java/BarTest.java": JAVA_TEST})
    fetch_packages(["flat"], tmp_path, downloader=flat, progress=False)
    assert (tmp_path / "src" / "flat" / "src" / "test" / "java" / "BarTest.java").is_file()


def test_second_run_is_cached_without_calling_downloader(tmp_path: Path, with_tests: FakeDownloader) -> None:
    fetch_packages(["proj"], tmp_path, downloader=with_tests, progress=False)
    again = FakeDownloader({})

    report = fetch_packages(["proj"], tmp_path, downloader=again, progress=False)

    assert again.calls == []
    assert (report.fetched, report.cached) == (0, 1)
    assert report.packages[0].test_files == 1


def test_downloaded_tarball_is_only_unpacked(tmp_path: Path, with_tests: FakeDownloader) -> None:
    fetch_packages(["proj"], tmp_path, downloader=with_tests, progress=False)
    (tmp_path / "src" / "proj" / MARKER_NAME).unlink()  # as if unpacking was interrupted
    again = FakeDownloader({})

    report = fetch_packages(["proj"], tmp_path, downloader=again, progress=False)

    assert again.calls == []
    assert report.fetched == 1
    assert (tmp_path / "src" / "proj" / MARKER_NAME).is_file()


def test_counts_mixed_outcomes_and_failures_do_not_stop_others(tmp_path: Path) -> None:
    good = FakeDownloader({"a-2.0/src/test/java/ATest.java": JAVA_TEST})
    empty = FakeDownloader({"b-2.0/src/main/java/B.java": b"class B {}\n"})

    def mixed(name: str, dest_dir: Path) -> Path | None:
        match name:
            case "gone":
                return missing_tarball(name, dest_dir)
            case "boom":
                return broken_apt(name, dest_dir)
            case "empty":
                return empty(name, dest_dir)
            case _:
                return good(name, dest_dir)

    names = ["boom", "good", "gone", "empty", "good", "../bad"]
    report = fetch_packages(names, tmp_path, downloader=mixed, jobs=3, progress=False)

    assert [p.package for p in report.packages] == ["boom", "good", "gone", "empty", "../bad"]
    assert (report.fetched, report.cached, report.failed, report.no_tests) == (2, 0, 3, 1)
    assert report.test_files == 1
    assert set(report.failures) == {"boom", "gone", "../bad"}
    assert "no deb-src" in report.failures["boom"]
    assert "tarball" in report.failures["gone"]
    assert not (tmp_path / "downloads" / "gone").exists()
    summary = report.summary()
    assert "2 of 5 packages" in summary and "3 failed" in summary and "empty" in summary
    document = json.loads(report.to_json())
    assert document["failed"] == 3 and len(document["packages"]) == 5
    assert len((tmp_path / "fetch.log").read_text().splitlines()) == 5


def test_tarball_with_parent_member_is_rejected(tmp_path: Path) -> None:
    evil = FakeDownloader({"proj-1.0/Ok.java": b"class Ok {}\n", "../evil": b"pwned\n"})

    report = fetch_packages(["evil"], tmp_path, downloader=evil, progress=False)

    assert report.failed == 1
    assert "UnsafeTarballError" in report.failures["evil"]
    assert not (tmp_path / "evil").exists()
    assert not (tmp_path / "src" / "evil").exists()
    assert list((tmp_path / "src").iterdir()) == []


def test_tarball_with_absolute_member_is_rejected(tmp_path: Path) -> None:
    evil = FakeDownloader({"/tmp/evil": b"pwned\n"})
    report = fetch_packages(["abs"], tmp_path, downloader=evil, progress=False)
    assert "UnsafeTarballError" in report.failures["abs"]


def test_find_orig_tarball_prefers_main_over_components(tmp_path: Path) -> None:
    for name in [
        "p_1.0.orig-docs.tar.xz",
        "p_1.0.orig.tar.xz.asc",
        "p_1.0-1.dsc",
        "p_1.0.orig.tar.xz",
    ]:
        (tmp_path / name).write_bytes(b"")
    assert find_orig_tarball(tmp_path) == tmp_path / "p_1.0.orig.tar.xz"
    (tmp_path / "p_1.0.orig.tar.xz").unlink()
    assert find_orig_tarball(tmp_path) is None


def test_count_test_files(tmp_path: Path) -> None:
    for rel in [
        "src/test/java/a/Helper.java",
        "core/src/test/java/XTest.java",
        "tests/YTests.java",
        "other/ZTestCase.java",
        "src/main/java/Main.java",
        "src/test/resources/data.txt",
        "src/testing/Util.java",
    ]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    assert count_test_files(tmp_path) == 4


def test_read_package_list_skips_comments_blanks_and_dupes(tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text("# header\ncommons-io\n\n  guava-libraries  \ncommons-io\nokio # inline\n")
    assert read_package_list(path) == ["commons-io", "guava-libraries", "okio"]


def test_read_package_list_rejects_non_names(tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text("okio\n../etc\n")
    with pytest.raises(ValueError, match=r"list\.txt:2"):
        read_package_list(path)


def test_corpus_lists_load_split_of_and_overlap(tmp_path: Path) -> None:
    (tmp_path / "train-packages.txt").write_text("a1\nb1\n")
    (tmp_path / "dev-packages.txt").write_text("c1\n")
    lists = CorpusLists.load(tmp_path)
    assert (lists.split_of("a1"), lists.split_of("c1"), lists.split_of("zz")) == (
        "train",
        "dev",
        None,
    )
    (tmp_path / "dev-packages.txt").write_text("c1\nb1\n")
    with pytest.raises(ValueError, match="b1"):
        CorpusLists.load(tmp_path)


def test_default_lists_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ORACULAR_CORPUS_LISTS", str(tmp_path / "explicit"))
    assert default_lists_dir() == tmp_path / "explicit"
    monkeypatch.delenv("ORACULAR_CORPUS_LISTS")
    # Pretend this module is installed somewhere with no shared/ above it, so only cwd counts.
    monkeypatch.setattr(lists_module, "__file__", str(tmp_path / "site" / "lists.py"))
    # And see no file outside tmp_path: a shared/corpus beside the machine's temporary folder (or
    # anywhere above it) must not decide this test.
    is_file = Path.is_file
    monkeypatch.setattr(Path, "is_file", lambda path: path.is_relative_to(tmp_path) and is_file(path))
    repo = tmp_path / "checkout" / "repo" / "sub"
    repo.mkdir(parents=True)
    monkeypatch.chdir(repo)
    with pytest.raises(FileNotFoundError, match="--list"):
        default_lists_dir()
    shared = tmp_path / "checkout" / "shared" / "corpus"
    shared.mkdir(parents=True)
    (shared / "dev-packages.txt").write_text("okio\n")
    assert default_lists_dir() == shared


def test_default_cache_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ORACULAR_CACHE", str(tmp_path / "explicit"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "explicit"
    monkeypatch.delenv("ORACULAR_CACHE")
    assert default_cache_dir() == tmp_path / "xdg" / "oracular"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "oracular"


def test_empty_report_summary() -> None:
    assert "0 of 0 packages" in FetchReport(cache_dir="/c").summary()
