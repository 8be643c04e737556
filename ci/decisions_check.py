#!/usr/bin/env python3
"""Fails when docs/decisions.md and docs/decisions/ stop answering what cites them.

    ci/decisions_check.py [ROOT]

ROOT is the repository (default: this script's parent's parent). Checked:

- every "decision N", "decisions N, M", "decisions A-B", "decisions row N"
  and "docs/decisions.md N" in a tracked text file (README, docs, code
  comments, fixtures, scenarios, contracts), also when a line break and a
  comment marker fall inside it, names a number that has a row in
  docs/decisions.md or a record file docs/decisions/NNN-title.md; so does
  every "row N" inside docs/decisions.md and the record files, and every
  "[N]" in scenarios/COVERAGE.md;
- every numbered table row of docs/decisions.md is at most MAX_ROW
  characters (a line or two), and no number has two rows in one table;
- every record file is named NNN-title.md (three digits), starts with
  "# N. Title", has its Status, Context, Decision and Consequences sections,
  and is linked from docs/decisions.md; every link there to a record exists.
"""
import pathlib
import re
import subprocess
import sys

MAX_ROW = 400
ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent)
TABLE = ROOT / 'docs' / 'decisions.md'
RECORDS = ROOT / 'docs' / 'decisions'
SKIP_DIRS = {'.git', 'node_modules'}
TEXT_SUFFIXES = {'.md', '.cpp', '.h', '.hpp', '.c', '.cc', '.txt', '.cmake', '.py', '.sh', '.js',
                 '.mjs', '.json', '.yaml', '.yml', '.in', '.html', '.css', ''}

problems = []


def tracked_files():
    """Tracked files (git ls-files), else every file outside .git, node_modules and build*/."""
    try:
        out = subprocess.run(['git', 'ls-files', '-z'], cwd=ROOT, capture_output=True,
                             check=True).stdout.decode()
        return [ROOT / p for p in out.split('\0') if p]
    except (OSError, subprocess.CalledProcessError):
        return [p for p in ROOT.rglob('*') if p.is_file() and not any(
            part in SKIP_DIRS or part.startswith('build') for part in p.relative_to(ROOT).parts)]


# Space between the words of a citation; a line break may carry a comment
# marker with it, so "(decision\n  // 132)" is read whole.
SEP = r'(?:[ \t]|\n[ \t]*(?:(?://+|#+|\*|--)(?=[ \t]))?)+'
# A date (2026-12-03) after a citation is not a range of decisions.
NUMBER = r'\d+(?!\d)(?!\.\d)(?![-–]\d+[-–]\d)'
NUMBERS = rf'({NUMBER}(?:(?:{SEP})?(?:[-–]|,|,?{SEP}and)(?:{SEP})?{NUMBER})*)'
CITATION = re.compile(rf'\bdecisions?(?:\.md)?,?{SEP}(?:rows?{SEP})?' + NUMBERS, re.IGNORECASE)
ROW_CITATION = re.compile(rf'\brows?{SEP}' + NUMBERS, re.IGNORECASE)
# scenarios/COVERAGE.md names the decision a rule was settled by in brackets: [23].
BRACKET_CITATION = re.compile(r'\[(\d+(?:, ?\d+)*)\]')
BRACKET_FILES = {'scenarios/COVERAGE.md'}


def numbers_in(text):
    """'7, 8-10 and 12' -> [7, 8, 9, 10, 12]."""
    out = []
    for part in re.split(r'\s*(?:,\s*and\b|,|\band\b)\s*', re.sub(SEP, ' ', text)):
        part = part.strip()
        if not part:
            continue
        m = re.fullmatch(r'(\d+)\s*[-–]\s*(\d+)', part)
        out.extend(range(int(m[1]), int(m[2]) + 1) if m else [int(part)])
    return out


# Rows and record files: the numbers that can be cited.
table_text = TABLE.read_text(encoding='utf-8')
known = set()
seen_in_table = {}
table_no = 0
for n, line in enumerate(table_text.splitlines(), 1):
    if not line.startswith('|'):
        table_no += 1  # a table ends at the first line that is not a row
        continue
    m = re.match(r'\|\s*(\d+)\s*\|', line)
    if not m:
        continue
    number = int(m.group(1))
    known.add(number)
    if (table_no, number) in seen_in_table:
        problems.append(f'docs/decisions.md:{n}: decision {number} has a second row in this table '
                        f'(line {seen_in_table[(table_no, number)]})')
    seen_in_table[(table_no, number)] = n
    if len(line) > MAX_ROW:
        problems.append(f'docs/decisions.md:{n}: the row of decision {number} has {len(line)} '
                        f'characters (at most {MAX_ROW}): keep the choice, move the detail to '
                        f'its record file in docs/decisions/')

linked = set(re.findall(r'\]\((decisions/[^)#\s]+)', table_text))
for link in sorted(linked):
    if not (ROOT / 'docs' / link).is_file():
        problems.append(f'docs/decisions.md links {link}, which does not exist')

records = sorted(RECORDS.glob('*.md')) if RECORDS.is_dir() else []
for path in records:
    rel = path.relative_to(ROOT)
    m = re.fullmatch(r'(\d{3})-[a-z0-9-]+\.md', path.name)
    if not m:
        problems.append(f'{rel}: a record file is named NNN-title.md (three digits, lower case)')
        continue
    number = int(m.group(1))
    known.add(number)
    text = path.read_text(encoding='utf-8')
    if not re.match(rf'# {number}\. \S', text):
        problems.append(f'{rel}: the first line should be "# {number}. Title"')
    for section in ('Status', 'Context', 'Decision', 'Consequences'):
        if not re.search(rf'^## {section}\s*$', text, re.MULTILINE):
            problems.append(f'{rel}: no "## {section}" section')
    if f'decisions/{path.name}' not in linked:
        problems.append(f'{rel}: not linked from docs/decisions.md (add it to its row or the '
                        f'index of records)')

# Citations anywhere in the repository.
for path in tracked_files():
    if path.suffix not in TEXT_SUFFIXES or not path.is_file():
        continue
    try:
        raw = path.read_text(encoding='utf-8')
    except (UnicodeDecodeError, OSError):
        continue
    rel = path.relative_to(ROOT).as_posix()
    if rel == 'ci/decisions_check.py':
        continue
    patterns = [CITATION]
    if rel == 'docs/decisions.md' or rel.startswith('docs/decisions/'):
        patterns.append(ROW_CITATION)
    if rel in BRACKET_FILES:
        patterns.append(BRACKET_CITATION)
    for pattern in patterns:
        for m in pattern.finditer(raw):
            for number in numbers_in(m.group(1)):
                if number not in known:
                    cited = ' '.join(m.group(0).split())
                    problems.append(f'{rel}:{raw.count(chr(10), 0, m.start()) + 1}: "{cited}" '
                                    f'cites decision {number}, which has no row in '
                                    f'docs/decisions.md and no record file')

for p in problems:
    print('FAIL:', p)
if problems:
    sys.exit(1)
print(f'docs/decisions.md: {len(known)} decisions, {len(records)} record files, every citation '
      f'found, every row at most {MAX_ROW} characters')
