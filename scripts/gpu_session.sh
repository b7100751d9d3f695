#!/usr/bin/env bash
# One lent GPU session, as one command: full-scale training under a deadline, with the CUDA checks.
#
# Why one script: a lent GPU's minutes are counted from its start, and each start costs minutes,
# so everything that needs the GPU runs in one call, each step bounded, the training with whatever
# time is left (`oracular train --time-budget`: its learning rate decays to zero by then, so a run
# stopped by the clock is a finished run). The correctness checks run beside the training (they
# need the GPU, not its whole time); the benchmarks run after it, with the GPU to themselves, so
# their timings are the card's. Nothing here is needed without a GPU.
#
# Inputs (run from the repository root):
#   DATA      a tar.xz of a realistic datasets folder (train/ and dev/ JSONL), default .gpu/data.tar.xz
#   .whl/     wheels of the packages the GPU machine lacks (tree-sitter, pygls, ...), if any
#   .gpu/backbone   MiniLM without its word embeddings (`python3 -m oracular.training.transfer
#             backbone-pack .gpu/backbone`, 22 MB), for runs that start from it (--hold-out)
#   OUT       where the results go (default gpu-out): each run's weights as the tensors it changed
#             from models/oracles (`oracular.training.transfer`: about 23 MB while the word
#             embeddings stay frozen) in parts of 16 MB, and reports.tar.gz (logs, benchmark
#             JSON, configs). A call returns at most 8 files of 16 MiB, 64 MiB in all: two runs.
#   DEADLINE  seconds from the start by which everything must be written (default 560)
#   RESERVE   seconds of DEADLINE kept for loading the data, calibrating and saving (default 120:
#             two runs beside the checks took 28 s to load and over 48 s to calibrate on the H100)
#   CHECKS    1 (default): the CUDA checks beside the training and the benchmarks after it
#             (BENCH seconds, default 60, kept from the training; a late training eats into
#             them, never the other way round); 0: training only
#   RUNS      training runs side by side, sharing the GPU and the cores, as NAME=FLAGS separated
#             by ';' (default "model=": one run, no extra flags); e.g. "plain=;named=--test-name";
#             a network cross-fitted by project: "fold0=--hold-out 0/2;fold1=--hold-out 1/2" (each
#             from MiniLM, not the shipped model, which was trained on every fold)
#   BATCH, EPOCHS, CANDIDATES, WORKERS   the training's --batch-size (32), --epochs (10: the
#             clock ends the run first), --train-candidates (16) and --workers per run (train's
#             default)
#   DEVICE    cuda (default); cpu runs the same script on a machine without a GPU, to try it
# Put a run's weights back together with:
#   cat OUT/NAME.part.* > delta.safetensors
#   python3 -m oracular.training.transfer merge models/oracles/model.safetensors delta.safetensors NEW/model.safetensors
set -uo pipefail
OUT=${OUT:-gpu-out}
DATA=${DATA:-.gpu/data.tar.xz}
DEADLINE=${DEADLINE:-560}
REPORTS=/tmp/gpu-reports
mkdir -p "$OUT" "$REPORTS" /tmp/gpu-data
export PYTHONUNBUFFERED=1 PYTHONPATH="$PWD/server${PYTHONPATH:+:$PYTHONPATH}"
unset ORACULAR_RANKER
if compgen -G ".whl/*.whl" >/dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/site .whl/*.whl || exit 1
    export PYTHONPATH="$PYTHONPATH:/tmp/site"
fi
tar -xJf "$DATA" -C /tmp/gpu-data || exit 1
if [ -d .gpu/backbone ]; then  # MiniLM for runs that start from it (`transfer backbone-pack`)
    python3 -m oracular.training.transfer backbone-unpack .gpu/backbone models/oracles/model.safetensors \
        /tmp/backbone-site || exit 1
    export PYTHONPATH="/tmp/backbone-site:$PYTHONPATH"
fi

step() {  # step NAME SECONDS COMMAND...: bounded, its output kept in the reports
    local name=$1 limit=$2
    shift 2
    echo "== $name (at ${SECONDS}s, limit ${limit}s)"
    timeout "$limit" "$@" >"$REPORTS/$name.txt" 2>&1
    echo "   exit $? after ${SECONDS}s"
    tail -n 25 "$REPORTS/$name.txt"
}

checks() {  # correctness on the GPU: beside the training
    step gpu 30 bash -c 'nvidia-smi; python3 -c "import torch; print(torch.__version__, torch.cuda.get_device_name())"'
    step cuda-tests 150 python3 -m pytest -q -p no:cacheprovider \
        tests/models/test_shipped.py tests/models/test_ranker.py tests/lsp/test_settings.py -k "cuda or device or gpu"
    step suggest-cuda 60 bash -c 'time python3 -m oracular suggest examples/stack --no-check --top 3'
}
benchmarks() {  # timings: after the training, the GPU to themselves, in what time is left
    local left=$((DEADLINE - SECONDS - 20))
    [ "$left" -lt "$BENCH" ] && BENCH=$left
    [ "$BENCH" -lt 15 ] && return
    step model-bench-cuda $((BENCH * 2 / 3)) python3 bench/model_bench.py --device cuda --data /tmp/gpu-data \
        --repeat 100 --cross-tests 0 --json "$REPORTS/model_bench_cuda.json"
    step lsp-bench-cuda $((BENCH / 3)) python3 bench/lsp_bench.py \
        --file examples/stack/src/test/java/org/example/stack/StackTest.java \
        --opens 5 --requests 20 --edits 10 --settings '{"device": "cuda"}' --json "$REPORTS/lsp_bench_cuda.json"
}
BENCH=${BENCH:-60}
if [ "${CHECKS:-1}" = 1 ]; then
    checks >"$REPORTS/checks.log" 2>&1 &
    checks_pid=$!
else
    BENCH=0
fi

# Training: whatever is left, less the data loading, the dev calibration and the saving.
budget=$((DEADLINE - SECONDS - ${RESERVE:-120} - BENCH))
train() {  # train NAME FLAGS...: one run, its model in /tmp/gpu-NAME
    local name=$1
    shift
    local init=(--init models/oracles)  # fine-tune the shipped model, except for a cross-fitted
    case " $* " in *" --hold-out "*) init=() ;; esac  # network: the shipped one saw every fold
    timeout $((DEADLINE - SECONDS - 20)) python3 -m oracular train all --data /tmp/gpu-data "${init[@]}" \
        --out "/tmp/gpu-$name" --templates --device ${DEVICE:-cuda} --epochs ${EPOCHS:-10} --batch-size ${BATCH:-32} \
        --train-candidates ${CANDIDATES:-16} --dev-limit 1000 --time-budget "$budget" \
        --checkpoint "/tmp/gpu-$name.pt" --checkpoint-every 1000 ${WORKERS:+--workers $WORKERS} -q "$@" \
        >"$REPORTS/train-$name.txt" 2>&1
    echo "== train $name: exit $? after ${SECONDS}s"
}
IFS=';' read -ra runs <<<"${RUNS:-model=}"
train_pids=()
for run in "${runs[@]}"; do
    echo "== train ${run%%=*} (at ${SECONDS}s, budget ${budget}s, flags: ${run#*=})"
    # shellcheck disable=SC2086  # the flags are words
    train "${run%%=*}" ${run#*=} &
    train_pids+=($!)
done
wait "${train_pids[@]}"
if [ "${CHECKS:-1}" = 1 ]; then
    wait "$checks_pid"
    cat "$REPORTS/checks.log"
    benchmarks
fi
for run in "${runs[@]}"; do
    name=${run%%=*}
    tail -n 15 "$REPORTS/train-$name.txt"
    cp "/tmp/gpu-$name/train.log" "$REPORTS/$name.train.log" 2>/dev/null
    cp "/tmp/gpu-$name/config.json" "$REPORTS/$name.config.json" 2>/dev/null
    tail -n 12 "$REPORTS/$name.train.log" 2>/dev/null
    if [ -f "/tmp/gpu-$name/model.safetensors" ]; then
        python3 -m oracular.training.transfer diff models/oracles/model.safetensors \
            "/tmp/gpu-$name/model.safetensors" "/tmp/gpu-$name.delta.safetensors"
        split -b 16000000 -d "/tmp/gpu-$name.delta.safetensors" "$OUT/$name.part."
        sha256sum "/tmp/gpu-$name/model.safetensors" | tee "$REPORTS/$name.sha256"
    fi
done
tar -czf "$OUT/reports.tar.gz" -C "$REPORTS" .
ls -la "$OUT"
echo "done at ${SECONDS}s"
