#!/bin/sh
# test-cli-lesson.sh — `flitlab lesson check|ls`, and what xgettext extracts
# from the lessons: exactly the strings the reader marks as text.
# Run as test-cli-lesson.sh path/to/flitlab path/to/test-lesson.
. "$(dirname "$0")/cli-lib.sh"
TEST_LESSON=$2
src=${FLITLAB_SOURCE_DIR:-.}
lessons=$src/data/lessons

run lesson check "$lessons/deadlock-ring.lesson"
ok $(( status != 0 )) "lesson check passes the shipped lesson"
grep -q "^ok .*deadlock-ring.lesson ([0-9]* steps)$" "$tmp/out"
ok $? "lesson check says ok with the steps"

run lesson check "$lessons"
ok $(( status != 0 )) "lesson check DIR checks every lesson in it"

run lesson ls "$lessons"
grep -q "^deadlock-ring .* Routing and deadlock on a ring$" "$tmp/out"
ok $(( status != 0 || $? != 0 )) "lesson ls lists the id and title"

export FLITLAB_LESSONS_DIR="$lessons"
run lesson ls
grep -q "^deadlock-ring " "$tmp/out"
ok $(( status != 0 || $? != 0 )) "lesson ls lists \$FLITLAB_LESSONS_DIR by default"
FLITLAB_LESSONS_DIR=$tmp/nowhere
expect_fail "a missing lessons directory is named" \
  "cannot read the lessons directory '$tmp/nowhere'" lesson ls
FLITLAB_LESSONS_DIR=$lessons

sed 's/spec="ring:8"/spec="ring:8" size="2"/' "$lessons/deadlock-ring.lesson" \
  >"$tmp/deadlock-ring.lesson"
line=$(grep -n 'size="2"' "$tmp/deadlock-ring.lesson" | cut -d: -f1)
expect_fail "a typo names its line" "deadlock-ring.lesson:$line: <network> has no attribute 'size'" \
  lesson check "$tmp/deadlock-ring.lesson"

sed 's/nodes="7 0"/nodes="7 19"/' "$lessons/deadlock-ring.lesson" >"$tmp/deadlock-ring.lesson"
expect_fail "a switch the ring lacks is refused" "no switch 19" \
  lesson check "$tmp/deadlock-ring.lesson"

expect_fail "a missing file is refused" "nothing.lesson" lesson check "$tmp/nothing.lesson"
mkdir "$tmp/none-here"
expect_fail "an empty directory is refused" "no \*.lesson file" lesson ls "$tmp/none-here"

if command -v xgettext >/dev/null 2>&1; then
  for f in "$lessons"/*.lesson; do
    LC_ALL=C.UTF-8 GETTEXTDATADIRS=$src/po xgettext --no-wrap --sort-output -o "$tmp/pot" "$f" 2>"$tmp/xgettext-err"
    # msgids but the header's, one a line, unescaped as the reader gives them
    sed -n 's/^msgid "\(.\{1,\}\)"$/\1/p' "$tmp/pot" | sed 's/\\"/"/g; s/\\\\/\\/g' \
      | sort -u >"$tmp/extracted"
    "$TEST_LESSON" --strings "$f" | sort -u >"$tmp/read"
    if [ -s "$tmp/read" ] && cmp -s "$tmp/extracted" "$tmp/read"; then
      ok 0 "xgettext extracts exactly the text of $(basename "$f")"
    else
      ok 1 "xgettext extracts exactly the text of $(basename "$f"): $(diff "$tmp/extracted" "$tmp/read" | head -5)"
    fi
  done
else
  echo "ok $((n + 1)) # SKIP xgettext is not installed"
  n=$((n + 1))
fi

tap_end
