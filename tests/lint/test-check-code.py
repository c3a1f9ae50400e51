#!/usr/bin/python3
"""test-check-code.py SOURCE_ROOT: scripts/check-code finds what it must and
nothing else. Writes a small tree of fixture files (outside any git checkout)
with a known finding or a known non-finding per rule, runs the checker there
and compares its findings with the expected (file, line, rule) set."""

import os
import re
import subprocess
import sys
import tempfile

TAB = "\t"

FIXTURES = {
    "core/api/joind.h": """\
#include "joind-device.h"
#include "../joind-private.h"
""",
    "core/api/joind-device.h": "",
    "core/joind-private.h": "",
    "plugins/eap/tls-common/tls-common.h": "",
    "plugins/wifi/wifi-private.h": "",
    # Every rule in daemon code; the line numbers below refer to this file.
    "plugins/eap/md5/md5.c": """\
#include "joind.h"
#include "../tls-common/tls-common.h"
#include "wifi-private.h"
#include <glib.h>
#include "joind-private.h"

static void
good(void)
{
	char *p = NULL;
	if (!p)
		goto out;
	g_debug("passphrase: %s", joind_secret_tag(priv->passphrase, 3));
	g_debug("len %zu mgmt %d has %d key %s", psk_len, key_mgmt, has_password, key);
	g_warning("x" /* password */ "%s", "password");
	g_error_free(e);
	/* out: frees p */
out:
	g_free(p);
}

static void
bad(void)
{
again:
	g_debug("secret %s %s", foo, priv->passphrase);
	g_info("pmk %s",
	       get_pmk(x));
	g_message("%s", private_key); /* check-code: allow secret-log -- fixture of an allow */
	/* check-code: allow secret-log */
	g_message("%s", session_key);
	g_assert(x);
	g_assert_not_reached();
	g_error("boom");
	goto again;
	goto out;
	goto done;
	goto out;
out:
	return;
done:
	return;
}

void
wifi_debug(const char *password, ...)
{
	switch (x) {
	case A:
		break;
	default:
		break;
	}
}
static const struct foo tbl[] = {
	{ 1, 2 },
};
""",
    # Tests may assert and may hold secrets; function length applies.
    "tests/unit/long.c": "static void\nlong_one(void)\n{\n" + "\tx++;\n" * 61 + "}\n"
    "static void\nok_one(void)\n{\n" + "\tx++;\n" * 60 + "}\n"
    "static void\nt(void)\n{\n\tg_assert(x);\n\tg_debug(\"%s\", password);\n}\n",
    # The client may not climb either; tests may.
    "client/joinctl-x.c": """\
#include "joinctl.h"
#include "sub/../../core/api/joind.h"
#include <../x.h>
#include "..x.h"
""",
    "tests/unit/climb.c": '#include "../wifi-handshake/hs-test-util.h"\n',
    # 801 lines in the client, a last line without its newline in a plugin,
    # exactly 800 in the core; tests may be longer.
    "client/long-file.c": "int x;\n" * 801,
    "plugins/wired/long-file.h": "int x;\n" * 800 + "int y;",
    "core/joind-800.c": "int x;\n" * 800,
    "tests/unit/long-file.c": "int x;\n" * 900,
    # The round count of hunting and pecking, however it is named; a
    # minimum (a constant of the loop) is no secret.
    "plugins/eap/pwd/pwd.c": """\
static void
f(void)
{
	g_debug("password element found in round %u", rounds);
	g_info("%u", n_rounds);
	g_debug("at least %u", EAP_PWD_MIN_ROUNDS_FLOOR);
}
""",
    # An interface's name written by hand; other "%s: " prefixes are not.
    "plugins/wifi/scan/scan.c": """\
static void
f(void)
{
	g_info("%s: scan %u", self->iface->name, id);
	g_debug("%s: port "
	        "up", ifname);
	g_info("%s: radios are taken as never blocked", error->message);
	wifi_iface_info(self->iface, "scan %u", id);
}
""",
    # Core code: aborts count, includes of private headers do not.
    "core/joind-x.c": """\
#include "joind-private.h"
static void
f(void)
{
	abort();
}
""",
}

EXPECTED = {
    ("core/api/joind.h", 2, "plugin-include"),
    ("core/api/joind.h", 2, "climbing-include"),
    ("plugins/eap/md5/md5.c", 2, "climbing-include"),
    ("plugins/eap/md5/md5.c", 3, "plugin-include"),
    ("plugins/eap/md5/md5.c", 5, "plugin-include"),
    ("plugins/eap/md5/md5.c", 26, "secret-log"),
    ("plugins/eap/md5/md5.c", 27, "secret-log"),   # a call spanning two lines
    ("plugins/eap/md5/md5.c", 31, "secret-log"),   # the allow above has no reason
    ("plugins/eap/md5/md5.c", 32, "daemon-abort"),
    ("plugins/eap/md5/md5.c", 33, "daemon-abort"),
    ("plugins/eap/md5/md5.c", 34, "daemon-abort"),
    ("plugins/eap/md5/md5.c", 35, "goto"),   # backward, not a cleanup label
    ("plugins/eap/md5/md5.c", 37, "goto"),   # goto done: not a cleanup label
    ("plugins/eap/md5/md5.c", 39, "goto"),   # label out: without a comment (once)
    ("tests/unit/long.c", 3, "function-length"),
    ("core/joind-x.c", 5, "daemon-abort"),
    ("client/joinctl-x.c", 2, "climbing-include"),
    ("client/joinctl-x.c", 3, "climbing-include"),
    ("client/long-file.c", 801, "file-length"),
    ("plugins/wired/long-file.h", 801, "file-length"),
    ("plugins/eap/pwd/pwd.c", 4, "secret-log"),
    ("plugins/eap/pwd/pwd.c", 5, "secret-log"),
    ("plugins/wifi/scan/scan.c", 4, "device-prefix"),
    ("plugins/wifi/scan/scan.c", 5, "device-prefix"),
}


def main():
    src = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    checker = os.path.join(src, "scripts", "check-code")
    with tempfile.TemporaryDirectory() as tree:
        for path, text in FIXTURES.items():
            full = os.path.join(tree, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
        # GIT_CEILING_DIRECTORIES keeps git from finding a checkout above
        # the temporary tree, so the checker takes the tree as its root.
        env = dict(os.environ, GIT_CEILING_DIRECTORIES=os.path.dirname(tree))
        run = subprocess.run([checker], cwd=tree, env=env, capture_output=True, text=True)
    found = set()
    for line in run.stdout.splitlines():
        m = re.match(r"^(\S+):(\d+): \[([\w-]+)\]", line)
        if not m:
            print(f"unparsable finding: {line}")
            return 1
        found.add((m.group(1), int(m.group(2)), m.group(3)))
    ok = True
    for miss in sorted(EXPECTED - found):
        print(f"MISSED: {miss}")
        ok = False
    for extra in sorted(found - EXPECTED):
        print(f"FALSE POSITIVE: {extra}")
        ok = False
    if run.returncode != 1:
        print(f"check-code exited {run.returncode}, expected 1 (findings)")
        ok = False
    print(f"check-code self-test: {len(found & EXPECTED)}/{len(EXPECTED)} expected findings, "
          f"{len(found - EXPECTED)} unexpected")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
