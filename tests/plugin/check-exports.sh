#!/bin/sh
# check-exports.sh DIR... - every plugin module exports its descriptor and
# nothing else (the version script plugins/plugin.map guarantees it; this
# proves it for each built module).
set -eu
n=0
for dir in "$@"; do
    for so in "$dir"/*.so; do
        [ -e "$so" ] || continue
        syms=$(nm -D --defined-only "$so" | awk '{ print $3 }' | sort | tr '\n' ' ')
        if [ "$syms" != "joind_plugin_descriptor " ]; then
            echo "FAIL: $so exports: $syms"
            exit 1
        fi
        echo "ok: $(basename "$so") exports only joind_plugin_descriptor"
        n=$((n + 1))
    done
done
[ "$n" -gt 0 ] || { echo "FAIL: no plugin modules found in $*"; exit 1; }
echo "$n modules checked"
