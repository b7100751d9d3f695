#!/usr/bin/env bash
# Labelled candidates of the train projects for the learned ranker, observed (the prefixes run):
# `oracular eval --realistic` over 8 train projects at a time, each chunk's features in its own
# file, so that a stopped run resumes where it stopped (a chunk whose file exists is skipped, and
# the runs of the code are remembered in CACHE/eval-runs). Then:
#   oracular train learned-ranker --features OUT/chunk-*.jsonl --out MODEL_DIR
# usage: scripts/train_features.sh OUT [MAX_TESTS_PER_PROJECT] [extra eval options, e.g. --no-observe]
# FOLD=K/N: only the projects of fold K of N (oracular.corpus.folds), to be scored by the network
# trained without them (`oracular train all --hold-out K/N`; pass it with --model DIR): N such
# collections hold every train test scored out of sample.
set -u
out=${1:?usage: scripts/train_features.sh OUT [MAX_TESTS] [eval options...]}
max_tests=${2:-20}
shift $(( $# >= 2 ? 2 : 1 ))
here=$(cd "$(dirname "$0")/.." && pwd)
oracular=${ORACULAR:-$here/.venv/bin/oracular}
list=${TRAIN_LIST:-$here/../shared/corpus/train-packages.txt}
src=${ORACULAR_CACHE:-$HOME/.cache/oracular}/src
mkdir -p "$out"
mapfile -t projects < <(grep -v '^#' "$list" | while read -r p; do [ -n "$p" ] && [ -d "$src/$p" ] && echo "$p"; done)
if [ -n "${FOLD:-}" ]; then
  folds=("${PYTHON:-$here/.venv/bin/python}" -m oracular.corpus.folds "$FOLD")
  PYTHONPATH="$here/server" "${folds[@]}" < /dev/null || exit 2
  mapfile -t projects < <(printf '%s\n' "${projects[@]}" | PYTHONPATH="$here/server" "${folds[@]}")
fi
echo "${#projects[@]} train projects with sources in $src${FOLD:+, fold $FOLD}"
for ((i = 0; i < ${#projects[@]}; i += 8)); do
  chunk=("${projects[@]:i:8}")
  name=$(printf 'chunk-%03d' "$i")
  [ -s "$out/$name.jsonl" ] && continue
  start=$(date +%s)
  if "$oracular" eval --realistic "${chunk[@]}" --max-tests "$max_tests" --one-cut "$@" \
      --features "$out/$name.jsonl.tmp" --json "$out/$name.json" -o /dev/null -q > "$out/$name.log" 2>&1; then
    mv "$out/$name.jsonl.tmp" "$out/$name.jsonl"
  fi
  echo "$name: $(( $(date +%s) - start )) s, ${chunk[*]}" | tee -a "$out/times.txt"
done
