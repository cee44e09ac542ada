# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The docsite: built by hack/docs/build.sh (what `make docs` runs), rendered in headless Debian chromium.

Artifacts: tests/output/ecosystem/docs-*.png (screenshots) and docs-*.html (the rendered DOM).
"""

from __future__ import annotations

import re
import shutil
import struct
import sys
import zlib
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from conftest import REPO_ROOT, clean_env, run

WIDTH, HEIGHT = 1280, 1600


@pytest.fixture(scope="session")
def docsite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the docsite once per session into a temp dir; returns the HTML root."""
    dest = tmp_path_factory.mktemp("docsite") / "site"
    result = run(
        ["bash", str(REPO_ROOT / "hack" / "docs" / "build.sh"), str(dest)],
        env=clean_env(PYTHON=sys.executable),
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    html = dest / "build" / "html"
    assert (html / "index.html").is_file()
    return html


@pytest.fixture(scope="session")
def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        pytest.fail("chromium is not installed: run `make sysdeps` (as root it apt-get installs Debian's chromium)")
    return path


def _browse(chromium: str, tmp_path: Path, url: str, *args: str) -> str:
    profile = tmp_path / f"chromium-profile-{len(list(tmp_path.glob('chromium-profile-*')))}"
    argv = [
        chromium,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        "--no-default-browser-check",
        "--hide-scrollbars",
        # Local files only: nothing may resolve a non-loopback name.
        "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost",
        f"--user-data-dir={profile}",
        f"--window-size={WIDTH},{HEIGHT}",
        *args,
        url,
    ]
    result = run(argv, env={**clean_env(), "HOME": str(tmp_path)}, timeout=120)
    assert result.returncode == 0, f"chromium failed on {url}: {result.stderr[-3000:]}"
    return result.stdout


class _Page(HTMLParser):
    """Collects the title, hrefs, headings and visible text of a rendered DOM."""

    def __init__(self) -> None:
        super().__init__()
        self.title, self.hrefs, self.text = "", [], []
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and attrs.get("href"):
            self.hrefs.append(attrs["href"])
        self._in_title = tag == "title"

    def handle_endtag(self, tag):
        self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data
        self.text.append(data)


def _parse(dom: str) -> _Page:
    page = _Page()
    page.feed(dom)
    return page


def _png_info(path: Path) -> tuple[int, int, int]:
    """(width, height, distinct byte values in the decoded scanlines): a blank page has very few."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    idat, pos = b"", 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8 : pos + 8 + length]
        pos += 12 + length
    return width, height, len(set(zlib.decompress(idat)))


def _extra_docs_guides() -> list[str]:
    extra = yaml.safe_load((REPO_ROOT / "docs" / "docsite" / "extra-docs.yml").read_text())
    return [name for section in extra["sections"] for name in section["toctree"]]


def test_every_module_and_guide_has_a_page(docsite: Path, modules_on_disk: list[str]) -> None:
    base = docsite / "collections" / "runpod" / "cloud"
    pages = sorted(p.name.removesuffix("_module.html") for p in base.glob("*_module.html"))
    assert pages == modules_on_disk
    for guide in _extra_docs_guides():
        assert (base / "docsite" / f"{guide}.html").is_file(), guide
    # Built offline: pages reference local assets only.
    index = (base / "index.html").read_text()
    assert not re.findall(r'<(?:script|link|img)[^>]+(?:src|href)="https?://', index)


def test_collection_index_renders_in_chromium(
    docsite: Path, chromium: str, modules_on_disk: list[str], output_dir: Path, tmp_path: Path
) -> None:
    index = docsite / "collections" / "runpod" / "cloud" / "index.html"
    url = index.as_uri()
    dom = _browse(chromium, tmp_path, url, "--dump-dom")
    (output_dir / "docs-collection-index.html").write_text(dom)
    page = _parse(dom)
    assert "Runpod.Cloud" in page.title or "runpod.cloud" in page.title.lower(), page.title
    text = " ".join(" ".join(page.text).split())
    # The rendered index links every module on disk, and nothing else.
    linked = sorted({m.group(1) for href in page.hrefs if (m := re.match(r"^(?:\./)?(\w+)_module\.html", href))})
    assert linked == modules_on_disk, linked
    for module in modules_on_disk:
        assert f"{module} module" in text, f"{module} not listed in the rendered index"
    for guide in _extra_docs_guides():
        assert any(href.startswith(f"docsite/{guide}.html") for href in page.hrefs), guide
    assert "Guides" in text

    shot = output_dir / "docs-collection-index.png"
    shot.unlink(missing_ok=True)
    _browse(chromium, tmp_path, url, f"--screenshot={shot}")
    width, height, distinct = _png_info(shot)
    assert (width, height) == (WIDTH, HEIGHT)
    assert distinct > 16, "the screenshot looks blank"


def test_module_page_renders_in_chromium(
    docsite: Path, chromium: str, modules_on_disk: list[str], output_dir: Path, tmp_path: Path
) -> None:
    module = "pod" if "pod" in modules_on_disk else modules_on_disk[0]
    url = (docsite / "collections" / "runpod" / "cloud" / f"{module}_module.html").as_uri()
    dom = _browse(chromium, tmp_path, url, "--dump-dom")
    (output_dir / f"docs-{module}-module.html").write_text(dom)
    text = " ".join(" ".join(_parse(dom).text).split())
    assert f"runpod.cloud.{module} module" in text
    for section in ("Parameters", "Examples", "Return Values"):
        assert section in text, f"{section} missing from the {module} page"
    assert "api_key" in text and "RUNPOD_API_KEY" in text  # the auth fragment is rendered
    assert "group/runpod.cloud.all" in text or "runpod.cloud.all" in text  # action group attribute
    shot = output_dir / f"docs-{module}-module.png"
    _browse(chromium, tmp_path, url, f"--screenshot={shot}")
    assert _png_info(shot)[2] > 16


def test_runtime_status_guide_has_the_state_diagram(docsite: Path) -> None:
    html = (docsite / "collections" / "runpod" / "cloud" / "docsite" / "guide_runtime_status.html").read_text()
    for token in (
        "running",
        "initializing",
        "stopped",
        "terminated",
        "unknown",
        "awaiting_container",
        "provisioning",
        "starting_container",
        "container_error",
        "State diagram",
    ):
        assert token in html, token
