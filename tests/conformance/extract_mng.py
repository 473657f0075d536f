# extract_mng.py - the Maven, NuGet and RubyGems extractors against an
# independent reading of the same files: xml.etree for pom.xml, MSBuild
# project files, packages.config and NuGet.config; json for
# packages.lock.json; tomllib for Gradle version catalogs; and plain Python
# for gradle.lockfile, Gemfile.lock and the static lines of a Gemfile.  It
# never uses prc to compute an expectation.
#
#   /usr/bin/python3 extract_mng.py XDUMP [FILE[=INVENTORY-PATH]]...
#
# For each file: prc must extract it (no refusal) with the format this
# script expects from the file name, and the component set (name, version)
# must equal the independent one (version: the exact version the file pins,
# or None; a Gemfile's requirement as written; NuGet.config's sources), and
# for Gemfile.lock and packages.lock.json the edges, ("edge", from, to).
# Deliberate differences are listed in EXCEPTIONS with their reason.
# Ends with "N passed, N failed".
import json
import os
import re
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET

# path suffix -> reason: files whose disagreement is understood and accepted.  Empty: none today.
EXCEPTIONS = {}


def local(tag):
    return tag.rsplit('}', 1)[-1]


def kids(el, name=None):
    return [k for k in el if isinstance(k.tag, str) and (name is None or local(k.tag) == name)]


def child(el, name):
    for k in kids(el, name):
        return k
    return None


def text(el, name):
    c = child(el, name)
    if c is None:
        return None
    return (''.join(c.itertext()) if len(c) else (c.text or '')).strip(' \t\r\n')


# ---- Maven ------------------------------------------------------------------

def maven_exact(v):
    if not v or v[0] in '[(' or '${' in v or ',' in v or v.endswith('+'):
        return None
    if v in ('LATEST', 'RELEASE') or v.startswith('latest.'):
        return None
    return v


def read_pom(data):
    root = ET.fromstring(data)
    parent = child(root, 'parent')
    coords = {
        'version': text(root, 'version') or (text(parent, 'version') if parent is not None else None),
        'groupId': text(root, 'groupId') or (text(parent, 'groupId') if parent is not None else None),
        'artifactId': text(root, 'artifactId'),
    }
    if text(root, 'version') is None and parent is not None:
        coords['version'] = text(parent, 'version')
    if text(root, 'groupId') is None and parent is not None:
        coords['groupId'] = text(parent, 'groupId')
    pcoords = {}
    if parent is not None:
        pcoords = {'parent.version': text(parent, 'version'), 'parent.groupId': text(parent, 'groupId'),
                   'parent.artifactId': text(parent, 'artifactId')}
    props = {}
    pe = child(root, 'properties')
    if pe is not None:
        for p in kids(pe):
            props[local(p.tag)] = (p.text or '').strip(' \t\r\n')

    def lookup(name):
        for pre in ('project.', 'pom.', ''):
            if name.startswith(pre):
                rest = name[len(pre):]
                if rest in coords:
                    return coords[rest]
                if rest in pcoords:
                    return pcoords[rest]
        return props.get(name)

    def interp(s, depth=0):
        """(expanded, fully_resolved)"""
        if s is None:
            return None, True
        ok = True
        out = ''
        i = 0
        while True:
            j = s.find('${', i)
            k = s.find('}', j + 2) if j >= 0 else -1
            if j < 0 or k < 0:
                out += s[i:]
                break
            out += s[i:j]
            name = s[j + 2:k]
            v = lookup(name) if len(name) < 256 else None
            if v is not None and depth < 16:
                e, r = interp(v, depth + 1)
                out += e
                ok = ok and r
            else:
                out += s[j:k + 1]
                ok = False
            i = k + 1
            if len(out) > 4096:
                return s, False
        return out, ok

    def resolved_of(v):
        e, ok = interp(v)
        return maven_exact(e) if ok else None

    def key(d):
        return '%s:%s:%s:%s' % (interp(text(d, 'groupId'))[0], interp(text(d, 'artifactId'))[0],
                                text(d, 'type') or 'jar', text(d, 'classifier') or '')

    managed, pmanaged = {}, {}
    dm = child(root, 'dependencyManagement')
    if dm is not None and child(dm, 'dependencies') is not None:
        for d in kids(child(dm, 'dependencies'), 'dependency'):
            managed.setdefault(key(d), resolved_of(text(d, 'version')) if text(d, 'version') is not None else None)
    b = child(root, 'build')
    if b is not None and child(b, 'pluginManagement') is not None and \
            child(child(b, 'pluginManagement'), 'plugins') is not None:
        for p in kids(child(child(b, 'pluginManagement'), 'plugins'), 'plugin'):
            g = text(p, 'groupId') or 'org.apache.maven.plugins'
            pmanaged.setdefault('%s:%s' % (interp(g)[0], interp(text(p, 'artifactId'))[0]),
                                resolved_of(text(p, 'version')) if text(p, 'version') is not None else None)

    out = set()

    def emit(d, kind):
        g = text(d, 'groupId') or ('org.apache.maven.plugins' if kind == 'plugin' else None)
        name = '%s:%s' % (interp(g)[0], interp(text(d, 'artifactId'))[0])
        v = text(d, 'version')
        if v is not None:
            out.add((name, resolved_of(v)))
        elif kind == 'dep':
            out.add((name, managed.get(key(d))))
        elif kind == 'plugin':
            out.add((name, pmanaged.get(name)))
        else:
            out.add((name, None))

    def section(e, n):
        if n == 'dependencies':
            for d in kids(e, 'dependency'):
                emit(d, 'dep')
        elif n == 'build':
            for x in kids(e):
                if local(x.tag) == 'plugins':
                    for p in kids(x, 'plugin'):
                        emit(p, 'plugin')
                        if child(p, 'dependencies') is not None:
                            for d in kids(child(p, 'dependencies'), 'dependency'):
                                emit(d, 'plugin-dep')
                elif local(x.tag) == 'extensions':
                    for p in kids(x, 'extension'):
                        emit(p, 'extension')
        elif n == 'reporting' and child(e, 'plugins') is not None:
            for p in kids(child(e, 'plugins'), 'plugin'):
                emit(p, 'plugin')

    for e in kids(root):
        n = local(e.tag)
        if n == 'profiles':
            for prof in kids(e, 'profile'):
                for x in kids(prof):
                    section(x, local(x.tag))
        else:
            section(e, n)
    return 'maven-pom', out


