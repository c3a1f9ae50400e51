#!/usr/bin/env python3
"""test-debian.py SOURCE_ROOT BUILD_ROOT VERSION: debian/ keeps up with the
tree without building a package.

- debian/changelog's newest version is the project's (meson.build);
- every file `meson install` puts down is claimed by a debian/*.install
  line or debian/not-installed (dh_missing fails the package build on an
  unclaimed one), and every such line matches an installed file (dh_install
  fails on one that matches nothing);
- every Build-Depends package is one scripts/install-deps installs.
"""

import fnmatch
import json
import os
import re
import subprocess
import sys
import tempfile

# Put down by debian/rules itself, not by meson install.
RULES_MADE = {"etc/joind/main.conf"}


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def patterns(debian):
    """{pattern: file} of the .install files and not-installed."""
    found = {}
    for name in sorted(os.listdir(debian)):
        if name.endswith(".install") or name == "not-installed":
            with open(os.path.join(debian, name), encoding="utf-8") as f:
                for line in f:
                    line = line.split("#", 1)[0].strip()
                    if line:
                        found[line.split()[0]] = name
    return found


def claims(pattern, rel):
    if pattern.endswith("/"):
        return fnmatch.fnmatch(rel, pattern + "*")
    return fnmatch.fnmatch(rel, pattern) or fnmatch.fnmatch(rel, pattern + "/*")


def installed(build):
    """Installed files, relative to / as a package with prefix /usr has them."""
    out = subprocess.run(["meson", "introspect", "--buildoptions", build],
                         capture_output=True, text=True, check=True).stdout
    prefix = {o["name"]: o["value"] for o in json.loads(out)}["prefix"].rstrip("/")
    files = set()
    with tempfile.TemporaryDirectory() as root:
        run = subprocess.run(["meson", "install", "-C", build, "--destdir", root, "--no-rebuild",
                              "--quiet"], capture_output=True, text=True)
        if run.returncode != 0:
            fail(f"meson install failed:\n{run.stdout}{run.stderr}")
        for top, _, names in os.walk(root):
            for name in names:
                path = os.path.join(top, name)[len(root):]
                if path.startswith(prefix + "/"):
                    path = "/usr" + path[len(prefix):]
                files.add(path.lstrip("/"))
    return files


def build_depends(debian):
    with open(os.path.join(debian, "control"), encoding="utf-8") as f:
        text = f.read()
    field = re.search(r"^Build-Depends:(.*?)^\S", text, re.S | re.M)
    if not field:
        fail("debian/control has no Build-Depends")
    names = []
    for item in field.group(1).split(","):
        item = item.strip()
        if item:
            names.append(re.split(r"[\s(<\[]", item, maxsplit=1)[0])
    return names


def main():
    src, build, version = sys.argv[1:4]
    debian = os.path.join(src, "debian")
    with open(os.path.join(debian, "changelog"), encoding="utf-8") as f:
        head = f.readline()
    got = re.match(r"^joind \(([^)]+)\)", head)
    if not got or got.group(1).split("-")[0] != version:
        fail(f"debian/changelog's newest entry is not {version}: {head.strip()}")

    pats = patterns(debian)
    files = installed(build)
    unclaimed = sorted(f for f in files if not any(claims(p, f) for p in pats))
    if unclaimed:
        fail("installed but in no debian/*.install or debian/not-installed: " +
             ", ".join(unclaimed))
    for pat, where in pats.items():
        if pat not in RULES_MADE and not any(claims(pat, f) for f in files):
            fail(f"debian/{where}: {pat} matches no installed file")

    deps = subprocess.run([os.path.join(src, "scripts", "install-deps"), "--print"],
                          capture_output=True, text=True, check=True).stdout.split()
    missing = [d for d in build_depends(debian) if d not in deps and d != "debhelper-compat"]
    if missing:
        fail("Build-Depends that scripts/install-deps does not install: " + ", ".join(missing))
    print(f"debian/: version {version}; {len(files)} installed files claimed by "
          f"{len(pats)} lines; Build-Depends all in scripts/install-deps")


if __name__ == "__main__":
    main()
