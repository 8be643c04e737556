#!/usr/bin/env python3
"""Fails when a C++ function body outside tests is longer than LIMIT lines.

    ci/function_length.py LIMIT ROOT...

A function named in ci/function_length_exceptions.txt ("path:name  reason",
one a line) is reported but does not fail the check; each needs its reason.

Brace matching with comments and string literals blanked out; a body counts
as a function's when its "{" follows a parameter list that is not an
if/for/while/switch/catch. Lambdas and classes inside a function count
towards it. A long data table belongs in a data file, not an exception here.
"""
import re, sys, pathlib
LIMIT = int(sys.argv[1]); roots = sys.argv[2:]
found = 0
exceptions = {}
exceptions_file = pathlib.Path(__file__).with_name('function_length_exceptions.txt')
if exceptions_file.exists():
    for raw in exceptions_file.read_text().splitlines():
        if raw.strip() and not raw.startswith('#'):
            where, _, reason = raw.partition('  ')
            if not reason.strip():
                sys.exit(f"{exceptions_file}: '{where}' has no reason")
            exceptions[where.strip()] = reason.strip()
def strip(src):
    out=[];i=0;n=len(src)
    while i<n:
        c=src[i]
        if src.startswith('//',i):
            j=src.find('\n',i); j=n if j<0 else j; out.append(' '*(j-i)); i=j
        elif src.startswith('/*',i):
            j=src.find('*/',i+2); j=n if j<0 else j+2; out.append(re.sub(r'[^\n]',' ',src[i:j])); i=j
        elif src.startswith('R"',i):
            m=re.match(r'R"([^(]*)\(',src[i:]); d=m.group(1); end=src.find(')'+d+'"',i); end=n if end<0 else end+len(d)+2
            out.append(re.sub(r'[^\n]',' ',src[i:end])); i=end
        elif c in '"\'':
            j=i+1
            while j<n and src[j]!=c:
                j+= 2 if src[j]=='\\' else 1
            out.append(re.sub(r'[^\n]',' ',src[i:j+1])); i=j+1
        else: out.append(c); i+=1
    return ''.join(out)
def function_name(src, brace):
    """The qualified name before the parameter list that ends before `brace`."""
    close = src.rfind(')', 0, brace)
    depth = 0
    for i in range(close, -1, -1):
        depth += src[i] == ')'
        depth -= src[i] == '('
        if depth == 0:
            m = re.search(r'([\w:~]+)\s*$', src[:i])
            return m.group(1) if m else '?'
    return '?'

for root in roots:
  base = pathlib.Path(root)
  for p in ([base] if base.is_file() else sorted(base.rglob('*'))):
    if p.suffix not in ('.cpp','.h') or p.name.endswith('_test.cpp') or 'test_support' in p.name or 'testing' in p.parts: continue
    s=strip(p.read_text(errors='replace'))
    depth=0; starts=[]
    line=1
    for idx,ch in enumerate(s):
        if ch=='\n': line+=1
        elif ch=='{':
            # function body if preceded by ')' (possibly const/override/noexcept/-> T)
            pre=s[max(0,idx-200):idx].rstrip()
            isfn = bool(re.search(r'\)\s*(const)?\s*(noexcept)?\s*(override)?\s*(->\s*[\w:<>,\s\*&]+)?$',pre)) and not re.search(r'\b(if|for|while|switch|catch)\s*\(.*\)\s*$', pre.split('\n')[-1])
            starts.append((isfn,line,depth,idx)); depth+=1
        elif ch=='}':
            depth-=1
            if starts:
                isfn,l0,d,at=starts.pop()
                if isfn and not any(x[0] for x in starts) and line-l0+1>LIMIT:
                    name=s[:].split('\n')[l0-1].strip()[:70]
                    key = f"{p}:{function_name(s, at)}"
                    if key in exceptions:
                        print(f"{p}:{l0}: {line-l0+1} lines, excepted: {exceptions[key]}")
                        continue
                    print(f"{p}:{l0}: {line-l0+1} lines (at most {LIMIT}): {name}")
                    found += 1
if found:
    print(f"{found} function(s) over {LIMIT} lines: split each into named steps")
    sys.exit(1)
