#!/usr/bin/env python3
"""make-projects.py GOOD.flitlab EXP.flitlab OUTDIR — damaged project files
for the bad-input catalogue, each a copy of a good project (GOOD: a mesh:4x4
named m; EXP: an experiment 'small' with its runs done and a saved plot) with
one thing broken, so that no SQLite binary is kept in the repository."""
import os
import shutil
import sqlite3
import sys

good, exp, out = sys.argv[1], sys.argv[2], sys.argv[3]


def damaged(name, *sql, base=None, loose=None):
    """A copy of the good project (or BASE) named NAME, with the SQL run;
    with LOOSE, that table is no longer STRICT first, so that a value of
    any type can be written into it."""
    path = os.path.join(out, name)
    shutil.copy(base or good, path)
    if loose:
        db = sqlite3.connect(path)
        db.execute('PRAGMA writable_schema = ON')
        db.execute("UPDATE sqlite_schema SET sql = replace(sql, ') STRICT', ')') "
                   "WHERE name = ?", (loose,))
        db.commit()
        db.close()
    db = sqlite3.connect(path)
    # Damage the schema's own checks would refuse.
    db.execute('PRAGMA ignore_check_constraints = 1')
    db.execute('PRAGMA foreign_keys = 0')
    for s in sql:
        db.execute(s)
    db.commit()
    db.close()
    return path


def write(name, data):
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)


raw = open(good, 'rb').read()
# Files that are not projects, or only half of one.
write('empty.flitlab', b'')
write('text.flitlab', b'not a database at all, just some text that is long enough\n')
write('garbage.flitlab', bytes((i * 7919 + 13) % 256 for i in range(8192)))
write('header-only.flitlab', raw[:100])
write('truncated.flitlab', raw[:len(raw) // 2])
write('first-page.flitlab', raw[:4096])
# A good header on pages of garbage.
write('scrambled.flitlab', raw[:100] + bytes((i * 31 + 7) % 256 for i in range(len(raw) - 100)))

# SQLite databases that are not Flitlab projects.
db = sqlite3.connect(os.path.join(out, 'other.flitlab'))
db.execute('CREATE TABLE t (x)')
db.commit()
db.close()
db = sqlite3.connect(os.path.join(out, 'blank.flitlab'))
db.execute('PRAGMA user_version = 0')
db.commit()
db.close()

# Projects whose schema is not this version's.
damaged('future.flitlab', 'PRAGMA user_version = 999')
damaged('negative-version.flitlab', 'PRAGMA user_version = -3')
damaged('wrong-app.flitlab', 'PRAGMA application_id = 12345')
damaged('no-topology-table.flitlab', 'DROP TABLE link', 'DROP TABLE node',
        'DROP TABLE topology_setting', 'DROP TABLE topology')
damaged('no-link-table.flitlab', 'DROP TABLE link')
damaged('no-experiment-table.flitlab', 'DROP TABLE experiment')

# Rows that break the topology they describe.
damaged('bad-kind.flitlab', "UPDATE node SET kind = 'router' WHERE idx = 3")
damaged('bad-ports.flitlab', 'UPDATE node SET ports = -4 WHERE idx = 2')
damaged('huge-ports.flitlab', 'UPDATE node SET ports = 100000 WHERE idx = 2')
damaged('link-to-nowhere.flitlab', 'UPDATE link SET b = 9999 WHERE idx = 0')
damaged('link-bad-port.flitlab', 'UPDATE link SET pb = 77 WHERE idx = 0')
damaged('self-link.flitlab', 'UPDATE link SET b = a, pb = pa + 1 WHERE idx = 0')
damaged('port-twice.flitlab', 'UPDATE link SET a = 0, pa = 0 WHERE idx = 5')
damaged('node-gap.flitlab', 'DELETE FROM node WHERE idx = 4')
damaged('bad-dims.flitlab', "UPDATE topology SET family_dims = 'axb'")
damaged('bad-coord-dims.flitlab', 'UPDATE topology SET coord_dims = 9')
damaged('no-nodes.flitlab', 'DELETE FROM link', 'DELETE FROM node')

# Experiments whose definition is damaged.
damaged('exp-bad-design.flitlab', "UPDATE experiment SET design = 'frobnicate everything'",
        base=exp)
damaged('exp-unknown-key.flitlab', "UPDATE experiment SET design = 'vary colour=red,blue'",
        base=exp)
damaged('exp-bad-value.flitlab', "UPDATE experiment SET design = 'set vcs=lots'", base=exp)
damaged('exp-bad-network.flitlab', "UPDATE experiment SET network = '{\"nodes\": ['",
        base=exp)
damaged('exp-plot-definition.flitlab', "UPDATE plot SET definition = '}}}{{{'", base=exp)

# Runs of an experiment that a file Flitlab writes cannot hold.
damaged('exp-run-beyond.flitlab', 'UPDATE run SET idx = 7 WHERE idx = 1', base=exp)
damaged('exp-run-status.flitlab', "UPDATE run SET status = 'bogus' WHERE idx = 1", base=exp)
damaged('exp-run-wall.flitlab', 'UPDATE run SET wall_s = -3 WHERE idx = 0', base=exp)
damaged('exp-run-inf-wall.flitlab', 'UPDATE run SET wall_s = 1e999 WHERE idx = 0', base=exp)
damaged('exp-run-seed-type.flitlab', "UPDATE run SET seed = 'abc' WHERE idx = 1", base=exp,
        loose='run')
damaged('exp-scalar-beyond.flitlab',
        "UPDATE scalar SET idx = 5 WHERE idx = 0 AND name = 'latency_avg'", base=exp)
damaged('exp-scalar-type.flitlab',
        "UPDATE scalar SET value = 'lots' WHERE idx = 1 AND name = 'latency_avg'", base=exp,
        loose='scalar')
damaged('exp-vector-blob.flitlab',
        "UPDATE vector SET data = x'010203' WHERE idx = 0 AND name = 'latency'", base=exp)
damaged('exp-vector-step.flitlab',
        "UPDATE vector SET step = -10 WHERE idx = 1 AND name = 'latency'", base=exp)
damaged('exp-runs-count.flitlab', "UPDATE experiment SET runs = 9 WHERE name = 'small'",
        base=exp)
