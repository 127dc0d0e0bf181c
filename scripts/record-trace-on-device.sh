#!/bin/sh
# Records, on a machine with a pip PyTorch (2.x), what the op-coverage test models dispatch under
# that release and what `mpsready smoke` makes of them, into OUT: the trace of each model
# (mpsready-trace-ops), smoke records on CUDA and the CPU, and the native_functions.yaml entries the
# tests look at. Usage: record-trace-on-device.sh SRC OUT
set -eu
src=$1; out=$2; build=/tmp/mpsready-rt
cmake -S "$src" -B $build -DMPSREADY_RUNTIME_ONLY=ON -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')" >$out/build.log 2>&1
cmake --build $build -j16 --target mpsready mpsready-trace-ops >>$out/build.log 2>&1
m=/tmp/models; mkdir -p $m
# TorchScript compiles from source: the model script must be a file, not standard input.
cat >$m/make_models.py <<'PY'
import sys, torch
m = sys.argv[1]
class SvdKthHistc(torch.nn.Module):
    def forward(self, x):
        u, s, vh = torch.linalg.svd(x)
        values, indices = torch.kthvalue(x, 2)
        return s, values, torch.histc(x, 4)
torch.jit.script(SvdKthHistc()).save(f"{m}/svd.pt")
torch.manual_seed(0)
cnn = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                          torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(4, 10)).eval()
torch.jit.trace(cnn, torch.randn(2, 3, 8, 8)).save(f"{m}/cnn.pt")
PY
python3 $m/make_models.py $m
python3 "$src/tests/ops/trace_transformer.py" $m/transformer.pt eval
t=$build/mpsready-trace-ops
$t $m/svd.pt 4x4:float32 >$out/trace-svd.tsv
$t $m/cnn.pt 2x3x8x8:float32 >$out/trace-cnn.tsv
$t $m/transformer.pt 2x5x32:float32 >$out/trace-transformer.tsv
for spec in svd:4x4:float32 cnn:2x3x8x8:float32 transformer:2x5x32:float32; do
  name=${spec%%:*}; input=${spec#*:}
  for d in cuda cpu; do
    $build/mpsready smoke $m/$name.pt --input $input --device $d --format json --no-fresh-process \
      --out-dir /tmp/smoke-$name-$d -o $out/smoke-$name-$d.json >>$out/build.log 2>&1 || echo "smoke $name $d: exit $?" >>$out/build.log
  done
done
python3 - "$out/native_functions-2.x-excerpt.yaml" <<'PY'
import os, sys, torch, torchgen
path = os.path.join(os.path.dirname(torchgen.__file__), "packaged/ATen/native/native_functions.yaml")
keep = {"linalg_svd", "linalg_svd.U", "_linalg_svd", "_linalg_svd.U", "kthvalue", "kthvalue.values", "histc", "histc.out"}
text = open(path).read().split("\n- func: ")
with open(sys.argv[1], "w") as f:
    f.write(f"# Entries of PyTorch {torch.__version__} ({torch.version.git_version}) native_functions.yaml\n")
    for entry in text[1:]:
        if entry.split("(", 1)[0] in keep:
            f.write("- func: " + entry.rstrip() + "\n\n")
PY
