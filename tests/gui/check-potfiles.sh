#!/bin/sh
# check-potfiles.sh SOURCE_ROOT — po/POTFILES.in is complete, sorted and
# names only files that exist: every source file under src/ with translatable
# strings (_(), N_(), C_(), ngettext(), the engine's fl_error_set(),
# fl_gettext(), FL_N_() and status texts), every ui/*.ui with
# translatable="yes", data/*.in and every lesson (data/lessons/*.lesson) must
# be listed, or its strings never reach translators.
set -u
cd "$1" || exit 1
potfiles=po/POTFILES.in
status=0

listed() {
    grep -v '^#' "$potfiles" | grep -v '^$'
}

# A file's own macro definitions (#define _(s) ...) are not strings.
marked() {
    grep -v '^#define' "$1" \
        | grep -q -E '(^|[^A-Za-z0-9_])(_|N_|C_|NC_|ngettext|fl_error_set|fl_gettext|FL_N_|FL__STATUS)\(|translatable="yes"'
}

for f in $(find src -name '*.[ch]' | LC_ALL=C sort) ui/*.ui; do
    marked "$f" && echo "$f"
done >"${TMPDIR:-/tmp}/potfiles.$$"
for f in $(cat "${TMPDIR:-/tmp}/potfiles.$$") data/*.in data/lessons/*.lesson; do
    if ! listed | grep -qx "$f"; then
        echo "$f has translatable strings but is not listed in $potfiles"
        status=1
    fi
done

rm -f "${TMPDIR:-/tmp}/potfiles.$$"

for f in $(listed); do
    if [ ! -f "$f" ]; then
        echo "$potfiles lists $f, which does not exist"
        status=1
    fi
done

if ! listed | LC_ALL=C sort -c 2>/dev/null; then
    echo "$potfiles is not sorted (LC_ALL=C sort)"
    status=1
fi

[ "$status" -eq 0 ] && echo "$potfiles is complete: $(listed | wc -l) files"
exit "$status"
