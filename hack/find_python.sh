#!/usr/bin/env bash
# Print the first Python interpreter of the given minor versions (in order of preference) that runs and has venv
# and ensurepip: pythonX.Y on PATH first, then the newest X.Y.* that pyenv has installed, then /usr/bin/pythonX.Y.
# Exit 1 with nothing printed when there is none. Usage: hack/find_python.sh 3.13 3.12
set -u
works() {
  "$1" -c "import sys, venv, ensurepip; sys.exit(sys.version_info[:2] != tuple(map(int, '$2'.split('.'))))" \
    >/dev/null 2>&1
}
pyenv_root=$(pyenv root 2>/dev/null || echo "${PYENV_ROOT:-$HOME/.pyenv}")
for version in "$@"; do
  candidates=("python$version")
  # pyenv's shims on PATH answer only for the versions pyenv has selected, so look at its installs directly.
  if [ -d "$pyenv_root/versions" ]; then
    while IFS= read -r dir; do
      candidates+=("$dir/bin/python$version")
    done < <(find "$pyenv_root/versions" -mindepth 1 -maxdepth 1 -name "$version.*" 2>/dev/null | sort -rV)
  fi
  candidates+=("/usr/bin/python$version")
  for candidate in "${candidates[@]}"; do
    if works "$candidate" "$version"; then
      command -v "$candidate"
      exit 0
    fi
  done
done
exit 1
