"""html_check.py REPORT.html [PAYLOAD...]: the HTML report holds only the markup prc writes.

Parses the page with the standard library's parser and checks: every element is one prc writes; no
attribute names an event handler, a URL or a style other than the legend swatches'; the only script is
prc's own (the same text in every report); the Content-Security-Policy is default-src 'none' with that
script's hash; and each PAYLOAD (a string from the target) appears in the page's text, never as markup.
"""
import base64
import hashlib
import html.parser
import re
import sys

ALLOWED = {"html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "p", "b", "section",
           "svg", "rect", "text", "span", "dl", "dt", "dd", "form", "label", "input", "article", "table",
           "thead", "tbody", "tr", "th", "td", "code", "details", "summary", "ul", "li", "footer", "script"}
URL_ATTRS = {"href", "src", "action", "formaction", "xlink:href", "srcset", "background", "poster", "data"}


class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.text, self.scripts, self.csp, self.stack = [], [], [], None, []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.stack.append(tag)
        for k, v in attrs:
            assert not k.startswith("on"), f"event handler attribute {k}={v!r} on <{tag}>"
            assert k not in URL_ATTRS, f"URL attribute {k}={v!r} on <{tag}>"
            if k == "style":
                assert re.fullmatch(r"background:#[0-9a-f]{6}", v or ""), f"style {v!r}"
            if k == "http-equiv" and v == "Content-Security-Policy":
                self.csp = dict(attrs)["content"]
        if tag in ("input", "meta"):
            self.stack.pop()

    def handle_endtag(self, tag):
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()

    def handle_data(self, data):
        if self.stack and self.stack[-1] == "script":
            self.scripts.append(data)
        else:
            self.text.append(data)


page = open(sys.argv[1], encoding="utf-8").read()
p = P()
p.feed(page)
p.close()
bad = sorted(set(p.tags) - ALLOWED)
assert not bad, f"elements prc does not write: {bad}"
assert p.tags.count("script") == 1 and len(p.scripts) == 1, f"{p.tags.count('script')} scripts"
h = base64.b64encode(hashlib.sha256(p.scripts[0].encode()).digest()).decode()
assert p.csp is not None and "default-src 'none'" in p.csp and f"script-src 'sha256-{h}'" in p.csp, p.csp
assert "http:" not in p.scripts[0] and "https:" not in p.scripts[0]
text = "".join(p.text)
for payload in sys.argv[2:]:
    assert payload in text, f"payload {payload!r} is not in the page's text"
    assert payload not in page or "<" not in payload and '"' not in payload and "'" not in payload, \
        f"payload {payload!r} appears unescaped in the page's bytes"
print(p.scripts[0])
