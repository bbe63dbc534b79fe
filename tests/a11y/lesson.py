"""lesson.py LESSON_FILE — a whole lesson, driven as a screen reader user
would: from the welcome screen's Lessons button to the lesson's Open
button, every step read and its answer revealed, Back, and Close Lesson,
all through the accessibility tree (names and actions, no coordinates).
The expected texts come from the lesson file itself."""
import re
import sys
import xml.etree.ElementTree as ET

import a11y


def text(element):
    return re.sub(r'\s+', ' ', element.text or '').strip()


lesson = ET.parse(sys.argv[1]).getroot()
title = text(lesson.find('title'))
steps = [(text(s.find('title')), s.find('question') is not None, text(s.find('answer'))
          if s.find('answer') is not None else None) for s in lesson.findall('step')]
total = len(steps)

app = a11y.application()
button = a11y.button(app, 'Lessons')
a11y.ok(button is not None and a11y.press(button), 'the welcome screen has a Lessons button')
open_button = a11y.find(app, 'push button', name='Open “%s”' % title)
a11y.ok(open_button is not None, 'the lessons list offers “%s”' % title)
if open_button is None:
    a11y.done()
a11y.press(open_button)


def shown(label):
    return a11y.find(app, 'label', name=label, timeout=0) is not None


def step_shown(k):
    return shown('Step %d of %d' % (k, total)) and shown(steps[k - 1][0])


a11y.ok(a11y.wait_for(lambda: step_shown(1), timeout=20), 'the lesson opens at step 1: %s' % steps[0][0])
nxt = a11y.button(app, 'Next')
back = a11y.button(app, 'Back')
a11y.ok(nxt is not None and back is not None, 'the panel has Back and Next buttons')
for k in range(1, total + 1):
    name, asks, answer = steps[k - 1]
    a11y.ok(a11y.wait_for(lambda: step_shown(k)), 'step %d of %d reads “%s”' % (k, total, name))
    if asks:
        reveal = a11y.button(app, 'Show Answer', timeout=2)
        a11y.ok(reveal is not None and a11y.press(reveal)
                and a11y.wait_for(lambda: shown(answer)), 'step %d reveals its answer' % k)
    if k < total:
        a11y.press(nxt)
a11y.ok(not nxt.sensitive, 'Next is off at the last step')
a11y.press(back)
a11y.ok(a11y.wait_for(lambda: step_shown(total - 1)), 'Back returns to step %d' % (total - 1))
close = a11y.button(app, 'Close Lesson')
a11y.ok(close is not None and a11y.press(close)
        and a11y.wait_for(lambda: not shown('Step %d of %d' % (total - 1, total))),
        'Close Lesson ends it')
a11y.done()
