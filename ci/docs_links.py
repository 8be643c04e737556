#!/usr/bin/env python3
"""Fails when a relative Markdown link of the documentation points nowhere.

    ci/docs_links.py [ROOT]        check README.md, docs/**/*.md and the
                                   READMEs of fixtures/, scenarios/, contracts/
    ci/docs_links.py --self-test   show that a broken link or anchor fails

Every inline link or image `](path)`, `](path#anchor)` and `](#anchor)`
outside code must name an existing file or directory, relative to the page;
an anchor into a Markdown page must match one of its headings as GitHub
makes them (lower case; punctuation other than - and _ dropped; spaces to
-; a repeated heading gets -1, -2, ...). Links with a scheme (https:,
mailto:) are not followed.
"""
import pathlib
import re
import sys
import tempfile

LINK = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)')
FENCE = re.compile(r'^\s*(```|~~~)')
INLINE_CODE = re.compile(r'(`+)(?:(?!\1).)+?\1')
HEADING = re.compile(r'^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$')


def prose_lines(text):
    """(line number, line) outside fenced code, with inline code blanked."""
    in_fence = False
    for n, line in enumerate(text.split('\n'), 1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if not in_fence:
            yield n, INLINE_CODE.sub(lambda m: ' ' * len(m.group(0)), line)


def slug(heading):
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', heading)  # a link: its text
    text = re.sub(r'<[^>]+>', '', text).replace('`', '')
    text = re.sub(r'[^\w\- ]', '', text.lower())
    return text.replace(' ', '-')


def anchors(path, cache={}):
    if path not in cache:
        seen, found = {}, set()
        in_fence = False
        for line in path.read_text(encoding='utf-8').split('\n'):
            if FENCE.match(line):
                in_fence = not in_fence
                continue
            m = None if in_fence else HEADING.match(line)
            if m:
                base = slug(m.group(2))
                count = seen.get(base, 0)
                seen[base] = count + 1
                found.add(base if count == 0 else f'{base}-{count}')
        for m in re.finditer(r'<a\s+(?:name|id)="([^"]+)"', path.read_text(encoding='utf-8')):
            found.add(m.group(1))
        cache[path] = found
    return cache[path]


def check_page(page, root):
    problems = []
    text = page.read_text(encoding='utf-8')
    for n, line in prose_lines(text):
        for m in LINK.finditer(line):
            target = m.group(1)
            if not target or re.match(r'^[a-zA-Z][a-zA-Z0-9+.-]*:', target) or target.startswith('//'):
                continue
            path_part, _, anchor = target.partition('#')
            where = f'{page.relative_to(root)}:{n}: ]({target})'
            dest = (page.parent / path_part).resolve() if path_part else page
            if not dest.exists():
                problems.append(f'{where}: no file {path_part}')
                continue
            if anchor and dest.is_file() and dest.suffix == '.md' and anchor not in anchors(dest):
                problems.append(f'{where}: no heading "#{anchor}" in {dest.name}')
    return problems


def pages(root):
    found = [root / 'README.md'] + sorted((root / 'docs').rglob('*.md'))
    found += [root / d / 'README.md' for d in ('fixtures', 'scenarios', 'contracts')]
    return [p for p in found if p.is_file()]


def check(root):
    problems = []
    for page in pages(root):
        problems += check_page(page, root)
    return problems


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / 'docs').mkdir()
        (root / 'README.md').write_text(
            '# Top\n\n[ok](docs/page.md) [ok](docs/page.md#the-admin-api-outside-the-spec)\n'
            '[ok](docs/page.md#repeat-1) [ok](#top) `[code](nowhere.md)` [web](https://x.example/y)\n'
            '[broken](docs/missing.md) [bad anchor](docs/page.md#no-such-heading)\n'
            '```sh\n[in a block](also-nowhere.md)\n```\n', encoding='utf-8')
        (root / 'docs' / 'page.md').write_text(
            '# The admin API (outside the spec)\n\n## Repeat\n\n## Repeat\n\n![img](../README.md#top)\n',
            encoding='utf-8')
        problems = check(root)
        want = ['README.md:5: ](docs/missing.md): no file docs/missing.md',
                'README.md:5: ](docs/page.md#no-such-heading): no heading "#no-such-heading" in page.md']
        if problems != want:
            print('FAIL: the self-test expected\n  ' + '\n  '.join(want) + '\nand got\n  ' +
                  '\n  '.join(problems or ['nothing']))
            return 1
    print('ok: a missing file and a missing heading are reported, nothing else')
    return 0


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent)
    root = root.resolve()
    problems = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f'FAIL: {len(problems)} broken link(s)')
        return 1
    print(f'ok: every relative link of {len(pages(root))} pages resolves')
    return 0


if __name__ == '__main__':
    sys.exit(main())
