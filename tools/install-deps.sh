#!/bin/sh
# Install the Debian 12 packages Flitlab needs to build, run and test.
# Idempotent: only packages that are missing are installed. Runs as root, or via sudo.
set -eu

PKGS="build-essential meson ninja-build pkg-config gettext
libsqlite3-dev libjansson-dev libigraph-dev libmetis-dev libxml2-dev
libgtk-4-dev libadwaita-1-dev libcairo2-dev libgif-dev
xvfb xauth xdotool imagemagick desktop-file-utils appstream shared-mime-info libglib2.0-bin python3 graphviz
clang-format git openmpi-bin libopenmpi-dev
fonts-noto-cjk"

missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
    || missing="$missing $p"
done

if [ -z "$missing" ]; then
  echo "install-deps: all packages present"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-deps: installing$missing"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q $missing
