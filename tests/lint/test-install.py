#!/usr/bin/env python3
"""test-install.py SOURCE_ROOT BUILD_ROOT: `meson install --destdir` puts
every file where Debian expects it, and the installed unit and policies pass
their checkers.

The places are Debian's for the configured prefix (/usr for a package:
sbin/joind, the multiarch libdir, share/man/man8, ...); the systemd unit and
the bash completion go where systemd.pc and bash-completion.pc say. Whatever
the prefix (/usr/local by default), the D-Bus policy and activation file,
the polkit actions and the unit land where this machine's dbus-daemon,
polkitd and systemd read them (their configuration, polkit's own actions,
`systemd-analyze unit-paths`), and the unit lets joind write the state
directory the daemon defaults to. The unit is checked with `systemd-analyze
verify` (which loads units and starts nothing), the D-Bus and polkit XML
with xmllint (against polkit's DTD when it is installed).
"""

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def options(build):
    out = subprocess.run(["meson", "introspect", "--buildoptions", build],
                         capture_output=True, text=True, check=True).stdout
    return {o["name"]: o["value"] for o in json.loads(out)}


def pkg_variable(package, variable, define=None):
    cmd = ["pkg-config", f"--variable={variable}", package]
    if define:
        cmd[1:1] = [f"--define-variable={define[0]}={define[1]}"]
    run = subprocess.run(cmd, capture_output=True, text=True)
    return run.stdout.strip() if run.returncode == 0 and run.stdout.strip() else None


def expected_paths(src, opts):
    prefix = opts["prefix"]

    def under(option, *parts):
        base = opts[option]
        return os.path.join(base if base.startswith("/") else os.path.join(prefix, base), *parts)

    datadir = under("datadir")
    unit_dir = opts["systemdsystemunitdir"] or pkg_variable("systemd", "systemdsystemunitdir") \
        or os.path.join(prefix, "lib", "systemd", "system")
    completion_dir = pkg_variable("bash-completion", "completionsdir", ("datadir", datadir)) \
        or os.path.join(datadir, "bash-completion", "completions")
    dbus_dir = opts["dbussystemdir"] or "/usr/share/dbus-1/system.d"
    paths = {
        "daemon": under("sbindir", "joind"),
        "client": under("bindir", "joinctl"),
        "libjoind": under("libdir", "joind", "libjoind.so.0"),
        "wifi plugin": under("libdir", "joind", "plugins", "joind-wifi.so"),
        "wired plugin": under("libdir", "joind", "plugins", "joind-ethernet-8021x.so"),
        "EAP-TLS plugin": under("libdir", "joind", "plugins", "joind-eap-tls.so"),
        "systemd unit": os.path.join(unit_dir, "joind.service"),
        "D-Bus policy": os.path.join(dbus_dir, "net.joind.conf"),
        "D-Bus activation": os.path.join(opts["dbussystemservicedir"], "net.joind.service"),
        "D-Bus interfaces": os.path.join(datadir, "dbus-1", "interfaces", "net.joind.xml"),
        "joind(8)": under("mandir", "man8", "joind.8"),
        "joind.conf(5)": under("mandir", "man5", "joind.conf.5"),
        "joind.network(5)": under("mandir", "man5", "joind.network.5"),
        "joinctl(1)": under("mandir", "man1", "joinctl.1"),
        "bash completion": os.path.join(completion_dir, "joinctl"),
        "example main.conf": os.path.join(datadir, "doc", "joind", "examples", "main.conf"),
    }
    if os.path.exists(os.path.join(src, "data", "net.joind.policy")):
        paths["polkit actions"] = os.path.join(opts["polkitactiondir"], "net.joind.policy")
    return paths


def dbus_system_dirs():
    """The system bus's policy directories (its <includedir>s) and activation
    directories (dbus-daemon(1)'s standard system service directories and
    any <servicedir>), from /usr/share/dbus-1/system.conf."""
    conf = "/usr/share/dbus-1/system.conf"
    if not os.path.exists(conf):
        fail(f"{conf} is missing: dbus-daemon is not installed (scripts/install-deps)")
    with open(conf, encoding="utf-8") as f:
        text = f.read()
    base = os.path.dirname(conf)

    def dirs(tag):
        return [os.path.join(base, d) for d in re.findall(rf"<{tag}>\s*([^<]+?)\s*</{tag}>", text)]
    services = dirs("servicedir")
    if "<standard_system_servicedirs/>" in text:
        services += [d + "/dbus-1/system-services" for d in ("/usr/local/share", "/usr/share", "/lib")]
    return dirs("includedir"), services


