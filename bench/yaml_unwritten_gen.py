#!/usr/bin/env python3
"""yaml_unwritten_gen.py DIR N SEED: write N small scalar-heavy YAML documents
into DIR (g00000.yaml ...) for bench/yaml_unwritten.sh.  Double- and
single-quoted scalars (escapes, escaped and folded line breaks, white space at
line ends, CR LF), block scalars (every header: | > with 1-3 and - +, white-space-only
lines longer and shorter than the indentation, tabs, content at and left of the
parent's indentation) and plain multi-line scalars, in every block context, some
ending the input without a final line break."""
import os
import random
import sys

ESC = ['\\\\', '\\"', '\\ ', '\\t', '\\\t', '\\n', '\\0', '\\x41', '\\xe9', '\\u00e9', '\\u2028',
       '\\U0001F600', '\\uD834\\uDD1E', '\\N', '\\_', '\\L', '\\P', '\\e', '\\/', '\\a']
WORDS = ['a', 'b c', "x'y", '#z', '-', ':', 'q\u00e9', '\u2028', '\u0085']
BREAKS = ['\n', '\r\n', '\n\n', '\n \n', '\n\t\n', '\r\n\r\n']


def white():
    return random.choice(['', '', ' ', '  ', '\t', ' \t '])


def dquoted(ind):
    out = []
    for _ in range(random.randint(1, 7)):
        k = random.random()
        if k < 0.35:
            out.append(random.choice(ESC))
        elif k < 0.6:
            out.append(random.choice(WORDS).replace('"', ''))
        elif k < 0.8:
            out.append(white() + random.choice(['', '\\', '\\ ', '\\t']) + random.choice(BREAKS) +
                       ' ' * (ind + random.randint(0, 2)) + white())
        else:
            out.append(white())
    return '"' + ''.join(out) + '"'


def squoted(ind):
    out = []
    for _ in range(random.randint(1, 6)):
        k = random.random()
        if k < 0.3:
            out.append("''" * random.randint(1, 4))
        elif k < 0.6:
            out.append(random.choice(WORDS).replace("'", ''))
        elif k < 0.85:
            out.append(white() + random.choice(BREAKS) + ' ' * (ind + random.randint(0, 2)) + white())
        else:
            out.append(white())
    return "'" + ''.join(out) + "'"


def block(parent):
    m = random.choice([0, 0, 1, 2, 3])
    ind = (parent if parent > 0 else 0) + (m if m else random.choice([1, 2, 3]))
    hdr = random.choice('|>') + ''.join(random.sample([str(m) if m else '', random.choice(['', '-', '+'])], 2))
    if random.random() < 0.2:
        hdr += ' # c|>'
    lines = []
    for _ in range(random.randint(0, 6)):
        k = random.random()
        if k < 0.25:
            lines.append(' ' * random.randint(0, ind + 3))
        elif k < 0.4:
            lines.append(' ' * random.randint(0, ind + 2) + random.choice(['\t', ' \t', '\t ', '  ']))
        elif k < 0.9:
            lines.append(' ' * (ind + random.choice([0, 0, 0, 1, 2])) + random.choice(['x', 'a b', '\tq', ' y', 'z: 1']))
        else:
            lines.append(' ' * random.randint(0, ind) + 'w')
    return hdr + '\n' + ''.join(l + random.choice(['\n', '\n', '\r\n']) for l in lines)


def plain(ind):
    return 'p' + ''.join(random.choice([' q', '\n' + ' ' * (ind + 1) + 'r', '\n\n' + ' ' * (ind + 1) + 's', '  t']) for _ in range(random.randint(0, 3)))


def value(parent):
    k = random.random()
    if k < 0.35:
        return ' ' + dquoted(parent + 1)
    if k < 0.55:
        return ' ' + squoted(parent + 1)
    if k < 0.9:
        return ' ' + block(parent)
    return ' ' + plain(parent)


def doc():
    ctx = random.choice(['top', 'map', 'seq', 'nested', 'seqmap', 'flow', 'key'])
    if ctx == 'top':
        return value(-1).lstrip(' ')
    if ctx == 'map':
        return 'k:' + value(0) + ('\nj: 1\n' if random.random() < 0.5 else '')
    if ctx == 'seq':
        return '-' + value(0) + ('\n- 1\n' if random.random() < 0.5 else '')
    if ctx == 'nested':
        return 'a:\n  k:' + value(2) + ('\n  j: 1\n' if random.random() < 0.5 else '')
    if ctx == 'seqmap':
        return '- k:' + value(2) + ('\n  j: 1\n' if random.random() < 0.5 else '')
    if ctx == 'flow':
        return '[' + dquoted(1) + ', ' + squoted(1) + ']\n'
    return dquoted(0) + ':' + value(0) + '\n'


def main():
    d, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    random.seed(seed)
    os.makedirs(d, exist_ok=True)
    for i in range(n):
        text = doc()
        if random.random() < 0.15:
            text = '%YAML 1.1\n---\n' + text
        if random.random() < 0.15:     # the end of the input right after the scalar
            text = text.rstrip('\n') + random.choice(['', ' ', '  ', '   ', '\n  '])
        with open(os.path.join(d, 'g%05d.yaml' % i), 'w', encoding='utf-8', newline='') as f:
            f.write(text)


main()
