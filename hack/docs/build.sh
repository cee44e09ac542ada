#!/usr/bin/env bash
# Build the runpod.cloud docsite (antsibull-docs + Sphinx) without network access.
#
#   hack/docs/build.sh [DEST]        default DEST: docs/build; the HTML lands in DEST/build/html
#
# The collection is read through ANSIBLE_COLLECTIONS_PATH; DOCS_COLLECTIONS_PATH overrides the
# default (the symlink tree printed by tests/collections_path.py, i.e. this checkout).
set -euo pipefail

repo=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd)
dest=${1:-$repo/docs/build}
python=${PYTHON:-python3}
ANSIBLE_COLLECTIONS_PATH=${DOCS_COLLECTIONS_PATH:-$("$python" "$repo/tests/collections_path.py")}
export ANSIBLE_COLLECTIONS_PATH

# antsibull-docs wants a destination owned by us and writable only by us.
rm -rf -- "$dest"
mkdir -p -- "$(dirname -- "$dest")"
mkdir -m 700 -- "$dest"

antsibull-docs sphinx-init --use-current --fail-on-error --dest-dir "$dest" \
  --project "runpod.cloud" --copyright "runpod.cloud contributors" \
  --title "runpod.cloud Ansible collection" --html-short-title "runpod.cloud" \
  runpod.cloud

# The generated conf.py maps intersphinx to docs.python.org and docs.ansible.com; Sphinx would
# download their inventories. Builds here are offline: use a local inventory of the Ansible labels
# the generated pages link to (hack/docs/ansible_inventory.py), with their real URLs.
"$python" "$repo/hack/docs/ansible_inventory.py" "$dest/ansible_devel.inv"
cat >> "$dest/conf.py" <<'CONF'

# Added by hack/docs/build.sh: offline build, local intersphinx inventory only.
import os.path as _path
intersphinx_mapping = {
    'ansible_devel': (
        'https://docs.ansible.com/projects/ansible/devel/',
        _path.join(_path.dirname(_path.abspath(__file__)), 'ansible_devel.inv'),
    ),
}
CONF

"$dest/build.sh"
echo "docs: $dest/build/html/index.html"
