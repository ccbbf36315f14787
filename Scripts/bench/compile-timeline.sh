#!/usr/bin/env bash
# When each compiler job of a clean debug build runs: a timeline of the build's critical path.
#
#   Scripts/bench/compile-timeline.sh PACKAGE_DIR [swift build arguments...]
#
# Builds PACKAGE_DIR from clean (its .build removed) with every swift-frontend job started
# through a wrapper that notes its start, end, module and kind (the driver honours
# SWIFT_DRIVER_SWIFT_FRONTEND_EXEC), then prints one line per job that ran for 0.15 s or more
# (seconds from the first job) and one per module: when its first job started, when its last
# ended, and the seconds its jobs ran, summed. Jobs that wait for a core count as running, so
# the sums are an upper bound on CPU. Not a test: it never fails because of a time.
set -euo pipefail
package=$(cd "$1" && pwd); shift
work=$(mktemp -d "${TMPDIR:-/tmp}/cachegen-timeline.XXXXXX")
trap 'rm -rf "$work"' EXIT
frontend=$(dirname "$(readlink -f "$(command -v swiftc)")")/swift-frontend

cat >"$work/swift-frontend" <<SH
#!/usr/bin/env bash
start=\$(date +%s.%N)
"$frontend" "\$@"
status=\$?
module=- kind=frontend primaries=()
while [ \$# -gt 0 ]; do
  case \$1 in
    -module-name) module=\$2; shift;;
    -primary-file) primaries+=("\$(basename "\$2")"); shift;;
    -emit-module) [ "\$kind" = frontend ] && kind=emit-module;;
    -c) kind=compile;;
    -modulewrap) kind=modulewrap;;
    -emit-pcm) kind=pcm;;
  esac
  shift
done
echo "\$start \$(date +%s.%N) \$module \$kind \${primaries[*]:-}" >>"$work/jobs.txt"
exit \$status
SH
chmod +x "$work/swift-frontend"

rm -rf "$package/.build"
start=$(date +%s.%N)
SWIFT_DRIVER_SWIFT_FRONTEND_EXEC="$work/swift-frontend" swift build --package-path "$package" "$@" >"$work/build.log" 2>&1 \
  || { cat "$work/build.log" >&2; exit 1; }
end=$(date +%s.%N)

python3 - "$work/jobs.txt" "$start" "$end" <<'PY'
import sys
from collections import OrderedDict
path, build_start, build_end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
jobs = []
for line in open(path):
    start, end, module, kind, *primaries = line.split()
    jobs.append((float(start) - build_start, float(end) - build_start, module, kind, primaries))
jobs.sort()
print(f"clean build: {build_end - build_start:.1f} s (seconds below count from `swift build`'s start)")
print(f"{'start':>6} {'end':>6} {'secs':>5}  {'module':24} {'kind':12} first files")
for start, end, module, kind, primaries in jobs:
    if end - start >= 0.15 and kind != "modulewrap":
        print(f"{start:6.1f} {end:6.1f} {end - start:5.1f}  {module:24} {kind:12} {' '.join(primaries[:3])}")
modules = OrderedDict()
for start, end, module, kind, _ in jobs:
    if module == "-":
        continue
    first, last, total = modules.get(module, (start, end, 0.0))
    modules[module] = (min(first, start), max(last, end), total + end - start)
print()
print(f"{'module':24} {'first':>6} {'last':>6} {'job seconds':>12}")
for module, (first, last, total) in sorted(modules.items(), key=lambda item: item[1][0]):
    print(f"{module:24} {first:6.1f} {last:6.1f} {total:12.1f}")
PY