def check_read_by_system(paths, unit_text, daemon_help):
    """Every file a system daemon reads is where that daemon looks."""
    policy_dirs, service_dirs = dbus_system_dirs()
    polkit_own = glob.glob("/usr/share/polkit-1/actions/org.freedesktop.policykit.policy")
    if not polkit_own:
        fail("polkit's own actions are not installed (scripts/install-deps installs polkitd)")
    run = subprocess.run(["systemd-analyze", "unit-paths"], capture_output=True, text=True)
    readers = {
        "D-Bus policy": ("dbus-daemon's policy directories", policy_dirs),
        "D-Bus activation": ("dbus-daemon's system service directories", service_dirs),
        "polkit actions": ("polkitd's actions directory", [os.path.dirname(polkit_own[0])]),
        "systemd unit": ("systemd's unit paths", run.stdout.split()),
    }
    for what, (reader, dirs) in readers.items():
        if os.path.dirname(paths[what]) not in dirs:
            fail(f"{what}: {paths[what]} is not in {reader} {dirs}")
    # ProtectSystem=strict: joind writes only the unit's ReadWritePaths=,
    # which must be its StateDirectory= and the daemon's default.
    state = re.search(r"^StateDirectory=(\S+)$", unit_text, re.M)
    writable = re.search(r"^ReadWritePaths=(\S+)$", unit_text, re.M)
    default = re.search(r"--state-dir=DIR.*\(default (\S+)\)", daemon_help)
    if not (state and writable and default):
        fail("the unit's StateDirectory= or ReadWritePaths=, or joind --help's state directory, is missing")
    if not (writable.group(1) == "/var/lib/" + state.group(1) == default.group(1)):
        fail(f"joind's state directory {default.group(1)} is not the unit's StateDirectory= "
             f"{state.group(1)} and ReadWritePaths= {writable.group(1)}")


def check_xml(path, dtd=None):
    cmd = ["xmllint", "--noout", "--nonet"]
    if dtd and os.path.exists(dtd):
        cmd += ["--dtdvalid", dtd]
    run = subprocess.run(cmd + [path], capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"xmllint {path}:\n{run.stderr}")


def check_unit(root, unit, daemon):
    if shutil.which("systemd-analyze") is None:
        fail("systemd-analyze is not installed (scripts/install-deps)")
    # The unit runs what it installs: ExecStart names the daemon's real path.
    with open(unit, encoding="utf-8") as f:
        text = f.read()
    if f"ExecStart={daemon}\n" not in text:
        fail(f"{unit} does not start {daemon}")
    # verify checks that ExecStart is executable: a copy of the unit runs the
    # daemon where the destdir holds it; the units it refers to
    # (network.target, dbus.service) are the machine's.
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, os.path.basename(unit))
        with open(copy, "w", encoding="utf-8") as f:
            f.write(text.replace(f"ExecStart={daemon}\n", f"ExecStart={root}{daemon}\n"))
        run = subprocess.run(["systemd-analyze", "verify", "--man=no", copy],
                             capture_output=True, text=True)
    # What it says about other units of the machine is not this test's.
    findings = [line for line in (run.stdout + run.stderr).splitlines() if "joind" in line]
    if run.returncode != 0 or findings:
        fail(f"systemd-analyze verify {unit}:\n{run.stdout}{run.stderr}")


def main():
    src, build = sys.argv[1], sys.argv[2]
    opts = options(build)
    with tempfile.TemporaryDirectory() as root:
        run = subprocess.run(["meson", "install", "-C", build, "--destdir", root, "--no-rebuild",
                              "--quiet"], capture_output=True, text=True)
        if run.returncode != 0:
            fail(f"meson install failed:\n{run.stdout}{run.stderr}")
        paths = expected_paths(src, opts)
        for what, path in paths.items():
            if not os.path.isfile(root + path):
                near = glob.glob(root + "/**/" + os.path.basename(path), recursive=True)
                fail(f"{what}: {path} was not installed" +
                     (f" (found {[n[len(root):] for n in near]})" if near else ""))
        for what in ("daemon", "client"):
            if not os.access(root + paths[what], os.X_OK):
                fail(f"{paths[what]} is not executable")
        check_xml(root + paths["D-Bus policy"])
        check_xml(root + paths["D-Bus interfaces"])
        if "polkit actions" in paths:
            check_xml(root + paths["polkit actions"], "/usr/share/polkit-1/policyconfig-1.dtd")
        check_unit(root, root + paths["systemd unit"], paths["daemon"])
        with open(root + paths["systemd unit"], encoding="utf-8") as f:
            unit_text = f.read()
        # The build's joind: the installed one finds libjoind only at its prefix.
        daemon_help = subprocess.run([os.path.join(build, "core", "joind"), "--help"],
                                     capture_output=True, text=True).stdout
        check_read_by_system(paths, unit_text, daemon_help)
    print(f"{len(paths)} files where Debian expects them (prefix {opts['prefix']}); "
          "policies, actions and unit where dbus-daemon, polkitd and systemd read them; "
          "unit and XML verified")


if __name__ == "__main__":
    main()
