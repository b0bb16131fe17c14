#!/usr/bin/env bash
# Installs whatever is missing for the oracle, idempotently, then builds it:
#   npm dependencies, Debian's browser engines, Xvfb, the pinned fonts and redis-server.
# Everything it prints goes to stderr: `npm start` runs it before the oracle, and the
# oracle's stdout is the protocol channel.
#   --quiet       say nothing when nothing is missing
#   --no-engines  skip the Debian packages (npm run test:unit needs no browser)
set -euo pipefail
cd "$(dirname "$0")/.."
quiet=false
engines=true
for arg in "$@"; do
  case "$arg" in
    --quiet) quiet=true ;;
    --no-engines) engines=false ;;
    *) echo "setup: unknown option $arg" >&2; exit 2 ;;
  esac
done
say() { $quiet || echo "setup: $*" >&2; }

# Debian packages: engine binaries, the X server WebKitGTK needs, the fonts config/fonts.conf names.
declare -A need=(
  [chromium]=/usr/bin/chromium
  [firefox-esr]=/usr/bin/firefox-esr
  [webkit2gtk-driver]=/usr/bin/WebKitWebDriver
  [xvfb]=/usr/bin/Xvfb
  [xauth]=/usr/bin/xauth
  [fonts-liberation2]=/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf
  # bin/browser-oracle brings up loopback in the oracle's own network namespace.
  [iproute2]=/sbin/ip
  # The queue of more than one machine (worker, --queue); its tests start their own instances.
  [redis-server]=/usr/bin/redis-server
)
missing=()
if $engines; then
  for pkg in "${!need[@]}"; do [[ -e "${need[$pkg]}" ]] || missing+=("$pkg"); done
fi
if ((${#missing[@]})); then
  cmd="apt-get update && apt-get install -y ${missing[*]}"
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    echo "setup: installing ${missing[*]} (Debian packages; 1–2 minutes)" >&2
    (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}") </dev/null >&2
  else
    echo "setup: missing Debian packages: ${missing[*]}" >&2
    echo "setup: run this as root, then run the command again:" >&2
    echo "  $cmd" >&2
    exit 1
  fi
elif $engines; then
  say "Debian packages present"
fi

# npm dependencies, when package-lock.json changed since the last install.
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "setup: installing npm dependencies" >&2
  npm ci --no-audit --no-fund </dev/null >&2
else
  say "npm dependencies present"
fi

# WPT's testharness.js, for the tests of `wpt-import` (test/e2e/wpt.test.ts): the copy the
# wpt-runner package ships unmodified, at exactly 7.0.0 (on Node 20 an unpinned request gets
# 5.0.0, since 7.0.0 declares Node >= 22), and only that file, checked by its sha256. Users of
# wpt-import read it from their own checkout instead.
harness=.cache/wpt-runner-7.0.0/testharness.js
harness_sha256=d2399236c2a09c429804ff2299ad6629e17e2b53f17a74dd341e936adb11ae3e
if [[ -f $harness ]] && echo "$harness_sha256  $harness" | sha256sum --check --status; then
  say "testharness.js present"
else
  echo "setup: fetching testharness.js (npm pack wpt-runner@7.0.0)" >&2
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  if (cd "$tmp" && npm pack --silent wpt-runner@7.0.0 </dev/null >/dev/null && tar -xzf wpt-runner-7.0.0.tgz package/testharness/testharness.js) &&
    echo "$harness_sha256  $tmp/package/testharness/testharness.js" | sha256sum --check --status; then
    mkdir -p "$(dirname "$harness")"
    mv "$tmp/package/testharness/testharness.js" "$harness"
  else
    # Not fatal: only the wpt-import tests need it, and they say so.
    echo "setup: warning: could not fetch testharness.js from wpt-runner@7.0.0 with the expected sha256; test/e2e/wpt.test.ts will fail" >&2
  fi
fi

# Build: tsc, then the square test font (both incremental: a no-op costs about a second).
npm run -s build >&2
say "built"
