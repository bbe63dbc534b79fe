#!/bin/sh
# check-po.sh SOURCE_ROOT XGETTEXT_ARGS... — the translations are complete
# and current: the template rebuilt from the sources (po/POTFILES.in, with the
# keywords po/meson.build passes here, the same that the flitlab-pot target
# uses) has every msgid of each po/LL.po of po/LINGUAS and no other, and
# msgfmt --check finds each one valid with no fuzzy or untranslated entry.
# A language named in po/INCOMPLETE (one being finished) must be current and
# valid; its untranslated and fuzzy entries are counted, not failed.
# Then the same checks run on a throwaway copy with a made-up language, to
# show that they fail when they should. Prints TAP.
set -u
# ok, $tmp and tap_end (cli-lib.sh takes $1 for the command; here it is
# the source root, and nothing runs it).
. "$(dirname "$0")/cli-lib.sh"
src=$1
shift

languages() {
    grep -v '^#' "$1/po/LINGUAS" | tr -s ' \t' '\n\n' | grep -v '^$'
}

# check_po PO POT: why PO is not complete and current against POT, on
# stdout (nothing when it is)
check_po() {
    if ! msgcmp -N --use-fuzzy --use-untranslated "$1" "$2" >"$tmp/missing" 2>&1; then
        echo "$(grep -c 'used but not defined' "$tmp/missing") msgid(s) of the sources" \
             "missing, first: $(grep 'used but not defined' "$tmp/missing" | head -1)"
    fi
    if ! msgcmp -N --use-fuzzy --use-untranslated "$2" "$1" >"$tmp/obsolete" 2>&1; then
        echo "$(grep -c 'used but not defined' "$tmp/obsolete") msgid(s) no longer in" \
             "the sources, first: $(grep 'used but not defined' "$tmp/obsolete" | head -1)"
    fi
    if ! LC_ALL=C msgfmt --check --statistics -o /dev/null "$1" >"$tmp/stats" 2>&1; then
        echo "msgfmt --check fails: $(grep -v 'warning' "$tmp/stats" | head -3)"
    elif grep -q 'fuzzy\|untranslated' "$tmp/stats"; then
        echo "not complete: $(tail -1 "$tmp/stats")"
    fi
}

# pot_args ROOT OUT XGETTEXT_ARGS...: the template of the tree at ROOT, as
# the flitlab-pot target makes it
pot_args() {
    root=$1 out=$2
    shift 2
    LC_ALL=C.UTF-8 GETTEXTDATADIRS=$root/po xgettext --package-name=flitlab \
        -f "$root/po/POTFILES.in" -D "$root" -k_ -o "$out" "$@" 2>"$tmp/xgettext-err"
}

pot_args "$src" "$tmp/flitlab.pot" "$@"
rc=$?
count=$(grep -c '^msgid ' "$tmp/flitlab.pot" 2>/dev/null)
ok $(( rc != 0 )) "the template builds from po/POTFILES.in: $count msgids"

langs=$(languages "$src")
incomplete=""
[ -f "$src/po/INCOMPLETE" ] && incomplete=$(grep -v '^#' "$src/po/INCOMPLETE" | tr -s ' \t' '\n\n')
if [ -z "$langs" ]; then
    ok 0 "no languages in po/LINGUAS"
fi
for l in $langs; do
    po=$src/po/$l.po
    if [ ! -f "$po" ]; then
        ok 1 "po/LINGUAS names $l but po/$l.po does not exist"
        continue
    fi
    why=$(check_po "$po" "$tmp/flitlab.pot" | tr '\n' ' ')
    if echo "$incomplete" | grep -qx "$l"; then
        case $why in
        "not complete: "*)
            ok 0 "po/$l.po is current and valid, still being translated (po/INCOMPLETE): ${why#not complete: }"
            continue ;;
        esac
    fi
    if [ -z "$why" ]; then
        stats=$(LC_ALL=C msgfmt --statistics -o /dev/null "$po" 2>&1 | tail -1)
        ok 0 "po/$l.po is complete and current: $stats"
    else
        ok 1 "po/$l.po: $why(update: ninja -C build flitlab-update-po, then translate)"
    fi
done

# The checks themselves, on a copy: a source file, its template and a
# language xx made by msginit and msgen (every msgstr its msgid).
fake=$tmp/fake
mkdir -p "$fake/po"
printf 'src/a.c\n' >"$fake/po/POTFILES.in"
printf 'xx\n' >"$fake/po/LINGUAS"
mkdir "$fake/src"
printf '%s\n' 'const char *a = _("one");' 'int b(int n) { return printf(_("%d two\\n"), n); }' \
    >"$fake/src/a.c"
pot_args "$fake" "$tmp/fake.pot" "$@"
msginit --no-translator -l xx -i "$tmp/fake.pot" -o "$tmp/xx-empty.po" >/dev/null 2>&1
msgen -o "$fake/po/xx.po" "$tmp/xx-empty.po" 2>/dev/null
why=$(check_po "$fake/po/xx.po" "$tmp/fake.pot" | tr '\n' ' ')
ok $([ -z "$why" ] && echo 0 || echo 1) "a fully translated language passes $why"

sed 's/^msgstr "one"$/msgstr ""/' "$fake/po/xx.po" >"$tmp/xx-untranslated.po"
why=$(check_po "$tmp/xx-untranslated.po" "$tmp/fake.pot" | tr '\n' ' ')
case $why in *"not complete"*) r=0 ;; *) r=1 ;; esac
ok $r "a removed translation fails: $why"

printf '%s\n' 'const char *c = _("three");' >>"$fake/src/a.c"
pot_args "$fake" "$tmp/fake-new.pot" "$@"
why=$(check_po "$fake/po/xx.po" "$tmp/fake-new.pot" | tr '\n' ' ')
case $why in *"missing"*) r=0 ;; *) r=1 ;; esac
ok $r "a new source string fails: $why"

sed -i 's/_("one")/_("uno")/' "$fake/src/a.c"
pot_args "$fake" "$tmp/fake-changed.pot" "$@"
why=$(check_po "$fake/po/xx.po" "$tmp/fake-changed.pot" | tr '\n' ' ')
case $why in *"no longer"*) r=0 ;; *) r=1 ;; esac
ok $r "a changed source string fails: $why"

tap_end
