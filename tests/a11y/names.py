"""names.py — every control of the window, on every view, has a name a
screen reader can say (its label, or an accessible label where it shows
only an icon)."""
import a11y

app = a11y.application()
views = ['Network', 'Metrics', 'Routing', 'Simulate', 'Collectives', 'Multicast', 'Exchange',
         'Schedule', 'Experiments']
for view in views:
    tab = a11y.find(app, 'page tab', name=view, timeout=5)
    a11y.ok(tab is not None and a11y.press(tab), 'the %s view opens' % view)

seen = 0
unnamed = []
for n in a11y.walk(app):
    try:
        role = n.roleName
    except Exception:
        continue
    if role not in a11y.CONTROL_ROLES:
        continue
    seen += 1
    parent = n.parent
    # A menu button or a drop-down holds a toggle button of its own: the
    # reader announces the named control around it.
    inner = parent is not None and parent.roleName in a11y.CONTROL_ROLES and a11y.has_name(parent)
    # A row's title names the control in it (AdwActionRow, AdwExpanderRow's
    # switch): the reader speaks the row as the control takes the focus.
    row = a11y.row_of(n)
    if not a11y.has_name(n) and not inner and not (row is not None and a11y.has_name(row)):
        unnamed.append('%s %r in %s %r (%s)' % (role, n.name, parent.roleName, parent.name,
                                                n.description))
a11y.ok(seen > 100, 'the views hold their controls (%d)' % seen)
for u in unnamed:
    print('# unnamed: ' + u)
a11y.ok(not unnamed, 'every control has a name (%d of %d lack one)' % (len(unnamed), seen))
a11y.done()
