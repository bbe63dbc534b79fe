#!/bin/sh
# check-potfiles.sh SOURCE_ROOT — po/POTFILES.in is complete, sorted and
# names only files that exist: every src/gui/*.c, ui/*.ui and data/*.in with
# translatable strings must be listed, or its strings never reach
# translators.
set -u
cd "$1" || exit 1
potfiles=po/POTFILES.in
status=0

listed() {
    grep -v '^#' "$potfiles" | grep -v '^$'
}

for f in $(grep -l -E '(^|[^A-Za-z0-9_])(_|N_|C_|NC_|ngettext)\(|translatable="yes"' \
               src/gui/*.c ui/*.ui 2>/dev/null) data/*.in; do
    if ! listed | grep -qx "$f"; then
        echo "$f has translatable strings but is not listed in $potfiles"
        status=1
    fi
done

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
