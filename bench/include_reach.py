#!/usr/bin/env python3
"""How many translation units a header reaches: the compiles a change to it costs.

    bench/include_reach.py fake_org/domain/store/record_store.h [...]
    bench/include_reach.py --top 10          # the project's widest-reaching headers

Follows the project's own quoted includes (a name relative to the including
file's folder, then to each source root), from every .cpp under fake_org/,
contracts/, runner/ and bench/; system and third-party headers are not
followed. `ninja -n` after touching the header in a built tree gives the same
count plus the PCH and generated units.
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE_ROOTS = ['fake_org', 'contracts', 'runner/src', 'runner', '.']
TREES = ['fake_org', 'contracts', 'runner', 'bench']
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def resolve(name, from_dir):
    for base in [from_dir] + [os.path.join(ROOT, r) for r in SOURCE_ROOTS]:
        p = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(p):
            return p
    return None


def main():
    global ROOT
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('headers', nargs='*')
    ap.add_argument('--top', type=int, default=0, help='list the N widest-reaching headers')
    ap.add_argument('--root', default=ROOT, help='the checkout to read (default: this one)')
    args = ap.parse_args()
    ROOT = os.path.abspath(args.root)
    edges = {}
    units = []
    for tree in TREES:
        for d, dirs, files in os.walk(os.path.join(ROOT, tree)):
            dirs[:] = [x for x in dirs if x != 'node_modules' and not x.startswith('build')]
            for f in files:
                if not f.endswith(('.cpp', '.h')):
                    continue
                p = os.path.join(d, f)
                with open(p, encoding='utf-8', errors='replace') as fh:
                    names = INCLUDE.findall(fh.read())
                edges[p] = [r for r in (resolve(n, d) for n in names) if r]
                if f.endswith('.cpp'):
                    units.append(p)
    reach = {}
    for unit in units:
        seen, stack = set(), [unit]
        while stack:
            for nxt in edges.get(stack.pop(), []):
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        for h in seen:
            reach[h] = reach.get(h, 0) + 1
    print(f'{len(units)} translation units')
    for h in args.headers:
        p = os.path.normpath(os.path.join(ROOT, h))
        if p not in edges:
            sys.exit(f'no such header: {h}')
        print(f'{reach.get(p, 0):5d}  {h}')
    if args.top:
        for p, n in sorted(reach.items(), key=lambda kv: -kv[1])[:args.top]:
            print(f'{n:5d}  {os.path.relpath(p, ROOT)}')


if __name__ == '__main__':
    main()
