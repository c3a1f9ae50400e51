#!/usr/bin/env python3
"""joind-conf.py: write joind.conf(5) from the keys joind's plugins declare.

Usage: joind-conf.py DUMP MAIN_CONF TEMPLATE OUTPUT

DUMP is the output of `joind --dump-config-reference` (one key a line:
plugin, group, key, type, default, min, max, choices, tab-separated).
MAIN_CONF is the example main.conf: each key's description is the comment
block above its `#Key=default` line there (a key right below another one
shares that one's description). The example must describe exactly the
declared keys, with their defaults, or this fails: neither the page nor the
example can drift from the code.
"""

import re
import sys

KEY_LINE = re.compile(r"^#([A-Za-z0-9]+)=(.*)$")
GROUP_LINE = re.compile(r"^\[([^\]]+)\]$")


def read_dump(path):
    keys = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 8:
                sys.exit(f"{path}: not a --dump-config-reference line: {line!r}")
            plugin, group, key, kind, default, lo, hi, choices = fields
            keys.append({"plugin": plugin, "group": group, "key": key, "type": kind,
                         "default": default, "min": lo, "max": hi,
                         "choices": [c for c in choices.split(",") if c]})
    return keys


def read_example(path):
    """(group, key) -> (default, description lines), in file order."""
    described = {}
    group, comment, last = None, [], None
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.strip()
            m = GROUP_LINE.match(line)
            if m:
                group, comment, last = m.group(1), [], None
                continue
            m = KEY_LINE.match(line)
            if m and group is not None:
                text = comment if comment else (described[last][1] if last else [])
                if not text:
                    sys.exit(f"{path}:{n}: [{group}] {m.group(1)} has no description above it")
                last = (group, m.group(1))
                described[last] = (m.group(2), text, bool(comment))
                comment = []
            elif line.startswith("#") and group is not None:
                comment.append(line.lstrip("#").strip())
            elif not line:
                comment = []
    return described


def roff_text(lines):
    """Sentences one a line (mdoc's rule), escaped."""
    text = " ".join(lines).replace("\\", "\\e")
    out = []
    for sentence in re.split(r"(?<=[.;:])\s+(?=[A-Z(])", text):
        if sentence.startswith((".", "'")):
            sentence = "\\&" + sentence
        out.append(sentence)
    return out


def item_line(k):
    name = f".It Cm {k['key']} Ns = Ns"
    default = f"default Li {k['default']}" if k["default"] != "" else "default empty"
    if k["type"] == "bool":
        return f"{name} Cm true | false Pq {default}"
    if k["type"] == "int":
        return f"{name} Ar number Pq {k['min']} to {k['max']}, {default}"
    if k["type"] == "list":
        return f"{name} Ar word , Ns Ar ... Pq {default}"
    if k["choices"]:
        return f"{name} Ar value Pq one of Li {' , '.join(k['choices'])} ; {default}"
    return f"{name} Ar text Pq {default}"


def render(keys, described):
    # In the example's order, which groups related keys as a reader expects.
    out = []
    order = list(described)
    keys = sorted(keys, key=lambda k: order.index((k["group"], k["key"])))
    groups = []
    for k in keys:
        if k["group"] not in groups:
            groups.append(k["group"])
    for group in groups:
        members = [k for k in keys if k["group"] == group]
        plugins = sorted({k["plugin"] for k in members})
        out += [f".Ss [{group}]", "Read by the " + " and ".join(
            f"\\fB{p}\\fP" for p in plugins) + (" plugins." if len(plugins) > 1 else " plugin."),
                ".Bl -tag -width Ds"]
        for i, k in enumerate(members):
            out.append(item_line(k))
            _, text, own = described[(group, k["key"])]
            nxt = members[i + 1] if i + 1 < len(members) else None
            # Keys that share a description are listed together above it.
            if nxt is not None and not described[(group, nxt["key"])][2]:
                continue
            out += roff_text(text)
        out.append(".El")
    return out


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    dump, example, template, output = sys.argv[1:]
    keys = read_dump(dump)
    described = read_example(example)
    declared = {(k["group"], k["key"]): k for k in keys}
    problems = [f"{example}: [{g}] {k} is declared by no plugin"
                for (g, k) in described if (g, k) not in declared]
    for (g, k), key in declared.items():
        if (g, k) not in described:
            problems.append(f"{example}: [{g}] {k} (plugin {key['plugin']}) is not described")
        elif described[(g, k)][0] != key["default"]:
            problems.append(f"{example}: [{g}] {k}={described[(g, k)][0]} but the default "
                            f"is {key['default']!r}")
    if not keys:
        problems.append(f"{dump}: no plugin declared a key (were the plugins found?)")
    if problems:
        sys.exit("\n".join(problems))
    with open(template, encoding="utf-8") as f:
        page = f.read()
    with open(output, "w", encoding="utf-8") as f:
        f.write(page.replace("@KEYS@\n", "\n".join(render(keys, described)) + "\n"))


if __name__ == "__main__":
    main()
