"""Folds of the train projects for a cross-fitted network: a project's fold is its name's."""

from __future__ import annotations

import pytest

from oracular.corpus.folds import fold_of, held_out, main, parse_fold


def test_a_projects_fold_is_stable_and_every_fold_is_dealt_some() -> None:
    names = [f"lib{i}-java" for i in range(300)]
    folds = [fold_of(name, 5) for name in names]
    assert folds == [fold_of(name, 5) for name in reversed(names)][::-1]  # not by order
    assert fold_of("commons-csv", 5) == fold_of("commons-csv", 5)
    assert all(40 <= folds.count(k) <= 80 for k in range(5))  # roughly even
    assert [held_out(name, parse_fold("2/5")) for name in names] == [f == 2 for f in folds]
    assert not any(held_out(name, None) for name in names)


@pytest.mark.parametrize("text", ["2", "a/b", "5/5", "-1/3", "0/1", "1/2/3"])
def test_a_fold_that_is_not_k_of_n_is_a_clear_error(text: str) -> None:
    with pytest.raises(ValueError, match="fold") as raised:
        parse_fold(text)
    assert "\n" not in str(raised.value)


def test_fold_k_of_n_reads_back() -> None:
    assert parse_fold("0/2") == (0, 2) and parse_fold("4/5") == (4, 5)


def test_a_folds_names_are_listed_for_its_collection(monkeypatch, capsys) -> None:
    """``python -m oracular.corpus.folds K/N < names``, as ``scripts/train_features.sh`` asks it
    (``FOLD=K/N``); a bad fold or none, one line and status 2."""
    import io

    names = [f"lib{i}-java" for i in range(20)]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(names) + "\n"))
    assert main(["1/3"]) == 0
    assert capsys.readouterr().out.split() == [n for n in names if fold_of(n, 3) == 1]
    for args, says in ((["3/3"], "fold 3/3"), ([], "usage"), (["0/2", "1/2"], "usage")):
        assert main(args) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and says in err and err.count("\n") == 1
