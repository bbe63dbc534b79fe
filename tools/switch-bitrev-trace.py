#!/usr/bin/env python3
"""Writes a Flitlab trace (lines: cycle source destination flits) of
bit-reversal traffic between switches: host j of switch s sends to host j of
switch reverse(s), the switch number's bits reversed. Hosts are numbered
switch-major (host = s * hosts_per_switch + j), as Flitlab numbers the hosts
of its regular families. Each host makes a packet each cycle with probability
rate / flits (Bernoulli injection, rate in flits per cycle per host).

    switch-bitrev-trace.py SWITCHES HOSTS_PER_SWITCH RATE FLITS CYCLES [SEED]

SWITCHES must be a power of two. Used by README's "Paper 002, Table 3".
"""
import random
import sys


def main(argv):
    if len(argv) not in (6, 7):
        sys.exit(__doc__)
    switches, conc = int(argv[1]), int(argv[2])
    rate, flits, cycles = float(argv[3]), int(argv[4]), int(argv[5])
    seed = int(argv[6]) if len(argv) == 7 else 1
    bits = switches.bit_length() - 1
    if switches < 2 or 1 << bits != switches:
        sys.exit("switch-bitrev-trace: SWITCHES must be a power of two, not %d" % switches)
    if not (0 < rate <= 1) or flits < 1 or cycles < 1 or conc < 1:
        sys.exit("switch-bitrev-trace: need 0 < RATE <= 1 and positive FLITS, CYCLES, HOSTS")
    rng = random.Random(seed)
    p = rate / flits
    out = sys.stdout
    for cycle in range(cycles):
        for host in range(switches * conc):
            if rng.random() < p:
                s, j = divmod(host, conc)
                r = int(format(s, "0%db" % bits)[::-1], 2)
                out.write("%d %d %d %d\n" % (cycle, host, r * conc + j, flits))


if __name__ == "__main__":
    main(sys.argv)
