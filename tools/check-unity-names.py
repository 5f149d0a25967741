#!/usr/bin/env python3
# Names defined in an anonymous namespace by more than one source of a folder (docs/contributing/
# building-and-testing.md#unity-builds): in one unity batch they collide, or a call picks the other
# file's overload. A rough scan (no preprocessor; enclosing named namespaces are not told apart).
#   tools/check-unity-names.py core widgets app/gui app/cli
import re,sys,os,collections
def names(path):
    out=set()
    depth=0; anon_depth=None
    src=open(path,errors='replace').read()
    # strip comments and strings roughly
    src=re.sub(r'//[^\n]*','',src); src=re.sub(r'/\*.*?\*/','',src,flags=re.S)
    src=re.sub(r'R"(\w*)\(.*?\)\1"','""',src,flags=re.S); src=re.sub(r'"(\\.|[^"\\])*"','""',src)
    lines=src.split('\n')
    stack=[]  # kinds of open braces
    for line in lines:
        s=line.strip()
        top_anon = any(k=='anon' for k in stack) and all(k in('anon','ns') for k in stack)
        if top_anon:
            m=re.match(r'(?:static\s+)?(?:inline\s+)?(?:constexpr\s+|const\s+)+[\w:<>,\s\*&]+?\b(k\w+|[A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*(?:=|\{|;)',s)
            if m: out.add(m.group(1))
            m=re.match(r'(?:\[\[\w+\]\]\s*)?(?:static\s+)?(?:inline\s+)?(?:constexpr\s+)?[\w:<>,\*&\s]+?[\s\*&](\w+)\s*\(',s)
            if m and not s.startswith(('return','if','for','while','switch','using','namespace','template','else')) and m.group(1) not in('operator',):
                out.add(m.group(1))
            m=re.match(r'(?:struct|class|enum class|enum)\s+(\w+)',s)
            if m: out.add(m.group(1))
            m=re.match(r'using\s+(\w+)\s*=',s)
            if m: out.add('using '+m.group(1))
        for ch in line:
            pass
        # brace tracking
        opens=line.count('{'); closes=line.count('}')
        if opens:
            if re.match(r'\s*namespace\s*\{',line): kind='anon'
            elif re.match(r'\s*namespace\s+[\w:]+\s*\{',line): kind='ns'
            else: kind='other'
            stack.append(kind)
            for _ in range(opens-1): stack.append('other')
        for _ in range(closes):
            if stack: stack.pop()
    return out
for d in sys.argv[1:]:
    files=[os.path.join(r,f) for r,_,fs in os.walk(d) for f in fs if f.endswith('.cpp')]
    where=collections.defaultdict(list)
    for f in files:
        for n in names(f): where[n].append(f)
    for n,fs in sorted(where.items()):
        if len(fs)>1 and not n.startswith('using '): print(d, n, ' '.join(sorted(fs)))
