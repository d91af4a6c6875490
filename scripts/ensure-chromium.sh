#!/bin/sh
# Make sure Debian's chromium is at /usr/bin/chromium for the browser test
# (tests/web/test_browser.py). `make test` runs this first.
# - already installed: nothing to do;
# - missing and we are root: apt-get install it;
# - missing and not root: say how to install it and exit non-zero.
set -eu

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
    exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "ensure-chromium: $CHROMIUM is missing; installing Debian's chromium with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y chromium
    if [ -x "$CHROMIUM" ]; then
        exit 0
    fi
    echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing" >&2
    exit 1
fi

cat >&2 <<MSG
ensure-chromium: $CHROMIUM is missing, and the browser test (tests/web/test_browser.py) needs it.
Install Debian's chromium as root:
    sudo apt-get update && sudo apt-get install -y chromium
MSG
exit 1
