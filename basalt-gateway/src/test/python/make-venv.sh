#!/usr/bin/env bash
# Creates the Python venv the happybase test runs in (called by the Maven build, generate-test-resources).
# happybase comes from PyPI once; its wheels are kept in a cache outside target/ so that a rerun, even after
# mvn clean and without network, installs from there.
#   make-venv.sh VENV_DIR
set -euo pipefail
venv="$1"
version="1.3.0"
wheels="${BASALT_PY_WHEELS:-$HOME/.cache/basalt/python-wheels}"
if [[ -x "$venv/bin/python" ]] && "$venv/bin/python" -c "import happybase" 2>/dev/null; then
  exit 0
fi
python3 -m venv "$venv"
mkdir -p "$wheels"
if ! "$venv/bin/pip" install -q --no-index --find-links "$wheels" "happybase==$version" 2>/dev/null; then
  "$venv/bin/pip" download -q -d "$wheels" "happybase==$version"
  "$venv/bin/pip" install -q --no-index --find-links "$wheels" "happybase==$version"
fi
"$venv/bin/python" -c "import happybase; print('happybase', happybase.__version__, 'in $venv')"
