#!/bin/sh
# kill-experiment.sh — kills `flitlab experiment run` with SIGKILL at random
# moments and checks that no committed run is lost or damaged.
#
# Usage: tools/kill-experiment.sh [--trials N] [--seed S] FLITLAB_BINARY
#
# It defines a small experiment (mesh:4x4, six rates up to past saturation,
# two routings, seeds 1:3: 36 runs, some of them stopped past saturation),
# runs it to the end for reference, and then, N times (100 unless --trials
# says otherwise), on a fresh copy of the project:
#   - starts `flitlab experiment run --jobs 2` and kills it with SIGKILL
#     after a delay drawn (from --seed) over the reference run's duration:
#     one trial in five within its first 5 %, the others over all of it
#     (the median of three runs: a trial may end before its kill);
#   - checks the file: `flitlab experiment status` opens it and counts its
#     runs, PRAGMA integrity_check is ok, and every run it holds equals the
#     reference's run of the same number bit for bit (status, seed,
#     parameters, every scalar but wall_s, every vector, none missing, none
#     extra);
#   - runs `flitlab experiment resume`, which must leave the committed runs
#     alone (same start and wall times), set out to run exactly the runs
#     missing and say "nothing to run" when none is; then the
#     experiment's JSON export must equal the reference's (wall_s aside).
# Prints TAP, one line per trial, and a summary; exits non-zero on any
# failure. KILL_EXPERIMENT_KEEP=DIR keeps the files of failed trials there.
# Needs python3 (its sqlite3 module reads the file; one python process
# drives every trial, as starting one costs up to a second here).
set -u

trials=100
seed=1
while [ $# -gt 1 ]; do
  case $1 in
  --trials) trials=$2; shift 2 ;;
  --seed) seed=$2; shift 2 ;;
  *) break ;;
  esac
done
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 [--trials N] [--seed S] FLITLAB_BINARY" >&2
  exit 2
fi

exec python3 - "$1" "$trials" "$seed" "${KILL_EXPERIMENT_KEEP:-}" <<'PY'
import json, os, random, re, shutil, sqlite3, struct, subprocess, sys, tempfile, time

flitlab, trials, seed, keep = (os.path.abspath(sys.argv[1]), int(sys.argv[2]),
                               int(sys.argv[3]), sys.argv[4])
tmp = tempfile.mkdtemp(prefix='kill-experiment-')
start = time.monotonic()


def cli(*args, check=True):
    return subprocess.run([flitlab] + [str(a) for a in args], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, check=check)


def path(name):
    return os.path.join(tmp, name)


def runs(file):
    """The runs of the file: {idx: row}, scalars as their bits; raises
    ValueError when integrity_check is not ok."""
    db = sqlite3.connect('file:%s?mode=ro' % file, uri=True)
    try:
        verdict = db.execute('PRAGMA integrity_check').fetchall()
        if verdict != [('ok',)]:
            raise ValueError('integrity_check: %r' % verdict)
        out = {}
        for idx, status, seed, started, wall in db.execute(
                'SELECT idx, status, seed, started, wall_s FROM run ORDER BY idx'):
            out[idx] = {
                'status': status, 'seed': seed, 'times': (started, wall),
                'params': dict(db.execute('SELECT key, value FROM runparam WHERE idx = ?',
                                          (idx,))),
                'scalars': {n: None if v is None else struct.pack('<d', v)
                            for n, v in db.execute('SELECT name, value FROM scalar '
                                                   'WHERE idx = ? AND name != ?',
                                                   (idx, 'wall_s'))},
                'vectors': dict(db.execute('SELECT name, data FROM vector WHERE idx = ?',
                                           (idx,)))}
        return out
    finally:
        db.close()


def export(file):
    rows = json.loads(cli('experiment', 'export', file, 'e', '--format', 'json').stdout)
    for r in rows['runs']:
        r.pop('wall_s', None)
    return rows


def compare(got, ref):
    """Why the runs in got are not the reference's, or None."""
    for idx, r in got.items():
        want = ref.get(idx)
        if want is None:
            return 'run %d is not in the design' % idx
        for key in ('status', 'seed', 'params', 'scalars', 'vectors'):
            if r[key] != want[key]:
                return 'run %d: %s differ from the reference\'s' % (idx, key)
    return None


def timed_run(file):
    t0 = time.monotonic()
    cli('experiment', 'run', file, 'e', '--jobs', 2)
    return time.monotonic() - t0


def fresh(name):
    cli('project', 'new', path(name))
    cli('experiment', 'new', path(name), 'e', '--topology', 'mesh:4x4', '--set',
        'warmup=200', '--set', 'measure=1000', '--vary', 'rate=0.1,0.3,0.5,0.6,0.7,0.8',
        '--vary', 'routing=dor,updown', '--seeds', '1:3')