def read_gradle_lock(data):
    out = set()
    for line in data.decode().splitlines():
        line = line.strip()
        if not line or line.startswith('#') or line.startswith('empty='):
            continue
        g, a, v = line.split('=', 1)[0].split(':')
        out.add(('%s:%s' % (g, a), v))
    return 'gradle-lockfile', out


def read_catalog(data):
    doc = tomllib.loads(data.decode())
    versions = doc.get('versions', {})

    def ver(v):
        if v is None:
            return None
        if isinstance(v, str):
            return maven_exact(v)
        if 'ref' in v:
            return ver(versions.get(v['ref'])) if v['ref'] in versions else None
        for k in ('strictly', 'require'):
            if k in v:
                return maven_exact(v[k])
        return None

    out = set()
    for alias, lib in doc.get('libraries', {}).items():
        if isinstance(lib, str):
            parts = lib.split(':')
            out.add(('%s:%s' % (parts[0], parts[1]), maven_exact(parts[2]) if len(parts) > 2 else None))
        else:
            ga = lib['module'] if 'module' in lib else '%s:%s' % (lib['group'], lib['name'])
            out.add((ga, ver(lib.get('version'))))
    for alias, p in doc.get('plugins', {}).items():
        if isinstance(p, str):
            pid, _, v = p.partition(':')
            out.add(('%s:%s.gradle.plugin' % (pid, pid), maven_exact(v) if v else None))
        else:
            out.add(('%s:%s.gradle.plugin' % (p['id'], p['id']), ver(p.get('version'))))
    return 'gradle-version-catalog', out


# ---- NuGet ------------------------------------------------------------------

def nuget_exact(v):
    if not v or any(c in v for c in '*$,') or any(c.isspace() for c in v):
        return None
    if v[0] == '[' and v[-1] == ']' and len(v) > 2:
        return v[1:-1]
    if v[0] in '[(' or v[-1] in ')]':
        return None
    return v


