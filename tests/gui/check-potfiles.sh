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
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

grep -v '^#' "$potfiles" | grep -v '^$' >"$tmp/listed"

calls='_|N_|C_|NC_|ngettext|fl_error_set|fl_gettext|FL_N_|FL__STATUS'
marks="(^|[^A-Za-z0-9_])($calls)\\(|translatable=\"yes\""
# A file's own macro definitions (#define _(s) ...) are not strings.
{ find src -name '*.[ch]'; ls ui/*.ui; } | xargs grep -H -E "$marks" | grep -v '^[^:]*:#define' \
    | cut -d: -f1 | LC_ALL=C sort -u >"$tmp/marked"
ls data/*.in data/lessons/*.lesson >>"$tmp/marked"
LC_ALL=C sort -u "$tmp/marked" >"$tmp/needed"
LC_ALL=C sort -u "$tmp/listed" >"$tmp/listed-sorted"
for f in $(LC_ALL=C comm -23 "$tmp/needed" "$tmp/listed-sorted"); do
    echo "$f has translatable strings but is not listed in $potfiles"
    status=1
done

for f in $(cat "$tmp/listed"); do
    if [ ! -f "$f" ]; then
        echo "$potfiles lists $f, which does not exist"
        status=1
    fi
done

if ! LC_ALL=C sort -c "$tmp/listed" 2>/dev/null; then
    echo "$potfiles is not sorted (LC_ALL=C sort)"
    status=1
fi

[ "$status" -eq 0 ] && echo "$potfiles is complete: $(wc -l <"$tmp/listed") files"
exit "$status"
