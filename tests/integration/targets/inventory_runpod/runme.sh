#!/usr/bin/env bash
# The runpod.cloud.runpod inventory plugin: create a CPU pod, list it with ansible-inventory, run a play on it
# over SSH through the inventory, and always delete the pod. The connection comes from
# ../../integration_config.yml (written by make targets / make live), which ansible-test copies beside the targets.
set -eux
# ansible-test sets ANSIBLE_DEPRECATION_WARNINGS=false; a script target can undo it, so a deprecation ansible-core
# prints outside a task (the inventory parse's own) shows, and hack/integration_targets.py fails the run on it.
export ANSIBLE_DEPRECATION_WARNINGS=true

config=../../integration_config.yml
work=$(mktemp -d)
cleanup() {
  ansible-playbook playbooks/cleanup.yml -e "@$config" -e "work_dir=$work" || true
  rm -rf "$work"
}
trap cleanup EXIT

ansible-playbook playbooks/setup.yml -e "@$config" -e "work_dir=$work" "$@"

export ANSIBLE_INVENTORY_ENABLED=runpod.cloud.runpod
pod_name=$(cat "$work/pod_name")
graph=$(ansible-inventory -i "$work/runpod.yml" --graph)
echo "$graph"
# Only this run's pod (name_pattern), in the plugin's group, the keyed group and the composed group.
[ "$(grep -c -- '--[^@]' <<<"$graph")" = 3 ]
grep -q -- "--@runpod:" <<<"$graph"
grep -q -- "--@dc_" <<<"$graph"
grep -q -- "--@inventory_runpod_cpu:" <<<"$graph"
grep -q -- "--$pod_name\$" <<<"$graph"

ansible-playbook -i "$work/runpod.yml" playbooks/on_the_pod.yml -e "@$config" -e "work_dir=$work" "$@"
