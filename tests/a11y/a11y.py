"""a11y.py — what the accessibility scenarios share: TAP output, the
application found on the AT-SPI bus, and searches of its tree by role and
name (never by pixel coordinates)."""
import re
import sys
import time

from dogtail.config import config

# The session is ours: no need for the desktop's accessibility switch.
config.checkForA11y = False
config.searchCutoffCount = 20
config.actionDelay = 0.05
config.logDebugToFile = False
# Its log of each action would mix with the TAP on standard output.
config.logDebugToStdOut = False
from dogtail import tree  # noqa: E402 (after the configuration)

_count = 0
_failed = 0

# Roles a user operates; each needs a name a screen reader can say.
CONTROL_ROLES = {
    'push button', 'toggle button', 'check box', 'radio button', 'text', 'spin button',
    'combo box', 'slider', 'page tab', 'entry', 'switch', 'menu item', 'password text',
}
# GTK 4.8 names a widget with no label after its type: no name to a user.
_TYPE_NAME = re.compile(r'^(Gtk|Adw|Flitlab)[A-Z]\w*$')


def ok(cond, desc):
    global _count, _failed
    _count += 1
    if not cond:
        _failed += 1
    print('%s %d - %s' % ('ok' if cond else 'not ok', _count, desc), flush=True)
    return cond


def done():
    print('1..%d' % _count)
    sys.exit(1 if _failed else 0)


def bail(desc):
    ok(False, desc)
    done()


def application(name='flitlab-gui', timeout=30.0):
    """The application's accessible root, once its window is on the bus."""
    end = time.time() + timeout
    while time.time() < end:
        try:
            app = tree.root.application(name)
            if app.children:
                return app
        except Exception:
            pass
        time.sleep(0.2)
    bail('the application appears on the accessibility bus')


def has_name(node):
    name = (node.name or '').strip()
    return bool(name) and not _TYPE_NAME.match(name)


def row_of(node, depth=4):
    """The list row node sits in (within depth levels), or None."""
    p = node
    for _ in range(depth):
        try:
            p = p.parent
        except Exception:
            return None
        if p is None:
            return None
        if p.roleName == 'list item':
            return p
    return None


def button(root, label, timeout=10.0):
    """The push button labelled label: GTK 4.8 names a button with a
    mnemonic "_Next Next", its label and then its text."""
    end = time.time() + timeout
    while True:
        for n in walk(root):
            try:
                name = n.name or ''
                if n.roleName == 'push button' and (name == label or name.endswith(' ' + label)):
                    return n
            except Exception:
                continue
        if time.time() >= end:
            return None
        time.sleep(0.2)


def walk(node):
    """Every node under node, depth first (children first in order)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        try:
            kids = list(n.children)
        except Exception:
            kids = []
        stack.extend(reversed(kids))


def find(root, role, name=None, contains=None, timeout=10.0):
    """The first node of role named name (or whose name contains contains),
    waiting up to timeout seconds for it to appear; None if it does not."""
    end = time.time() + timeout
    while True:
        for n in walk(root):
            try:
                if n.roleName != role:
                    continue
                if name is not None and n.name != name:
                    continue
                if contains is not None and contains not in (n.name or ''):
                    continue
                return n
            except Exception:
                continue
        if time.time() >= end:
            return None
        time.sleep(0.2)


def wait_for(predicate, timeout=10.0):
    end = time.time() + timeout
    while time.time() < end:
        try:
            if predicate():
                return True
        except Exception:
            pass
        time.sleep(0.1)
    return False


def press(node):
    """Activates a control through its Action interface, as assistive
    technologies do (GTK 4.8 reports window-relative extents, so a
    synthesized click would miss)."""
    for action in ('click', 'activate', 'press', 'toggle'):
        try:
            node.doActionNamed(action)
            return True
        except Exception:
            continue
    return False


def labels(root):
    return [n.name for n in walk(root) if n.roleName == 'label' and n.name]
