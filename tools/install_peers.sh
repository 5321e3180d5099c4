#!/usr/bin/env bash
# Install every audited peer in its own venv under ${DPBOUNDS_PEERS:-$DPBOUNDS_PEERS}/<peer> (the recipes of
# docs/peers.md).  Usage: bash tools/install_peers.sh [peer ...]   (default: all)
# PY311 / PY313 name the interpreters (opake-accounting runs on 3.13 here; dp-accelerator has a cp311 wheel only).
# A recipe is "PYTHON|PACKAGES" or "PYTHON|BUILD TOOLS|PACKAGES" (a source distribution built without isolation
# against the tools installed first: confseq, which also needs the Boost headers, apt-get install libboost-dev).
set -uo pipefail
ROOT="${DPBOUNDS_PEERS:-.peers}"
PY311="${PY311:-python3.11}"
PY313="${PY313:-python3.13}"
declare -A RECIPE=(
  [opacus]="$PY311|--no-deps opacus==1.6.0 numpy scipy"
  [tensorflow_privacy]="$PY311|--no-deps tensorflow-privacy==0.9.0 dp-accounting==0.6.0 numpy scipy absl-py attrs mpmath dm-tree"
  [jax_privacy]="$PY311|jax-privacy==2.0.0"
  [python_dp]="$PY311|python-dp==1.1.5 numpy"
  [riskcal]="$PY311|riskcal==1.5.1"
  [gdpnum]="$PY311|gdpnum==0.1.2"
  [privjail]="$PY311|privjail==0.1.2"
  [diffpriv_pure]="$PY311|diffpriv-pure==0.1.0"
  [opake]="$PY313|opake-accounting==0.16.1"
  [dp_accelerator]="$PY311|dp-accelerator==0.1.0"
  [pld_accounting]="$PY311|pld-accounting==2.0"
  [fourier_accountant]="$PY311|fourier-accountant==0.12.11"
  [dp_accounting]="$PY311|dp-accounting==0.6.0"
  [prv_accountant]="$PY311|prv-accountant==0.2.0"
  [autodp]="$PY311|autodp==0.2.3.1"
  [opendp]="$PY311|opendp==0.16.0"
  [diffprivlib]="$PY311|diffprivlib==0.6.6 scikit-learn<1.7"
  [confseq]="$PY311|pybind11 scikit-build cmake ninja setuptools numpy|--no-build-isolation confseq==0.0.11"
)
peers=("$@"); [ ${#peers[@]} -eq 0 ] && peers=("${!RECIPE[@]}")
status=0
for p in "${peers[@]}"; do
  IFS='|' read -r py args build <<<"${RECIPE[$p]}"
  pre=""
  if [ -n "$build" ]; then
    pre="$args"; args="$build"
    if [ "$p" = confseq ] && [ ! -d /usr/include/boost ]; then
      echo "$p: FAILED (the Boost headers are missing: apt-get install libboost-dev)"; status=1; continue
    fi
  fi
  # shellcheck disable=SC2086
  if "$py" -m venv "$ROOT/$p" && { [ -z "$pre" ] || "$ROOT/$p/bin/pip" install -q --disable-pip-version-check $pre; } \
      && "$ROOT/$p/bin/pip" install -q --disable-pip-version-check $args; then
    echo "$p: installed ($args)"
  else
    echo "$p: FAILED ($py; $args)"; status=1
  fi
done
exit $status
