#!/bin/sh
# test-cli-i18n.sh path/to/flitlab XGETTEXT_ARGS... — the command in another
# language. The template of the whole source (po/POTFILES.in, extracted with
# the keywords po/meson.build passes here) is "translated" into a made-up
# language xx by turning every o into ö, and installed in a temporary
# LOCALEDIR ($FLITLAB_LOCALEDIR). Under LANGUAGE=xx the command's messages,
# its help, the engine's errors and the lessons' titles come out translated,
# while its JSON, CSV and file output stay byte for byte what they are in
# English.
. "$(dirname "$0")/cli-lib.sh"
shift
src=${FLITLAB_SOURCE_DIR:-.}

GETTEXTDATADIRS=$src/po xgettext --package-name=flitlab -f "$src/po/POTFILES.in" -D "$src" \
    -k_ -o "$tmp/flitlab.pot" "$@" 2>/dev/null
sed 's/charset=CHARSET/charset=UTF-8/' "$tmp/flitlab.pot" >"$tmp/utf8.pot"
msginit --no-translator -l xx -i "$tmp/utf8.pot" -o "$tmp/xx.po" >/dev/null 2>&1
sed 's/nplurals=INTEGER; plural=EXPRESSION;/nplurals=2; plural=(n != 1);/' "$tmp/xx.po" \
    | msgen -o "$tmp/xx-en.po" -
msgfilter --keep-header -i "$tmp/xx-en.po" -o "$tmp/xx-pseudo.po" sed 's/o/ö/g' 2>/dev/null
mkdir -p "$tmp/locale/xx/LC_MESSAGES"
msgfmt --check -o "$tmp/locale/xx/LC_MESSAGES/flitlab.mo" "$tmp/xx-pseudo.po" 2>"$tmp/msgfmt-err"
ok $? "the pseudo-translation of the template is a valid catalogue $(head -1 "$tmp/msgfmt-err")"

# xx ARGS...: runs flitlab in language xx, keeping $tmp/out, $tmp/err, $status
xx() {
    FLITLAB_LOCALEDIR=$tmp/locale LANGUAGE=xx LC_ALL=C.UTF-8 "$FLITLAB" "$@" >"$tmp/out" \
        2>"$tmp/err"
    status=$?
}

xx --help
ok $(( status != 0 )) "--help runs translated"
grep -q "^Cömmands:" "$tmp/out" && grep -q "wörkbench för intercönnectiön netwörks" "$tmp/out"
ok $? "flitlab --help is translated: $(sed -n 3p "$tmp/out")"

xx topo metrics --help
json_row=$(grep -- '--json ' "$tmp/out" | head -1)
grep -q "^Optiöns:" "$tmp/out" && grep -q "shöw this help and exit" "$tmp/out" \
  && grep -q "print öne JSON öbject instead öf a table" "$tmp/out"
ok $? "a command's summary and options are translated: $json_row"

xx sim --help
routing_row=$(grep -- '--routing ' "$tmp/out" | head -1)
grep -q -- "--routing NAME *the röuting algörithm" "$tmp/out" \
  && grep -q "^With --picture FILE --at CYCLE, ör" "$tmp/out"
ok $? "options added as the help is made are translated: $routing_row"

xx nonsense
[ "$status" -eq 2 ] && grep -q "^flitlab: unknöwn cömmand 'nonsense'" "$tmp/err"
ok $? "the command's errors are translated: $(cat "$tmp/err")"

xx topo metrics torus:0x4
[ "$status" -ne 0 ] && grep -q "^flitlab: .*ö" "$tmp/err"
ok $? "the engine's errors are translated: $(cat "$tmp/err")"

xx topo metrics mesh:4x4
grep -q "^hösts  *16$" "$tmp/out" && grep -q "^töpölögy  *mesh:4x4$" "$tmp/out"
ok $? "the labels of a table are translated and aligned: $(head -1 "$tmp/out")"

xx lesson ls "$src/data/lessons"
grep -q "Röuting and deadlöck ön a ring" "$tmp/out"
ok $? "a lesson's title is translated: $(head -1 "$tmp/out")"

# Machine output: the same bytes in both languages.
same() {
    desc=$1
    shift
    # the wall-clock time of a run is the one thing that differs
    run "$@"
    grep -v '"wall_s"\|_per_s"' "$tmp/out" >"$tmp/en"
    en_status=$status
    xx "$@"
    grep -v '"wall_s"\|_per_s"' "$tmp/out" >"$tmp/xx-out"
    mv "$tmp/xx-out" "$tmp/out"
    if [ "$en_status" -eq 0 ] && [ "$status" -eq 0 ] && [ -s "$tmp/en" ] \
       && cmp -s "$tmp/en" "$tmp/out"; then
        ok 0 "$desc is the same in xx"
    else
        ok 1 "$desc is the same in xx: status $en_status/$status, $(diff "$tmp/en" "$tmp/out" \
            | sed -n 2p)"
    fi
}
same "topo metrics --json" topo metrics mesh:4x4 --json
same "route --json" route torus:4x4 --routing dor --json
same "turns --json" turns mesh:4x4 --routing west-first --json
same "sim --json" sim mesh:4x4 --routing dor --rate 0.05 --warmup 200 --measure 1000 \
    --json
same "multicast --json" multicast mesh:6x6 --routing dor --algorithm opt-mesh --source 0 \
    --dests 1,5,9 --json
same "topo export --format json" topo export mesh:3x3 --format json -o -
same "topo export --format dot" topo export mesh:3x3 --format dot -o -

short_run="mesh:4x4 --routing dor --rate 0.05 --warmup 200 --measure 1000"
run sim $short_run --channels "$tmp/en.csv"
xx sim $short_run --channels "$tmp/xx.csv"
[ -s "$tmp/en.csv" ] && cmp -s "$tmp/en.csv" "$tmp/xx.csv"
ok $? "sim --channels' CSV is the same in xx"

tap_end
