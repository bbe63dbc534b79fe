#!/bin/sh
# Install the Debian 12 packages Flitlab needs to build, run and test.
# Idempotent: only packages that are missing are installed. Runs as root, or via sudo.
#
#   tools/install-deps.sh           what building, running and testing need
#   tools/install-deps.sh --fuzz    that, and clang with libFuzzer for
#                                   `tools/flitlab-dev fuzz`
#   tools/install-deps.sh --bench   that, and flex and bison, with which
#                                   bench/booksim-speed.py builds BookSim 2
#   (--fuzz and --bench together install both)
set -eu

PKGS="build-essential meson ninja-build pkg-config gettext
libsqlite3-dev libjansson-dev libigraph-dev libmetis-dev libxml2-dev
libgtk-4-dev libadwaita-1-dev libcairo2-dev libgif-dev
xvfb xauth xdotool imagemagick desktop-file-utils appstream shared-mime-info libglib2.0-bin python3 graphviz
clang-format git openmpi-bin libopenmpi-dev
yelp-tools yelp locales
fonts-noto-cjk python3-dogtail dbus-x11 at-spi2-core"

# libFuzzer and the sanitizers' runtimes come with clang's compiler-rt.
FUZZ_PKGS="clang libclang-rt-dev"
# BookSim's Makefile runs flex and bison; g++ and make are build-essential's.
BENCH_PKGS="flex bison"
for arg in "$@"; do
  case "$arg" in
    --fuzz) PKGS="$PKGS $FUZZ_PKGS" ;;
    --bench) PKGS="$PKGS $BENCH_PKGS" ;;
    *) echo "usage: tools/install-deps.sh [--fuzz] [--bench]" >&2; exit 2 ;;
  esac
done

# The locales the application is translated into, so that LANG=ko_KR.UTF-8
# or ja_JP.UTF-8 shows it translated (glibc falls back to C for a locale
# that is not generated).
LOCALES="ko_KR.UTF-8 ja_JP.UTF-8"

missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
    || missing="$missing $p"
done

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

if [ -z "$missing" ]; then
  echo "install-deps: all packages present"
else
  echo "install-deps: installing$missing"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q $missing
fi

# `locale -a` spells UTF-8 as utf8.
absent=""
for l in $LOCALES; do
  name=$(echo "$l" | sed 's/UTF-8$/utf8/')
  locale -a 2>/dev/null | grep -qx "$name" || absent="$absent $l"
done
if [ -n "$absent" ]; then
  echo "install-deps: generating the locales$absent"
  for l in $absent; do
    $SUDO sed -i "s/^# *\($l UTF-8\)/\1/" /etc/locale.gen
    grep -q "^$l UTF-8" /etc/locale.gen || echo "$l UTF-8" | $SUDO tee -a /etc/locale.gen >/dev/null
  done
  $SUDO locale-gen
fi
