"""The Markdown files bench/compare writes into: sections of docs/benchmarks.md
that other scripts and people write, kept as they are, and README.md's
performance table between its markers."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def kept_section(path, heading):
    """The section of the file under `heading` (written by hand from another
    script's figures, here bench/startup's), to be written again unchanged."""
    try:
        text = open(path).read()
    except OSError:
        return ""
    start = text.find("\n" + heading + "\n")
    if start < 0:
        return ""
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end + 1]


def section_headings(path):
    """The "## " headings of the file at `path`, in order."""
    try:
        return [line for line in open(path).read().split("\n") if line.startswith("## ")]
    except OSError:
        return []


def readme_goals(goals, load):
    """The goals table into README.md's performance section and the top of
    docs/performance.md, between their markers, so both show the latest run."""
    start, end = "<!-- bench/compare: goals -->\n", "<!-- /bench/compare -->"
    for path in (os.path.join(ROOT, "README.md"), os.path.join(ROOT, "docs", "performance.md")):
        text = open(path).read()
        if start not in text or end not in text:
            continue
        before, rest = text.split(start, 1)
        after = rest.split(end, 1)[1]
        with open(path, "w") as f:
            f.write(before + start + goals + "\n\n" + load + "\n" + end + after)
