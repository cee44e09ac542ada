# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The build wait (``wait_for: build``, docs/dev/wait-and-status.md section 5.1): the newest GitHub build of an
endpoint ends, and a worker serves the release it produced (a held ``EndpointPoller``'s rule).
"""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._engine.endpoint_poller import (
    ENDPOINT_WAIT_FOR,
    EndpointPoller,
)
from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import PollError
from ansible_collections.runpod.cloud.plugins.module_utils._engine.poll import Poller, PollResult, counted_read
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import BUILD_FAILED, BUILD_LIVE

ENDPOINT_WAITS = (*ENDPOINT_WAIT_FOR, "build")  # the endpoint module's wait_for choices
BUILD_FAILED_CODE = "build_failed"


def build_line(build):
    """``build <id> <STATUS> (commit <hash> on <branch>)``: how the wait names a build."""
    where = " on ".join(part for part in (f"commit {build.commit}" if build.commit else None, build.branch) if part)
    return f"build {build.id} {build.status}" + (f" ({where})" if where else "")


class BuildPoller(Poller):
    """The newest build, then its release on the workers (docs/dev/wait-and-status.md, section 5.1)."""

    def __init__(self, backend, endpoint_id):
        self.endpoint = EndpointPoller(backend, endpoint_id, wait_for="ready")
        self.backend = backend
        self.endpoint_id = endpoint_id
        self.last_build = None  # the newest build as the last read saw it (the result's ``build``)
        self.release_version = None  # the version of the release the completed build produced
        self._release_of = None  # the build id ``release_version`` belongs to

    def lost(self):
        return self.endpoint.lost()

    def poll(self):
        # Under the endpoint's miss rules (section 3): an endpoint deleted during the wait ends it as not_found.
        missed, builds = counted_read(
            self.endpoint.misses, lambda: self.backend.endpoints.builds(self.endpoint_id, latest=1, attempts=1))
        if missed is not None:
            return missed
        if not builds:
            return PollResult(False, f"endpoint {self.endpoint_id} has no build yet")
        build = self.last_build = builds[0]
        if build.status in BUILD_LIVE:
            return PollResult(False, build_line(build))
        if build.status in BUILD_FAILED:
            raise PollError(BUILD_FAILED_CODE, f"{build_line(build)}: {build.error or 'RunPod gave no error'}",
                            fatal=True)
        if build.status != "COMPLETED":
            return PollResult(False, f"{build_line(build)} (a state this collection does not know)")
        if self._release_of != build.id:
            self.release_version = self.backend.endpoints.build_release(self.endpoint_id, build.id, attempts=1)
            self._release_of = build.id if self.release_version is not None else None
        if self.release_version is None:
            return PollResult(False, f"{build_line(build)}; its release is not listed yet")
        polled = self.endpoint.poll()
        current = self.endpoint.last_version
        detail = f"{build_line(build)}, release v{self.release_version}; {polled.detail}"
        if polled.ready and current is not None and current >= self.release_version:
            return PollResult(True, detail, value=polled.value)
        if polled.ready:
            detail += f"; the workers are on v{current}, not yet on the build's release"
        return PollResult(False, detail, imminent=polled.imminent)
