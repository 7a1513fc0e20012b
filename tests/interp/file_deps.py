#!/usr/bin/env python3
"""file_deps.py [--graph] OBJECT...

The call graph between the source files of a library, read from its object
files: an edge A -> B when A's object leaves undefined a symbol that B's
object defines.  Prints the groups of files that call each other in a cycle
and exits 1 when there is one; --graph prints every edge first, with the
symbols it stands for.  docs/ir.md gives the dependency order graphir/ keeps.
"""
import os
import subprocess
import sys


def symbols(obj):
    """(defined, undefined) global symbols of one object file."""
    out = subprocess.run(['nm', obj], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'TDRB':
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == 'U':
            undefined.add(parts[1])
    return defined, undefined


def name(obj):
    """graphir/CMakeFiles/x.dir/passes/cse.c.o -> passes/cse.c"""
    path = obj.replace('\\', '/')
    if '.dir/' in path:
        path = path.split('.dir/', 1)[1]
    return path[:-2] if path.endswith('.o') else path


def cycles(edges):
    """Strongly connected groups of more than one file (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(set(edges) | {w for e in edges.values() for w in e}):
        if v not in index:
            visit(v)
    return found


def main(argv):
    show = '--graph' in argv
    objs = [a for a in argv if a != '--graph']
    if not objs:
        print(__doc__.strip())
        return 2
    syms = {name(o): symbols(o) for o in objs}
    owner = {s: f for f, (d, _) in syms.items() for s in d}
    edges = {}
    for f, (_, undefined) in syms.items():
        for s in undefined:
            if s in owner and owner[s] != f:
                edges.setdefault(f, {}).setdefault(owner[s], []).append(s)
    if show:
        for f in sorted(edges):
            for t in sorted(edges[f]):
                print('%-24s -> %-24s %s' % (f, t, ' '.join(sorted(edges[f][t]))))
    found = cycles(edges)
    for group in found:
        print('cycle: ' + ' <-> '.join(group))
    if not found:
        print('no cycles between %d files' % len(syms))
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