def read_msbuild(data, fmt):
    root = ET.fromstring(data)
    props = {}
    for g in kids(root, 'PropertyGroup'):
        if 'Condition' in g.attrib:
            continue
        for p in kids(g):
            if 'Condition' in p.attrib or len(p):
                continue
            props[local(p.tag).lower()] = (p.text or '').strip(' \t\r\n')

    def interp(s, depth=0):
        if s is None:
            return None, True
        ok, out, i = True, '', 0
        while True:
            j = s.find('$(', i)
            k = s.find(')', j + 2) if j >= 0 else -1
            if j < 0 or k < 0:
                return out + s[i:], ok
            out += s[i:j]
            name = s[j + 2:k]
            v = props.get(name.lower()) if not name.startswith('[') else None
            if v is not None and depth < 16:
                e, r = interp(v, depth + 1)
                out += e
                ok = ok and r
            else:
                out += s[j:k + 1]
                ok = False
            i = k + 1

    out = set()

    def meta(it, n):
        if n in it.attrib:
            return it.attrib[n]
        c = child(it, n)
        return None if c is None else (c.text or '').strip(' \t\r\n')

    def walk(el):
        for k in kids(el):
            n = local(k.tag)
            if n in ('PackageReference', 'GlobalPackageReference', 'PackageVersion', 'PackageDownload'):
                if 'Include' not in k.attrib:
                    continue
                v = meta(k, 'VersionOverride') or meta(k, 'Version')
                if meta(k, 'VersionOverride') is not None:
                    v = meta(k, 'VersionOverride')
                e, ok = interp(v)
                out.add((interp(k.attrib['Include'])[0], nuget_exact(e) if ok else None))
            elif n in ('ItemGroup', 'Choose', 'When', 'Otherwise'):
                walk(k)
    walk(root)
    return fmt, out


def read_packages_config(data):
    root = ET.fromstring(data)
    return 'nuget-packages-config', {(p.attrib['id'], nuget_exact(p.attrib['version']))
                                     for p in kids(root, 'package')}


def read_packages_lock(data):
    """The packages, and ("edge", from, to) by id (any case) in the same framework, else its base framework."""
    doc = json.loads(data)
    out = set()
    by = {}
    for tfm, pkgs in doc['dependencies'].items():
        for name, e in pkgs.items():
            out.add((name, e.get('resolved')))
            by[(tfm, name.lower())] = (name, e.get('resolved'))
    for tfm, pkgs in doc['dependencies'].items():
        for name, e in pkgs.items():
            for d in e.get('dependencies') or {}:
                t = by.get((tfm, d.lower())) or by.get((tfm.split('/')[0], d.lower()))
                if t and t != (name, e.get('resolved')):
                    out.add(('edge', (name, e.get('resolved')), t))
    return 'nuget-packages-lock', out


def strip_userinfo(url):
    m = re.match(r'^([^:/?#]+://)([^/?#]*@)?(.*)$', url, re.S)
    if m and m.group(2):
        auth = url[len(m.group(1)):]
        end = len(auth)
        for c in '/?#':
            p = auth.find(c)
            if p >= 0:
                end = min(end, p)
        at = auth.rfind('@', 0, end)
        return m.group(1) + auth[at + 1:]
    return url


def read_nuget_config(data):
    root = ET.fromstring(data)
    out = set()
    src = child(root, 'packageSources')
    if src is not None:
        for a in kids(src, 'add'):
            out.add((a.attrib['key'], strip_userinfo(a.attrib['value'])))
    return 'nuget-config', out


# ---- RubyGems ---------------------------------------------------------------

SPEC = re.compile(r'^(\S+?)(?: \(([^-)]*)(?:-([^)]*))?\))?(!)?$')


def read_gemfile_lock(data):
    """The specs, and ("edge", from, to) from each spec's nested lines to every spec of that name."""
    out = set()
    nested = []
    section = None
    in_specs = False
    for line in data.decode().split('\n'):
        line = line.rstrip('\r')
        if not line.strip():
            section = None
            continue
        if not line.startswith(' '):
            section, in_specs = line, False
            continue
        if section in ('GEM', 'GIT', 'PATH', 'PLUGIN SOURCE'):
            if line == '  specs:':
                in_specs = True
            elif in_specs and line.startswith('    ') and not line.startswith('     '):
                m = SPEC.match(line[4:])
                cur = (m.group(1), m.group(2))
                out.add(cur)
            elif in_specs and line.startswith('      ') and not line.startswith('       '):
                nested.append((cur, SPEC.match(line[6:]).group(1)))
    for frm, name in nested:
        for to in [c for c in out if c[0] == name]:
            if to != frm:
                out.add(('edge', frm, to))
    return 'gem-gemfile-lock', out


LIT = r"""(?:"[^"#]*"|'[^']*'|:\w+[?!]?|true|false|nil|\d[\w.]*|\[[^\]]*\]|%[wi][\[(][^\])]*[\])])"""
ARG = re.compile(r"""^\s*(?:%s|\w+:\s*%s|(?::\w+|"[^"]*"|'[^']*')\s*=>\s*%s)\s*$""" % (LIT, LIT, LIT))
STR = re.compile(r"""^\s*(["'])([^"'#]*)\1\s*$""")


