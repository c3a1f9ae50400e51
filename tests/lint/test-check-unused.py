#!/usr/bin/python3
"""test-check-unused.py SOURCE_ROOT: scripts/check-unused finds the functions
nothing calls and nothing else. Compiles a small fixture tree (a core file, a
daemon main, a test program, a fuzz target and a generated file in the build
directory) with the compiler the project uses, writes the
compile_commands.json meson would, runs the checker and compares its findings
with the expected set. Then checks that a tree without findings passes and
that an object that was never built is an error, not a pass."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

SOURCES = {
    # used_elsewhere: main.c calls it. same_file_cb: only its own file takes
    # its address. test_only: only the test calls it. hook: only the test
    # calls it, and the hook list names it. unused: nothing calls it.
    "core/lib.c": """\
int used_elsewhere(void);
int same_file_cb(int x);
int (*get_cb(void))(int);
int test_only(void);
int hook(void);
int unused(void);
int used_elsewhere(void) { return 1; }
int same_file_cb(int x) { return x + 1; }
int (*get_cb(void))(int) { return same_file_cb; }
int test_only(void) { return 3; }
int hook(void) { return 4; }
int unused(void) { return 5; }
/* unused() named in a comment, or in a string, is not a use */
const char *name(void);
const char *name(void) { return "unused()"; }
""",
    "core/main.c": """\
int used_elsewhere(void);
int (*get_cb(void))(int);
const char *name(void);
int main(void) { return used_elsewhere() + get_cb()(1) + (name() != 0); }
""",
    # test_helper: used by the test itself; test_helper_unused: by nothing.
    "tests/t.c": """\
int test_only(void);
int hook(void);
int test_helper(void);
int test_helper_unused(void);
int test_helper(void) { return test_only() + hook(); }
int test_helper_unused(void) { return 6; }
int main(void) { return test_helper(); }
""",
    "tests/fuzz.c": """\
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return data == NULL || size == 0; }
""",
}
GENERATED = "int generated_unused(void);\nint generated_unused(void) { return 7; }\n"
HOOKS = """\
# fixture hook list
hook           the test observes it
used_elsewhere listed although main.c uses it
gone           listed although nothing defines it
"""
EXPECTED = {
    "core/lib.c: unused() is defined but nothing calls it",
    "core/lib.c: test_only() is called only by tests (remove it, or list it in"
    " hooks.txt if it is a test hook)",
    "tests/t.c: test_helper_unused() is defined but nothing calls it",
    "hooks.txt:3: used_elsewhere() is listed as a test hook but the product uses it",
    "hooks.txt:4: gone is listed as a test hook but no longer exists",
}
# The flags that matter: optimised, PIC and hidden, as libjoind is built, so
# that a same-file call the compiler resolves itself is covered.
CFLAGS = ["-O2", "-fPIC", "-fvisibility=hidden", "-c"]


def build_tree(root, sources):
    src, build = os.path.join(root, "src"), os.path.join(root, "src", "build")
    os.makedirs(build)
    with open(os.path.join(build, "generated.c"), "w") as f:
        f.write(GENERATED)
    db = []
    for rel, text in sources.items():
        os.makedirs(os.path.join(src, os.path.dirname(rel)), exist_ok=True)
        with open(os.path.join(src, rel), "w") as f:
            f.write(text)
        db.append({"directory": build, "file": "../" + rel, "output": rel + ".o"})
    db.append({"directory": build, "file": "generated.c", "output": "generated.c.o"})
    cc = os.environ.get("CC") or shutil.which("cc") or "gcc"
    for e in db:
        out = os.path.join(build, e["output"])
        os.makedirs(os.path.dirname(out), exist_ok=True)
        subprocess.run([cc, *CFLAGS, "-o", out, os.path.join(build, e["file"])], check=True)
    with open(os.path.join(build, "compile_commands.json"), "w") as f:
        json.dump(db, f)
    return src, build


def run(checker, src, build, hooks):
    r = subprocess.run([checker, build, src, hooks], capture_output=True, text=True)
    return r.returncode, set(r.stdout.splitlines()), r.stderr


def main(argv):
    checker = os.path.join(argv[1], "scripts", "check-unused")
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        src, build = build_tree(os.path.join(tmp, "a"), SOURCES)
        hooks = os.path.join(src, "hooks.txt")
        with open(hooks, "w") as f:
            f.write(HOOKS)
        rc, found, err = run(checker, src, build, hooks)
        if rc != 1:
            failures.append(f"exit status {rc} with findings, expected 1 ({err.strip()})")
        for line in sorted(EXPECTED - found):
            failures.append(f"missed: {line}")
        for line in sorted(found - EXPECTED):
            failures.append(f"unexpected: {line}")

        # The same tree with the dead code gone and the list fixed: clean.
        # test_helper() now has one caller in its own file, which -O2
        # inlines: no relocation is left, the source shows the call.
        clean = dict(SOURCES)
        clean["core/lib.c"] = clean["core/lib.c"].replace(
            "int unused(void) { return 5; }\n", "").replace(
            "int test_only(void) { return 3; }\n", "")
        clean["tests/t.c"] = clean["tests/t.c"].replace(
            "int test_helper_unused(void) { return 6; }\n", "").replace(
            "test_only() + ", "")
        src, build = build_tree(os.path.join(tmp, "b"), clean)
        hooks = os.path.join(src, "hooks.txt")
        with open(hooks, "w") as f:
            f.write("hook  the test observes it\n")
        rc, found, err = run(checker, src, build, hooks)
        if rc != 0 or found:
            failures.append(f"clean tree: exit status {rc}, findings {sorted(found)}")

        # An object that was never built must not pass as "no findings".
        os.unlink(os.path.join(build, "core/lib.c.o"))
        rc, found, err = run(checker, src, build, hooks)
        if rc != 2:
            failures.append(f"missing object: exit status {rc}, expected 2")

    for f in failures:
        print(f"FAIL {f}")
    print(f"test-check-unused: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
