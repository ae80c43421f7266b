#!/usr/bin/env python3
"""Checks of the HTML writers' pages for tests/report/report-html.sh.

  html_check.py lint FILE   exit 1, naming the place, when the page is not strict UTF-8, leaves an
                            element open or closes the wrong one, or is less than self-contained or
                            inert: a script, an event handler, anything fetched (src, a link out of
                            the page, url() or @import in its CSS)
  html_check.py png FILE    prints "WIDTH HEIGHT INK COLOURS" of a screenshot: INK is the share of
                            pixels that differ from the most common one (the background)
"""
import collections
import struct
import sys
import zlib
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
FORBIDDEN = {"script", "link", "iframe", "frame", "img", "object", "embed", "base", "form", "input", "audio",
             "video", "source", "use", "image", "foreignobject"}


class Lint(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.errors = []

    def error_at(self, what):
        self.errors.append("line %d: %s" % (self.getpos()[0], what))

    def check(self, tag, attrs):
        if tag in FORBIDDEN:
            self.error_at("<%s>" % tag)
        for name, value in attrs:
            value = value or ""
            if name.startswith("on") or name in ("src", "srcset", "action", "formaction", "style"):
                self.error_at("attribute %s=%r on <%s>" % (name, value, tag))
            if name in ("href", "xlink:href") and not value.startswith("#"):
                self.error_at("link out of the page: %s=%r" % (name, value))

    def handle_starttag(self, tag, attrs):
        self.check(tag, attrs)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.check(tag, attrs)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.error_at("</%s> closes <%s>" % (tag, self.stack[-1] if self.stack else "nothing"))
            return
        self.stack.pop()

    def handle_data(self, data):
        if self.stack and self.stack[-1] == "style" and ("url(" in data or "@import" in data):
            self.error_at("the CSS fetches something")


def lint(path):
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8", errors="strict")
    except UnicodeDecodeError as e:
        print("%s: not UTF-8: %s" % (path, e))
        return 1
    if not text.startswith("<!DOCTYPE html>"):
        print("%s: no <!DOCTYPE html>" % path)
        return 1
    p = Lint()
    p.feed(text)
    p.close()
    if p.stack:
        p.errors.append("unclosed at the end: %s" % " ".join(p.stack))
    for e in p.errors:
        print("%s: %s" % (path, e))
    return 1 if p.errors else 0


def unfilter(data, width, height, bpp):
    stride = width * bpp
    rows, prev, pos = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = data[pos], bytearray(data[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return rows


def png(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:8] != b"\x89PNG\r\n\x1a\n":
        print("%s: not a PNG" % path)
        return 1
    pos, idat, width = 8, b"", 0
    while pos < len(raw):
        length, kind = struct.unpack(">I4s", raw[pos:pos + 8])
        body = raw[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    if not width or depth != 8 or colour not in (2, 6):
        print("%s: not an 8-bit RGB(A) PNG" % path)
        return 1
    bpp = 3 if colour == 2 else 4
    counts = collections.Counter()
    for row in unfilter(zlib.decompress(idat), width, height, bpp):
        counts.update(row[i:i + 3] for i in range(0, len(row), bpp))
    total = width * height
    print(width, height, "%.4f" % (1 - counts.most_common(1)[0][1] / total), len(counts))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("lint", "png"):
        sys.exit(__doc__)
    sys.exit(lint(sys.argv[2]) if sys.argv[1] == "lint" else png(sys.argv[2]))