def trial(n, delay):
    t = path('t.flitlab')
    # A hot journal of the last trial's file would be rolled back into this one.
    for f in (t, t + '-journal'):
        if os.path.exists(f):
            os.unlink(f)
    shutil.copyfile(path('base.flitlab'), t)
    t0 = time.monotonic()
    p = subprocess.Popen([flitlab, 'experiment', 'run', t, 'e', '--jobs', '2'],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    time.sleep(delay)
    p.kill()
    p.wait()
    killed = round((time.monotonic() - t0) * 1000)
    head = 'trial %d: killed after %d ms' % (n, killed)
    # Flitlab opens the file first, as it was left (a hot journal too).
    status = cli('experiment', 'status', t, 'e', '--json', check=False)
    if status.returncode != 0:
        return False, '%s: the file does not open: %s' % (head, status.stderr.strip()), None
    try:
        before = runs(t)
        if json.loads(status.stdout)['missing'] != total - len(before):
            return False, '%s: experiment status miscounts the runs' % head, None
    except (ValueError, sqlite3.Error) as e:
        return False, '%s: the file: %s' % (head, e), None
    why = compare(before, ref)
    if why:
        return False, '%s: %s' % (head, why), None
    resume = cli('experiment', 'resume', t, 'e', '--jobs', 2, check=False)
    # Its first line counts the runs the file held when it started.
    first = re.search(r'experiment e: (\d+)/\d+ runs', resume.stderr)
    ran = total - int(first.group(1)) if first else 0
    missing = total - len(before)
    if resume.returncode != 0:
        why = 'resume failed: ' + resume.stderr.strip()
    elif missing == 0 and 'nothing to run' not in resume.stderr:
        why = 'resume did not say "nothing to run"'
    elif missing and ran != missing:
        why = 'resume set out to run %d runs for %d missing' % (ran, missing)
    else:
        try:
            after = runs(t)
            why = compare(after, ref)
            if not why and len(after) != total:
                why = 'after resume, %d runs of %d' % (len(after), total)
            if not why:
                again = [i for i in before if after[i]['times'] != before[i]['times']]
                if again:
                    why = 'resume ran run %d again, which was committed' % again[0]
            if not why and export(t) != ref_export:
                why = 'the export after resume differs from the reference\'s'
        except (ValueError, sqlite3.Error, subprocess.CalledProcessError) as e:
            why = 'after resume: %s' % e
    if why:
        return False, '%s, %d runs committed: %s' % (head, len(before), why), None
    return True, '%s, %d runs committed, resume ran %d' % (head, len(before), ran), \
        len(before)


try:
    fresh('base.flitlab')
    # Commits wait on fsync, whose time varies: the median of three runs.
    times = []
    for name in ('ref.flitlab', 'ref2.flitlab', 'ref3.flitlab'):
        shutil.copyfile(path('base.flitlab'), path(name))
        times.append(timed_run(path(name)))
    duration = sorted(times)[1]
    ref = runs(path('ref.flitlab'))
    ref_export = export(path('ref.flitlab'))
    total = len(ref)
    for name in ('ref2.flitlab', 'ref3.flitlab'):
        if compare(runs(path(name)), ref) or ref_export != export(path(name)):
            raise ValueError('two runs to the end differ')
except (ValueError, sqlite3.Error, subprocess.CalledProcessError) as e:
    print('Bail out! the reference run failed: %s' % e)
    shutil.rmtree(tmp)
    sys.exit(1)

rng = random.Random(seed)
delays = [rng.random() * (0.05 if t % 5 == 0 else 1.0) * duration for t in range(trials)]
print('1..%d' % trials)
print('# reference: %d runs, %d stopped, in %d ms' % (
    total, sum(r['status'] == 'stopped' for r in ref.values()), duration * 1000))
failed = 0
committed = []
for n, delay in enumerate(delays, 1):
    good, line, held = trial(n, delay)
    if good:
        committed.append(held)
        print('ok %d - %s' % (n, line), flush=True)
    else:
        failed += 1
        print('not ok %d - %s' % (n, line), flush=True)
        if keep:
            shutil.copyfile(path('t.flitlab'), os.path.join(keep, 'failed-%d.flitlab' % n))
shutil.rmtree(tmp)
print('# %d trials (seed %d): %d ok, %d failed; runs committed at the kill: %s of %d '
      '(none: %d, all: %d); took %.0f s' % (
          trials, seed, trials - failed, failed,
          '%d to %d' % (min(committed), max(committed)) if committed else '-', total,
          committed.count(0), committed.count(total), time.monotonic() - start))
sys.exit(1 if failed else 0)
PY
