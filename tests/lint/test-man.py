#!/usr/bin/env python3
"""test-man.py SOURCE_ROOT BUILD_ROOT: the manual pages lint clean and render.

Every page passes `mandoc -T lint -W warning` (Debian's mandoc) without a
message, and renders with man -l (mandoc -T utf8 when man-db is absent)
to a page with its NAME section. joind.conf(5) names exactly the keys that
the built joind's plugins declare, each with its default.
"""

import os
import re
import shutil
import subprocess
import sys


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def lint(page):
    run = subprocess.run(["mandoc", "-T", "lint", "-W", "warning", page],
                         capture_output=True, text=True)
    if run.returncode != 0 or run.stdout.strip() or run.stderr.strip():
        fail(f"mandoc -T lint {page}:\n{run.stdout}{run.stderr}")


def render(page, name):
    env = dict(os.environ, MANPAGER="cat", PAGER="cat", MANWIDTH="80", LC_ALL="C.UTF-8")
    if shutil.which("man"):
        cmd = ["man", "-l", page]
    else:
        cmd = ["mandoc", "-T", "utf8", page]
    run = subprocess.run(cmd, capture_output=True, text=True, env=env)
    text = re.sub(r".\x08", "", run.stdout)
    if run.returncode != 0 or "NAME" not in text or name not in text:
        fail(f"{' '.join(cmd)} did not render {name}:\n{run.stderr}")
    return text


def declared_keys(build):
    run = subprocess.run(
        [os.path.join(build, "core", "joind"), "--dump-config-reference", "--plugin-dir",
         os.path.join(build, "plugins"), "--config", "/dev/null"],
        capture_output=True, text=True, check=True)
    keys = {}
    for line in run.stdout.splitlines():
        plugin, group, key, _kind, default, *_ = line.split("\t")
        keys[(group, key)] = default
    if not keys:
        fail("joind --dump-config-reference listed no key")
    return keys


def page_keys(page):
    keys, group = {}, None
    with open(page, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\.Ss \[(.+)\]$", line)
            if m:
                group = m.group(1)
                continue
            m = re.match(r"\.It Cm (\S+) Ns = Ns .*\bdefault (?:Li (\S+)|empty)$", line.strip())
            if m and group:
                keys[(group, m.group(1))] = m.group(2) or ""
    return keys


def main():
    src, build = sys.argv[1], sys.argv[2]
    pages = {
        os.path.join(src, "data", "man", "joind.8"): "joind",
        os.path.join(src, "data", "joind.network.5"): "joind.network",
        os.path.join(src, "data", "joinctl.1"): "joinctl",
        os.path.join(build, "data", "man", "joind.conf.5"): "joind.conf",
    }
    for page, name in pages.items():
        lint(page)
        render(page, name)
    declared = declared_keys(build)
    documented = page_keys(os.path.join(build, "data", "man", "joind.conf.5"))
    for key in sorted(set(declared) | set(documented)):
        if key not in documented:
            fail(f"joind.conf(5) lacks [{key[0]}] {key[1]}, which a plugin declares")
        if key not in declared:
            fail(f"joind.conf(5) documents [{key[0]}] {key[1]}, which no plugin declares")
        if declared[key] != documented[key]:
            fail(f"joind.conf(5) gives [{key[0]}] {key[1]} the default "
                 f"{documented[key]!r}, the plugin {declared[key]!r}")
    print(f"{len(pages)} pages lint clean and render; joind.conf(5) has all "
          f"{len(declared)} declared keys")


if __name__ == "__main__":
    main()
