#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
place-includes.py [PATCHES-DIR]: the <linux/smp_lock.h> a push-down adds,
put where the kernel orders includes and where bkl pushdown now puts it
(campaign/edit.c, include_slot()): after the last <...> include of the
leading block that no #if encloses, before the first local "..." header
and before a #define CREATE_TRACE_POINTS.

The series is applied twice, one patch at a time, to hard-linked copies
of the pristine tree: as it is (A) and as it becomes (B).  A push-down
whose include sits elsewhere gets its diff made again from B's file
before and A's file after with the include moved; a later patch of such
a file (the conversion that drops the include) gets its diff made again
from B's file before to A's after, the include moved if still there.
Changelogs and diffstats stay (the same lines are added and removed).
Prints each patch it changes; --check changes nothing and exits 1 when
one would change.
"""
import os, re, subprocess, sys, tempfile

INCLUDE = "#include <linux/smp_lock.h>\n"

def directive(line):
    m = re.match(r'\s*#\s*(\w+)\s*(.*)', line)
    return (m.group(1), m.group(2)) if m else (None, None)

def new_slot(lines, upto):
    """Index after which the include goes, among lines[:upto], or None."""
    depth, at, angle, past = 0, None, None, False
    for i, l in enumerate(lines[:upto]):
        d, rest = directive(l)
        if d in ("if", "ifdef", "ifndef"):
            depth += 1
        elif d == "endif" and depth:
            depth -= 1
        elif d == "define" and rest.startswith("CREATE_TRACE_POINTS"):
            past = True
        elif d == "include" and not depth:
            at = i
            if rest.startswith('"'):
                past = True
            elif rest.startswith('<') and not past:
                angle = i
    return angle if angle is not None else at

def moved(text):
    """text with its smp_lock.h include at the new slot (unchanged if none)."""
    lines = text.splitlines(True)
    if INCLUDE not in lines:
        return text
    i = lines.index(INCLUDE)
    rest = lines[:i] + lines[i + 1:]
    at = new_slot(rest, i)
    if at is None:
        return text
    rest.insert(at + 1, INCLUDE)
    return "".join(rest)

def read(path):
    try:
        with open(path, errors="surrogateescape") as f:
            return f.read()
    except FileNotFoundError:
        return None

def sections(text):
    """(head, [(file, section text)]) of a patch: split at '--- a/' lines."""
    parts = re.split(r'(?m)^(?=--- a/)', text)
    head, secs = parts[0], []
    for p in parts[1:]:
        m = re.match(r'--- a/(\S+)', p)
        secs.append((m.group(1), p))
    return head, secs

def udiff(path, before, after, tmp):
    a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
    with open(a, "w", errors="surrogateescape") as f:
        f.write(before)
    with open(b, "w", errors="surrogateescape") as f:
        f.write(after)
    out = subprocess.run(["diff", "-u", "--label", "a/" + path, "--label", "b/" + path, a, b],
                         capture_output=True, text=True, errors="surrogateescape").stdout
    return out

def apply(tree, patch_text):
    r = subprocess.run(["patch", "-p1", "-s", "-N", "-r", "-"], cwd=tree, input=patch_text,
                       capture_output=True, text=True, errors="surrogateescape")
    if r.returncode:
        sys.exit("place-includes: a patch does not apply: " + r.stdout + r.stderr)

def main():
    args = sys.argv[1:]
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    patches = args[0] if args else os.path.join(top, "patches")
    cache = os.environ.get("BKL_CACHE", os.path.expanduser("~/.cache/bkl-audit"))
    pristine = os.path.join(cache, "linux", "pristine")
    if not os.path.isdir(pristine):
        sys.exit("place-includes: no pristine tree in '%s': run 'bkl tree'" % pristine)
    tmp = tempfile.mkdtemp()
    A, B = os.path.join(tmp, "A"), os.path.join(tmp, "B")
    subprocess.run(["cp", "-al", pristine, A], check=True)
    subprocess.run(["cp", "-al", pristine, B], check=True)
    series = [l.strip() for l in open(os.path.join(patches, "series"))
              if l.strip() and not l.startswith("#")]
    differ, changed = set(), 0
    for name in series:
        path = os.path.join(patches, name)
        text = read(path)
        head, secs = sections(text)
        pushdown = re.match(r'drivers/[^/]+/0001-.*push-down', name) is not None
        before_a = {f: read(os.path.join(A, f)) or "" for f, _ in secs}
        before_b = {f: read(os.path.join(B, f)) or "" for f, _ in secs}
        apply(A, text)
        new_secs, touched = [], False
        for f, sec in secs:
            after_a = read(os.path.join(A, f)) or ""
            adds = pushdown and ("\n+" + INCLUDE) in sec
            if adds and moved(after_a) != after_a:
                differ.add(f)
            if f in differ:
                after_b = moved(after_a)
                if after_b == after_a and before_b[f] == before_a[f]:
                    differ.discard(f)
                    new_secs.append(sec)
                    continue
                new = udiff(f, before_b[f], after_b, tmp)
                if new != sec:
                    touched = True
                new_secs.append(new)
                if after_b == after_a:
                    differ.discard(f)
            else:
                new_secs.append(sec)
        new_text = head + "".join(new_secs)
        apply(B, new_text)
        if touched:
            changed += 1
            print("patches/%s" % name)
            if not check:
                with open(path, "w", errors="surrogateescape") as f:
                    f.write(new_text)
    subprocess.run(["rm", "-rf", tmp])
    print("%d patch%s %s" % (changed, "" if changed == 1 else "es",
                             "to change" if check else "changed"))
    sys.exit(1 if check and changed else 0)

main()
