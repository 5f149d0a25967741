#!/usr/bin/env python3
"""Checks the relative links of Markdown files: every linked file exists and every #anchor names a
heading (GitHub's slug rules) or an explicit <a id="..."> in the target file.

usage: tools/check-doc-links.py [PATH...] [--targets FILE]
  PATH            Markdown files or folders (default: docs/ and README.md of the repository, and the
                  docs/ pages that source comments and messages cite, see below)
  --targets FILE  also check a list of link targets, one per line or in the second column of a
                  tab-separated file (e.g. docs/methods/hypar.md#communication-of-one-split),
                  relative to the repository root

Without PATH it also scans the sources (core/, app/, widgets/, tests/, tools/) for mentions of a docs
page, `docs/<path>.md` or `docs/<path>.md#anchor` (the way comments cite the model they implement), and
checks each like a link from the repository root.

Prints every broken link as FILE:LINE: message and exits 1 if there is one, else 0.
External links (http:, https:, mailto:) are not fetched.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
HEADING = re.compile(r'^(#{1,6})\s+(.*?)\s*#*\s*$')
EXPLICIT = re.compile(r'<a\s+(?:id|name)="([^"]+)"')
FENCE = re.compile(r'^\s*(```|~~~)')
CITATION = re.compile(r'(?<![\w./-])(docs/[\w./-]+?\.md(?:#[\w-]+)?)')
SOURCE_DIRS = ('core', 'app', 'widgets', 'tests', 'tools')
SOURCE_EXTENSIONS = ('.h', '.cpp', '.py', '.sh', '.cmake', '.txt', '.md', '.json')


def slug(text):
    """GitHub's heading anchor: the rendered text lower-cased, punctuation removed, spaces -> '-'."""
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', text)  # links and images keep their text
    text = re.sub(r'<[^>]+>', '', text)                     # inline HTML
    text = text.replace('`', '').replace('*', '')
    text = re.sub(r'(^|\s)_+|_+(\s|$)', r'\1\2', text)     # _emphasis_ (not snake_case)
    text = text.strip().lower()
    return ''.join(ch for ch in text if ch.isalnum() or ch in ' -_').replace(' ', '-')


def lines_outside_fences(path):
    fenced = False
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if not fenced:
                yield number, line


_anchor_cache = {}


def anchors(path):
    if path not in _anchor_cache:
        found, seen = set(), {}
        for _, line in lines_outside_fences(path):
            found.update(EXPLICIT.findall(line))
            m = HEADING.match(line)
            if m:
                base = slug(m.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f'{base}-{n}')
        _anchor_cache[path] = found
    return _anchor_cache[path]


def check_target(target, base_dir, source):
    """An error message for one link target, or None."""
    if re.match(r'^[a-z][a-z0-9+.-]*:', target):
        return None  # external: not fetched
    path_part, _, anchor = target.partition('#')
    if not path_part and source is None:
        return 'a target needs a file'
    path = os.path.normpath(os.path.join(base_dir, path_part)) if path_part else source
    if not os.path.exists(path):
        return f'missing file {os.path.relpath(path, ROOT)}'
    if anchor:
        if not path.endswith('.md'):
            return f'anchor #{anchor} in a file that is not Markdown'
        if anchor not in anchors(path):
            return f'no heading or anchor #{anchor} in {os.path.relpath(path, ROOT)}'
    return None


def markdown_files(paths):
    for p in paths:
        if os.path.isdir(p):
            for dirpath, _, names in os.walk(p):
                for name in sorted(names):
                    if name.endswith('.md'):
                        yield os.path.join(dirpath, name)
        else:
            yield p


def source_files():
    for top in SOURCE_DIRS:
        for dirpath, dirnames, names in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith('.'))
            for name in sorted(names):
                if name.endswith(SOURCE_EXTENSIONS):
                    yield os.path.join(dirpath, name)


def check_sources():
    """(citations checked, broken) for the docs pages the sources cite."""
    links = errors = 0
    for path in source_files():
        try:
            with open(path, encoding='utf-8') as f:
                lines = f.readlines()
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(lines, 1):
            for target in CITATION.findall(line):
                links += 1
                problem = check_target(target, ROOT, None)
                if problem:
                    errors += 1
                    print(f'{os.path.relpath(path, ROOT)}:{number}: {target}: {problem}')
    return links, errors


def main(argv):
    targets_file = None
    paths = []
    i = 0
    while i < len(argv):
        if argv[i] == '--targets' and i + 1 < len(argv):
            targets_file = argv[i + 1]
            i += 2
            continue
        if argv[i] in ('-h', '--help'):
            print(__doc__)
            return 0
        paths.append(argv[i])
        i += 1
    scan_sources = not paths
    if not paths:
        paths = [os.path.join(ROOT, 'docs'), os.path.join(ROOT, 'README.md')]
    errors = links = 0
    if scan_sources:
        links, errors = check_sources()
    for md in markdown_files(paths):
        md = os.path.abspath(md)
        for number, line in lines_outside_fences(md):
            code_free = re.sub(r'`[^`]*`', '', line)
            for target in LINK.findall(code_free):
                links += 1
                problem = check_target(target, os.path.dirname(md), md)
                if problem:
                    errors += 1
                    print(f'{os.path.relpath(md, ROOT)}:{number}: {target}: {problem}')
    if targets_file:
        with open(targets_file, encoding='utf-8') as f:
            for number, line in enumerate(f, 1):
                cells = line.rstrip('\n').split('\t')
                target = cells[1] if len(cells) > 1 else cells[0]
                if not target or target.startswith('#') or number == 1 and target == 'docs_target':
                    continue
                links += 1
                problem = check_target(target, ROOT, None)
                if problem:
                    errors += 1
                    print(f'{targets_file}:{number}: {target}: {problem}')
    print(f'{links} links checked, {errors} broken', file=sys.stderr)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
