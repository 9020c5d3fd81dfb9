#!/usr/bin/env bash
# The console suites drive Debian's chromium through its chromedriver (support.Browser). Run by the build in
# pre-integration-test (it/pom.xml) so that `mvn verify` on a new machine gets them from Debian instead of
# failing there: present, it prints their versions; missing, it installs both packages (as root, or through
# a sudo that asks no password), else it fails and says what to install. An install may also upgrade
# installed libraries the packages need newer versions of (on bookworm: systemd's, perl), as any apt install does.
#
# CHROMIUM and CHROMEDRIVER name the two files (the pom passes -Dtoolgate.chromium / -Dtoolgate.chromedriver);
# APT_GET is the installer, overridable so the missing path can be rehearsed without installing.
set -euo pipefail

CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
APT_GET="${APT_GET:-apt-get}"
# Both packages come from one source package, so the driver always matches the browser's version.
PACKAGES=(chromium chromium-driver)

present() {
    [[ -x "$CHROMIUM" && -x "$CHROMEDRIVER" ]]
}

versions() {
    # the wrapper script /usr/bin/chromium prints a harmless "[: unexpected operator" from /etc/chromium.d/dev-shm
    echo "browser: $("$CHROMIUM" --version 2>/dev/null)"
    echo "driver:  $("$CHROMEDRIVER" --version)"
}

install() {
    # Without recommends: the fonts come with fontconfig's own dependency (fonts-dejavu-core), and headless
    # chromium with --disable-gpu needs no Mesa, so screenshots still show text; it saves upower, udev,
    # printing and the rest that a headless run never uses.
    "$@" "$APT_GET" update
    "$@" env DEBIAN_FRONTEND=noninteractive "$APT_GET" install -y --no-install-recommends "${PACKAGES[@]}"
}

if present; then
    versions
    exit 0
fi

echo "chromium or chromedriver missing ($CHROMIUM, $CHROMEDRIVER): installing ${PACKAGES[*]} from Debian"
if [[ "$(id -u)" -eq 0 ]]; then
    install
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    install sudo -n
else
    echo "cannot install them: not root, and no sudo that asks no password. As root, run" >&2
    echo "    apt-get update && apt-get install -y --no-install-recommends ${PACKAGES[*]}" >&2
    echo "then the build again (or point -Dtoolgate.chromium / -Dtoolgate.chromedriver at another pair)." >&2
    exit 1
fi

if ! present; then
    echo "${PACKAGES[*]} installed, but $CHROMIUM or $CHROMEDRIVER is still missing" >&2
    exit 1
fi
versions