def split_args(s):
    """Split at commas outside quotes and brackets."""
    parts, cur, q, depth = [], '', None, 0
    for c in s:
        if q:
            q = None if c == q else q
        elif c in '"\'':
            q = c
        elif c in '[(':
            depth += 1
        elif c in '])':
            depth -= 1
        elif c == ',' and depth == 0:
            parts.append(cur)
            cur = ''
            continue
        cur += c
    parts.append(cur)
    return parts


def read_gemfile(data):
    """A Gemfile line counts when it is gem "name" followed only by literal arguments."""
    out = set()
    lines = data.decode().split('\n')
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if not re.match(r'gem[ \t]', line):
            continue
        while line.endswith(',') and i < len(lines):
            line += ' ' + lines[i].strip()
            i += 1
        line = re.sub(r"""\s+#[^"']*$""", '', line)
        args = split_args(line[3:])
        if '#{' in line or not all(ARG.match(a) for a in args) or not STR.match(args[0]):
            continue
        reqs = [STR.match(a).group(2) for a in args[1:] if STR.match(a)]
        out.add((STR.match(args[0]).group(2), ', '.join(reqs) if reqs else None))
    return 'gem-gemfile', out


def reader_for(path):
    b = os.path.basename(path)
    lb = b.lower()
    if b == 'pom.xml':
        return read_pom
    if b.endswith('gradle.lockfile'):
        return read_gradle_lock
    if b.endswith('.versions.toml'):
        return read_catalog
    if lb.endswith(('.csproj', '.fsproj', '.vbproj')) or lb in ('directory.build.props', 'directory.build.targets'):
        return lambda d: read_msbuild(d, 'nuget-msbuild-project')
    if lb == 'directory.packages.props':
        return lambda d: read_msbuild(d, 'nuget-central-packages')
    if lb == 'packages.config':
        return read_packages_config
    if lb == 'packages.lock.json':
        return read_packages_lock
    if lb == 'nuget.config':
        return read_nuget_config
    if b in ('Gemfile.lock', 'gems.locked'):
        return read_gemfile_lock
    if b in ('Gemfile', 'gems.rb'):
        return read_gemfile
    return None


def prc_set(md):
    fmt = md['format']
    if fmt == 'nuget-config':
        return {(r['name'], r['url']) for r in md['registries']}
    if fmt == 'gem-gemfile':
        return {(d['name'], d['requirement']) for d in md['dependencies']}
    deps = md['dependencies']
    edges = {('edge', (d['name'], d['resolved']), (deps[i]['name'], deps[i]['resolved']))
             for d in deps for i in d['depends_on'] or []}
    return {(d['name'], d['resolved']) for d in deps} | {e for e in edges if e[1] != e[2]}


def main():
    xdump = sys.argv[1]
    passed = failed = 0
    for arg in sys.argv[2:]:
        path, _, inv = arg.partition('=')
        inv = inv or path
        exc = next((r for s, r in EXCEPTIONS.items() if path.endswith(s)), None)
        reader = reader_for(inv)
        if reader is None:
            print('FAIL %s: no independent reader for this file name' % path)
            failed += 1
            continue
        with open(path, 'rb') as f:
            data = f.read()
        want_fmt, want = reader(data)
        r = subprocess.run([xdump, '-p', inv, path], capture_output=True, text=True)
        fields = r.stdout.rstrip('\n').split('\t')
        problem = None
        if len(fields) < 3 or fields[1] != 'ok':
            problem = 'prc refused it: %s' % '\t'.join(fields[1:])
        else:
            md = json.loads(fields[2])
            got = prc_set(md)
            if md['format'] != want_fmt:
                problem = 'format %s, want %s' % (md['format'], want_fmt)
            elif got != want:
                problem = 'only prc: %s; only the independent reading: %s' % (sorted(got - want, key=str),
                                                                               sorted(want - got, key=str))
        if problem is None and exc is None:
            passed += 1
        elif problem is not None and exc is not None:
            print('ok %s (listed exception: %s)' % (path, exc))
            passed += 1
        elif problem is None:
            print('FAIL %s: listed as an exception (%s) but agrees: remove it from EXCEPTIONS' % (path, exc))
            failed += 1
        else:
            print('FAIL %s: %s' % (path, problem))
            failed += 1
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
