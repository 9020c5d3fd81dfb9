#!/usr/bin/env bash
# Debian packages a suite runs, made present before the suites (it/pom.xml, pre-integration-test), so that
# `mvn verify` on a new machine gets them from Debian instead of failing there: the console suites' chromium and
# chromium-driver (support.Browser), the pooler suite's pgbouncer (support.PgBouncer). Present, it prints their
# versions; missing, it installs them (as root, or through a sudo that asks no password), else it fails and says
# what to install. An install may also upgrade installed libraries the packages need newer versions of (on
# bookworm: systemd's, perl), as any apt install does.
#
# Usage: ensure-packages.sh FILE... -- PACKAGE...   (the files the suites run; the packages that bring them)
# APT_GET is the installer, overridable so the missing path can be rehearsed without installing.
set -euo pipefail

FILES=()
while [[ $# -gt 0 && "$1" != "--" ]]; do FILES+=("$1"); shift; done
[[ $# -gt 0 ]] && shift
PACKAGES=("$@")
APT_GET="${APT_GET:-apt-get}"
if [[ ${#FILES[@]} -eq 0 || ${#PACKAGES[@]} -eq 0 ]]; then
    echo "usage: ensure-packages.sh FILE... -- PACKAGE..." >&2
    exit 2
fi

present() {
    for file in "${FILES[@]}"; do
        [[ -x "$file" ]] || return 1
    done
}

versions() {
    dpkg-query -W -f='${Package} ${Version}\n' "${PACKAGES[@]}" 2>/dev/null || echo "present: ${FILES[*]}"
}

install() {
    # Without recommends: headless chromium with --disable-gpu needs no Mesa (its fonts come with fontconfig's
    # own dependency), and pgbouncer needs none of its; it saves upower, udev, printing and the rest.
    "$@" "$APT_GET" update
    "$@" env DEBIAN_FRONTEND=noninteractive "$APT_GET" install -y --no-install-recommends "${PACKAGES[@]}"
}

if present; then
    versions
    exit 0
fi

echo "missing: ${FILES[*]}; installing ${PACKAGES[*]} from Debian"
if [[ "$(id -u)" -eq 0 ]]; then
    install
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    install sudo -n
else
    echo "cannot install them: not root, and no sudo that asks no password. As root, run" >&2
    echo "    apt-get update && apt-get install -y --no-install-recommends ${PACKAGES[*]}" >&2
    echo "then the build again." >&2
    exit 1
fi

if ! present; then
    echo "${PACKAGES[*]} installed, but one of ${FILES[*]} is still missing" >&2
    exit 1
fi
versions
