#!/usr/bin/env python3
"""Build the "Kettle & Compass" sample library for Newsstand.

Reads the article fragments under source/articles/<issue>/ and the issue list
in source/issues.json, then writes (relative to the SampleLibrary folder):

    covers/<issue>.png|jpg    cover art, drawn with Pillow
    issues/<issue>.epub       one EPUB 3 file per issue (with an NCX as well)
    catalog.plist             the shelf catalog (XML property list)

Everything is deterministic: zip entries carry fixed timestamps and
permissions, identifiers are UUIDv5s derived from the issue name, and the
figures/covers are drawn from fixed parameters, so running the script twice
with the same Pillow/zlib gives byte-identical output.

Usage:  python3 source/build.py          (needs Pillow: pip install pillow)
"""

import datetime
import hashlib
import html
import io
import json
import math
import os
import plistlib
import random
import re
import sys
import uuid
import zipfile
import xml.etree.ElementTree as ET

from PIL import Image, ImageDraw, ImageFont

SOURCE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(SOURCE)
PUBLICATION = "Kettle & Compass"
TAGLINE = "A quarterly of craft, cities, science & slow living"
PUBLISHER = "Kettle & Compass (sample publication)"
ID_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://newsstand.invalid/kettle-and-compass/")

XHTML_NS = "http://www.w3.org/1999/xhtml"
COVER_SIZE = (600, 800)
SS = 2  # supersampling factor for cover drawing

# --------------------------------------------------------------------------
# Fonts

FONT_DIRS = [
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/dejavu",
    "/usr/share/fonts/TTF",
    "/Library/Fonts",
    os.path.expanduser("~/Library/Fonts"),
]


def font(name, size):
    for d in FONT_DIRS:
        path = os.path.join(d, name)
        if os.path.exists(path):
            return ImageFont.truetype(path, size)
    sys.stderr.write("warning: font %s not found, using Pillow's default\n" % name)
    return ImageFont.load_default(size)


BOLD_COND = "DejaVuSansCondensed-Bold.ttf"
BOLD = "DejaVuSans-Bold.ttf"
REGULAR = "DejaVuSans.ttf"
SERIF_BOLD = "DejaVuSerif-Bold.ttf"


def fit_font(draw, text, name, max_width, max_size):
    size = max_size
    while size > 8:
        f = font(name, size)
        l, t, r, b = draw.textbbox((0, 0), text, font=f)
        if r - l <= max_width:
            return f
        size -= 2
    return font(name, size)


def text_centered(draw, y, text, f, fill, width):
    l, t, r, b = draw.textbbox((0, 0), text, font=f)
    draw.text(((width - (r - l)) / 2 - l, y - t), text, font=f, fill=fill)
    return b - t


# --------------------------------------------------------------------------
# Cover designs.  Each draws the big shapes for one issue on a canvas that is
# SS times the final size; text is laid over them by draw_cover().


def design_thaw(d, W, H):
    # big low sun over broken ice floes
    r = int(W * 0.35)
    cx, cy = W // 2, int(H * 0.53)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill="#f6d44a")
    y = int(H * 0.70)
    floes = [(0.00, 0.30), (0.36, 0.58), (0.64, 1.00)]
    for i, (a, b) in enumerate(floes):
        x0, x1 = int(a * W), int(b * W)
        dy = (i % 2) * 18 * SS
        d.polygon([(x0, y + dy), (x1 - 20 * SS, y + dy - 10 * SS),
                   (x1, y + dy + 60 * SS), (x0 + 14 * SS, y + dy + 70 * SS)], fill="#eaf6f0")


def design_salt(d, W, H):
    # lighthouse beam sweeping over striped sea
    d.polygon([(int(W * 0.08), int(H * 0.40)), (W, int(H * 0.27)), (W, int(H * 0.53))], fill="#ffd23f")
    d.ellipse((int(W * 0.04), int(H * 0.38), int(W * 0.12), int(H * 0.42) + 8 * SS), fill="#fff6c8")
    for k in range(3):
        base = H * (0.58 + k * 0.07)
        pts = []
        for x in range(0, W + 1, 8 * SS):
            pts.append((x, base + math.sin(x / W * math.tau * 2 + k) * 10 * SS))
        thick = 16 * SS
        poly = pts + [(x, y + thick) for (x, y) in reversed(pts)]
        d.polygon(poly, fill="#e9f3ff" if k % 2 == 0 else "#7fb2e5")


def design_mending(d, W, H):
    # a cream bowl, cracked and mended with a gold seam
    cx, top = W // 2, int(H * 0.30)
    r = int(W * 0.40)
    d.pieslice((cx - r, top - r, cx + r, top + r), 0, 180, fill="#f7ecd8")
    d.rectangle((cx - r, top - 6 * SS, cx + r, top), fill="#f7ecd8")
    d.rectangle((cx - int(r * 0.35), top + int(r * 0.92), cx + int(r * 0.35), top + r + 16 * SS), fill="#f7ecd8")
    seam = [(cx - int(r * 0.55), top), (cx - int(r * 0.30), top + int(r * 0.25)),
            (cx - int(r * 0.40), top + int(r * 0.45)), (cx - int(r * 0.05), top + int(r * 0.62)),
            (cx - int(r * 0.15), top + int(r * 0.80)), (cx + int(r * 0.10), top + int(r * 0.98))]
    d.line(seam, fill="#1c1208", width=26 * SS, joint="curve")
    d.line(seam, fill="#ffc233", width=12 * SS, joint="curve")


def design_nights(d, W, H):
    rng = random.Random(2025)
    for _ in range(70):
        x, y = rng.randrange(W), rng.randrange(int(H * 0.26), int(H * 0.72))
        s = rng.choice((2, 2, 3, 4)) * SS
        d.ellipse((x - s, y - s, x + s, y + s), fill="#dfe6ff")
    r = int(W * 0.26)
    cx, cy = int(W * 0.64), int(H * 0.44)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill="#f4f1e1")
    for (dx, dy, rr) in ((-0.3, -0.2, 0.16), (0.25, 0.25, 0.11), (0.05, 0.45, 0.07)):
        x, y, q = cx + int(dx * r), cy + int(dy * r), int(rr * r)
        d.ellipse((x - q, y - q, x + q, y + q), fill="#d9d4bd")
    pts = [(0, H)]
    for x in range(0, W + 1, 10 * SS):
        pts.append((x, H * 0.70 + math.sin(x / W * 3.1) * 40 * SS - math.cos(x / W * 9) * 10 * SS))
    pts.append((W, H))
    d.polygon(pts, fill="#1d2a55")


def gear(d, cx, cy, r_out, r_in, teeth, hole, fill, bg, phase=0.0):
    pts = []
    step = math.tau / teeth
    for i in range(teeth):
        a = i * step + phase
        for frac, rad in ((0.0, r_in), (0.12, r_out), (0.5, r_out), (0.62, r_in)):
            ang = a + frac * step
            pts.append((cx + rad * math.cos(ang), cy + rad * math.sin(ang)))
    d.polygon(pts, fill=fill)
    d.ellipse((cx - r_in * 0.92, cy - r_in * 0.92, cx + r_in * 0.92, cy + r_in * 0.92), fill=fill)
    d.ellipse((cx - hole, cy - hole, cx + hole, cy + hole), fill=bg)


def design_engines(d, W, H):
    gear(d, int(W * 0.42), int(H * 0.51), int(W * 0.34), int(W * 0.27), 12, int(W * 0.09), "#fff4ea", "#c8102e")
    gear(d, int(W * 0.84), int(H * 0.29), int(W * 0.19), int(W * 0.145), 8, int(W * 0.05), "#1a1a1a", "#c8102e", phase=0.2)


def design_margins(d, W, H):
    # contour lines / tree rings: a few bold rings, crossed by a teal path
    cx, cy = int(W * 0.34), int(H * 0.52)
    for i, r in enumerate(range(int(W * 0.58), 0, -int(W * 0.10))):
        wob = (i % 2) * 10 * SS
        d.ellipse((cx - r - wob, cy - r, cx + r, cy + r + wob), fill="#4b1f73" if i % 2 == 0 else "#f3ead3")
    d.line([(0, int(H * 0.36)), (int(W * 0.42), int(H * 0.56)), (int(W * 0.62), int(H * 0.44)), (W, int(H * 0.62))],
           fill="#13a3a5", width=30 * SS, joint="curve")
    # a plain margin at the foot of the page for the title
    d.rectangle((0, int(H * 0.69), W, H), fill="#f3ead3")
    d.rectangle((0, int(H * 0.69), W, int(H * 0.69) + 6 * SS), fill="#4b1f73")


DESIGNS = {
    "thaw": dict(draw=design_thaw, bg="#2e7d4f", band="#0f2a1b", band_text="#f6d44a", title="#ffffff", sub="#d7f0e0"),
    "salt": dict(draw=design_salt, bg="#173a73", band="#ffd23f", band_text="#173a73", title="#ffffff", sub="#cfe3ff"),
    "mending": dict(draw=design_mending, bg="#e0731c", band="#1c1208", band_text="#ffc233", title="#1c1208", sub="#3d2410"),
    "nights": dict(draw=design_nights, bg="#0b1026", band="#0b1026", band_text="#f4f1e1", title="#f4f1e1", sub="#9fb0e0"),
    "engines": dict(draw=design_engines, bg="#c8102e", band="#1a1a1a", band_text="#ffffff", title="#ffffff", sub="#ffd9d9"),
    "margins": dict(draw=design_margins, bg="#f3ead3", band="#4b1f73", band_text="#f3ead3", title="#2a0f45", sub="#0f6b6d"),
}


def draw_cover(issue):
    spec = DESIGNS[issue["design"]]
    W, H = COVER_SIZE[0] * SS, COVER_SIZE[1] * SS
    img = Image.new("RGB", (W, H), spec["bg"])
    d = ImageDraw.Draw(img)
    spec["draw"](d, W, H)
    margin = 30 * SS
    # masthead band
    band_h = 190 * SS
    d.rectangle((0, 0, W, band_h), fill=spec["band"])
    f = fit_font(d, PUBLICATION.upper(), BOLD_COND, W - 2 * margin, 96 * SS)
    text_centered(d, 24 * SS, PUBLICATION.upper(), f, spec["band_text"], W)
    f = fit_font(d, TAGLINE.upper(), REGULAR, W - 2 * margin, 17 * SS)
    text_centered(d, 112 * SS, TAGLINE.upper(), f, spec["band_text"], W)
    # issue line under the band
    line = "No. %d  —  %s" % (issue["number"], issue["season"])
    f = font(BOLD, 24 * SS)
    text_centered(d, 148 * SS, line, f, spec["band_text"], W)
    # big issue title at the bottom
    lines = issue["cover_lines"]
    y = H - 40 * SS
    for text in reversed(lines):
        f = fit_font(d, text, BOLD_COND, W - 2 * margin, 120 * SS)
        l, t, r, b = d.textbbox((0, 0), text, font=f)
        y -= (b - t)
        d.text(((W - (r - l)) / 2 - l, y - t), text, font=f, fill=spec["title"],
               stroke_width=3 * SS, stroke_fill=spec["bg"])
        y -= 14 * SS
    return img.resize(COVER_SIZE, Image.LANCZOS)


def encode_cover(img, fmt):
    buf = io.BytesIO()
    if fmt == "png":
        img.save(buf, "PNG", optimize=True)
    elif fmt == "jpg":
        img.save(buf, "JPEG", quality=88, optimize=True)
    elif fmt == "progressive-jpg":
        img.save(buf, "JPEG", quality=88, optimize=True, progressive=True)
    else:
        raise ValueError(fmt)
    return buf.getvalue()


# --------------------------------------------------------------------------
# Small figures embedded in articles (referenced as src="images/<name>.png")


def fig_sea_glow():
    W, H = 560, 260
    img = Image.new("RGB", (W, H), "#06122b")
    d = ImageDraw.Draw(img)
    rng = random.Random(7)
    pts = [(x, 150 + math.sin(x / 45.0) * 22) for x in range(0, W + 1, 4)]
    d.line(pts, fill="#2a4d7a", width=3)
    for x, y in pts[::2]:
        for _ in range(2):
            px, py = x + rng.randint(-6, 6), y + rng.randint(-4, 10)
            s = rng.choice((1, 2, 2, 3))
            d.ellipse((px - s, py - s, px + s, py + s), fill="#5ff5e8")
    d.polygon([(220, 120), (300, 112), (318, 126), (226, 134)], fill="#d8d8d8")
    f = font(REGULAR, 15)
    d.text((16, 14), "Wake of a rowing boat, Lyme Bay, 2 a.m. (sketch)", font=f, fill="#cfe3ff")
    d.text((16, 228), "each dot: one flash from a disturbed dinoflagellate", font=f, fill="#5ff5e8")
    return img


def fig_bicycle_trail():
    W, H = 560, 350
    img = Image.new("RGB", (W, H), "#fbf7f0")
    d = ImageDraw.Draw(img)
    f = font(REGULAR, 15)
    fb = font(BOLD, 15)
    ground = 292
    d.line([(20, ground), (W - 20, ground)], fill="#333333", width=2)
    cx, cy, r = 250, ground - 110, 110
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline="#333333", width=4)
    # steering axis tilted back 18 degrees from vertical; the bike travels to the right
    tilt = math.radians(18)
    offset = 12  # fork offset (rake), perpendicular distance from axis to hub
    trail = (r * math.sin(tilt) - offset) / math.cos(tilt)
    gx = cx + trail
    along = lambda h: gx - math.tan(tilt) * h  # x of the axis at height h above ground
    d.line([(along(250), ground - 250), (gx, ground)], fill="#c8102e", width=3)
    crown_h = 110 + 85
    d.line([(along(crown_h + 40), ground - crown_h - 40), (along(crown_h), ground - crown_h), (cx, cy)],
           fill="#555555", width=6, joint="curve")
    d.ellipse((cx - 6, cy - 6, cx + 6, cy + 6), fill="#333333")
    d.ellipse((gx - 5, ground - 5, gx + 5, ground + 5), fill="#c8102e")
    d.ellipse((cx - 5, ground - 5, cx + 5, ground + 5), fill="#1f6feb")
    d.line([(cx, ground + 14), (gx, ground + 14)], fill="#111111", width=3)
    d.line([(cx, ground + 9), (cx, ground + 19)], fill="#111111", width=2)
    d.line([(gx, ground + 9), (gx, ground + 19)], fill="#111111", width=2)
    d.text((cx - 12, ground + 24), "trail", font=fb, fill="#111111")
    d.text((cx + r + 24, ground - 232), "steering axis", font=f, fill="#c8102e")
    d.line([(cx + r + 20, ground - 222), (along(228) + 4, ground - 228)], fill="#c8102e", width=1)
    d.text((cx - 190, ground + 24), "tyre contact", font=f, fill="#1f6feb")
    d.line([(cx - 95, ground + 32), (cx - 6, ground + 4)], fill="#1f6feb", width=1)
    d.text((24, 16), "Front wheel seen from the side", font=fb, fill="#111111")
    d.text((400, ground - 40), "travel", font=f, fill="#333333")
    d.line([(400, ground - 18), (520, ground - 18)], fill="#333333", width=2)
    d.polygon([(520, ground - 24), (532, ground - 18), (520, ground - 12)], fill="#333333")
    return img


def fig_tree_rings():
    W, H = 420, 420
    img = Image.new("RGB", (W, H), "#f6efe2")
    d = ImageDraw.Draw(img)
    rng = random.Random(1923)
    cx, cy = 190, 215
    r = 8.0
    widths = [rng.uniform(2.5, 6.0) for _ in range(34)]
    widths[20] = 1.2  # the drought year
    widths[21] = 1.6
    for i, w in enumerate(widths):
        r += w
        d.ellipse((cx - r * 1.05, cy - r, cx + r, cy + r * 0.97), outline="#7a4a1d" if i != 20 else "#c8102e", width=2)
    d.ellipse((cx - 5, cy - 5, cx + 5, cy + 5), fill="#7a4a1d")
    f = font(REGULAR, 14)
    d.text((12, 12), "Cross-section, street plane tree (sketch)", font=font(BOLD, 14), fill="#3b2410")
    label = "narrow red ring: a dry year"
    l, t, rr, b = d.textbbox((0, 0), label, font=f)
    d.text((W - 12 - rr, 396), label, font=f, fill="#c8102e")
    d.text((12, 396), "pith", font=f, fill="#3b2410")
    d.line([(40, 396), (cx - 6, cy + 4)], fill="#3b2410", width=1)
    return img


FIGURES = {
    "sea-glow": fig_sea_glow,
    "bicycle-trail": fig_bicycle_trail,
    "tree-rings": fig_tree_rings,
}


def png_bytes(img):
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    return buf.getvalue()


# --------------------------------------------------------------------------
# EPUB assembly

CSS = """\
body { font-family: Georgia, serif; line-height: 1.5; margin: 0 5%; }
h1 { font-size: 1.6em; margin: 1.2em 0 0.3em; }
h2 { font-size: 1.2em; margin: 1.4em 0 0.4em; }
p { margin: 0 0 0.8em; }
p.byline { font-style: italic; color: #555; margin-bottom: 1.5em; }
p.standfirst { font-size: 1.1em; }
blockquote { margin: 1em 2em; font-style: italic; }
pre { font-family: monospace; font-size: 0.85em; background: #f3f0ea; padding: 0.6em; white-space: pre-wrap; }
figure { margin: 1.2em 0; text-align: center; }
figure img { max-width: 100%; }
figcaption { font-size: 0.85em; color: #444; }
dt { font-weight: bold; }
"""


def xhtml_page(title, body, lang="en"):
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        "<!DOCTYPE html>\n"
        '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" '
        'xml:lang="%s" lang="%s">\n'
        "<head>\n<meta charset=\"UTF-8\"/>\n<title>%s</title>\n"
        '<link rel="stylesheet" type="text/css" href="style.css"/>\n</head>\n'
        "<body>\n%s\n</body>\n</html>\n" % (lang, lang, html.escape(title, quote=False), body.strip())
    )


def plain_text(elem):
    return re.sub(r"\s+", " ", "".join(elem.itertext())).strip()


def load_article(path):
    with open(path, encoding="utf-8") as fh:
        fragment = fh.read()
    # well-formedness check of the fragment itself
    root = ET.fromstring("<div xmlns='%s' xmlns:epub='http://www.idpf.org/2007/ops'>%s</div>" % (XHTML_NS, fragment))
    h1 = root.find("{%s}h1" % XHTML_NS)
    if h1 is None:
        raise SystemExit("%s: no <h1>" % path)
    byline = None
    for p in root.iter("{%s}p" % XHTML_NS):
        if p.get("class") == "byline":
            byline = plain_text(p)
            break
    if byline is None:
        raise SystemExit("%s: no byline" % path)
    paras = [p for p in root.iter("{%s}p" % XHTML_NS) if p.get("class") not in ("byline",)]
    words = len(plain_text(root).split()) - len(plain_text(h1).split()) - len(byline.split())
    images = re.findall(r'src="images/([a-z0-9-]+)\.png"', fragment)
    return dict(title=plain_text(h1), byline=byline, fragment=fragment, words=words,
                paragraphs=len(paras), images=images)


def nav_document(issue, articles):
    items = "\n".join('      <li><a href="%s">%s</a></li>' % (a["file"], html.escape(a["title"], quote=False))
                      for a in articles)
    body = (
        '<nav epub:type="toc" id="toc">\n  <h1>%s</h1>\n  <ol>\n%s\n  </ol>\n</nav>'
        % (html.escape("%s — %s" % (PUBLICATION, issue["title"]), quote=False), items)
    )
    return xhtml_page("Contents", body)


def ncx_document(issue, uid, articles):
    points = []
    for i, a in enumerate(articles, 1):
        points.append(
            '    <navPoint id="nav-%d" playOrder="%d">\n'
            "      <navLabel><text>%s</text></navLabel>\n"
            '      <content src="%s"/>\n    </navPoint>' % (i, i, html.escape(a["title"], quote=False), a["file"]))
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1" xml:lang="en">\n'
        "  <head>\n"
        '    <meta name="dtb:uid" content="%s"/>\n'
        '    <meta name="dtb:depth" content="1"/>\n'
        '    <meta name="dtb:totalPageCount" content="0"/>\n'
        '    <meta name="dtb:maxPageNumber" content="0"/>\n'
        "  </head>\n"
        "  <docTitle><text>%s</text></docTitle>\n"
        "  <navMap>\n%s\n  </navMap>\n</ncx>\n"
        % (uid, html.escape("%s — %s" % (PUBLICATION, issue["title"]), quote=False), "\n".join(points))
    )


def opf_document(issue, uid, modified, articles, cover_name, cover_type, images):
    esc = lambda s: html.escape(s, quote=False)
    creators = []
    seen = set()
    for a in articles:
        name = re.sub(r"^(By|Interview by|Words by)\s+", "", a["byline"]).split(",")[0].strip()
        if name not in seen:
            seen.add(name)
            creators.append(name)
    creator_xml = "\n".join(
        '    <dc:creator id="creator%d">%s</dc:creator>' % (i, esc(c)) for i, c in enumerate(creators, 1))
    manifest = [
        '    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
        '    <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>',
        '    <item id="css" href="style.css" media-type="text/css"/>',
        '    <item id="cover-image" href="%s" media-type="%s" properties="cover-image"/>' % (cover_name, cover_type),
    ]
    for name in images:
        manifest.append('    <item id="img-%s" href="images/%s.png" media-type="image/png"/>' % (name, name))
    for a in articles:
        manifest.append('    <item id="%s" href="%s" media-type="application/xhtml+xml"/>' % (a["id"], a["file"]))
    spine = "\n".join('    <itemref idref="%s"/>' % a["id"] for a in articles)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="pub-id" xml:lang="en">\n'
        '  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">\n'
        '    <dc:identifier id="pub-id">%s</dc:identifier>\n'
        "    <dc:title>%s</dc:title>\n"
        "    <dc:language>en</dc:language>\n"
        "%s\n"
        "    <dc:publisher>%s</dc:publisher>\n"
        "    <dc:date>%s</dc:date>\n"
        "    <dc:description>%s</dc:description>\n"
        "    <dc:rights>Text and images: CC0 1.0 Universal (public domain dedication)</dc:rights>\n"
        '    <meta property="dcterms:modified">%s</meta>\n'
        '    <meta property="belongs-to-collection" id="collection">%s</meta>\n'
        '    <meta refines="#collection" property="collection-type">series</meta>\n'
        '    <meta refines="#collection" property="group-position">%d</meta>\n'
        '    <meta name="cover" content="cover-image"/>\n'
        "  </metadata>\n"
        "  <manifest>\n%s\n  </manifest>\n"
        '  <spine toc="ncx">\n%s\n  </spine>\n'
        "</package>\n"
        % (uid, esc("%s — %s" % (PUBLICATION, issue["title"])), creator_xml, esc(PUBLISHER), issue["date"],
           esc(issue["summary"]), modified, esc(PUBLICATION), issue["number"], "\n".join(manifest), spine)
    )


CONTAINER = """<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles>
    <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
  </rootfiles>
</container>
"""


def zip_entry(zf, name, data, when, compress=zipfile.ZIP_DEFLATED):
    info = zipfile.ZipInfo(name, date_time=when)
    info.compress_type = compress
    info.create_system = 3
    info.external_attr = 0o100644 << 16
    if isinstance(data, str):
        data = data.encode("utf-8")
    zf.writestr(info, data, compress_type=compress, compresslevel=9 if compress == zipfile.ZIP_DEFLATED else None)


def build_epub(issue, articles, cover_bytes, cover_ext):
    uid = "urn:uuid:%s" % uuid.uuid5(ID_NAMESPACE, issue["name"])
    date = datetime.date.fromisoformat(issue["date"])
    when = (date.year, date.month, date.day, 12, 0, 0)
    modified = "%sT12:00:00Z" % issue["date"]
    cover_type = "image/png" if cover_ext == "png" else "image/jpeg"
    cover_name = "cover.%s" % cover_ext
    images = []
    for a in articles:
        for name in a["images"]:
            if name not in images:
                images.append(name)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zip_entry(zf, "mimetype", "application/epub+zip", when, zipfile.ZIP_STORED)
        zip_entry(zf, "META-INF/container.xml", CONTAINER, when)
        zip_entry(zf, "OEBPS/content.opf",
                  opf_document(issue, uid, modified, articles, cover_name, cover_type, images), when)
        zip_entry(zf, "OEBPS/nav.xhtml", nav_document(issue, articles), when)
        zip_entry(zf, "OEBPS/toc.ncx", ncx_document(issue, uid, articles), when)
        zip_entry(zf, "OEBPS/style.css", CSS, when)
        zip_entry(zf, "OEBPS/" + cover_name, cover_bytes, when)
        for name in images:
            zip_entry(zf, "OEBPS/images/%s.png" % name, png_bytes(FIGURES[name]()), when)
        for a in articles:
            zip_entry(zf, "OEBPS/" + a["file"], xhtml_page(a["title"], a["fragment"]), when)
    return buf.getvalue()


def verify_epub(data):
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        infos = zf.infolist()
        assert infos[0].filename == "mimetype" and infos[0].compress_type == zipfile.ZIP_STORED
        assert zf.read("mimetype") == b"application/epub+zip"
        assert data[30:38] == b"mimetype" and data[38:58] == b"application/epub+zip"
        for info in infos:
            if info.filename.endswith((".xhtml", ".opf", ".ncx", ".xml")):
                ET.fromstring(zf.read(info.filename))  # raises if not well-formed
        return len(infos)


# --------------------------------------------------------------------------


def main():
    with open(os.path.join(SOURCE, "issues.json"), encoding="utf-8") as fh:
        issues = json.load(fh)
    os.makedirs(os.path.join(ROOT, "covers"), exist_ok=True)
    os.makedirs(os.path.join(ROOT, "issues"), exist_ok=True)
    names = set()
    catalog_issues = []
    for issue in issues:
        assert issue["name"] not in names
        names.add(issue["name"])
        art_dir = os.path.join(SOURCE, "articles", issue["name"])
        files = sorted(f for f in os.listdir(art_dir) if f.endswith(".xhtml"))
        articles = []
        for i, fname in enumerate(files, 1):
            a = load_article(os.path.join(art_dir, fname))
            a["file"] = fname
            a["id"] = "article-%d" % i
            articles.append(a)
            flag = "" if 500 <= a["words"] <= 1000 and 5 <= a["paragraphs"] else "   <-- check length"
            print("  %-40s %4d words %2d paras%s" % (issue["name"] + "/" + fname, a["words"], a["paragraphs"], flag))
        fmt = issue["cover_format"]
        ext = "png" if fmt == "png" else "jpg"
        cover = encode_cover(draw_cover(issue), fmt)
        cover_rel = "covers/%s.%s" % (issue["name"], ext)
        with open(os.path.join(ROOT, cover_rel), "wb") as fh:
            fh.write(cover)
        epub = build_epub(issue, articles, cover, ext)
        entries = verify_epub(epub)
        epub_rel = "issues/%s.epub" % issue["name"]
        with open(os.path.join(ROOT, epub_rel), "wb") as fh:
            fh.write(epub)
        print("%s: %s (%d bytes), %s (%d bytes, %d entries)" % (issue["name"], cover_rel, len(cover),
                                                               epub_rel, len(epub), entries))
        date = datetime.date.fromisoformat(issue["date"])
        catalog_issues.append({
            "Name": issue["name"],
            "Title": issue["title"],
            "Date": datetime.datetime(date.year, date.month, date.day, 12, 0, 0),
            "Summary": issue["summary"],
            "Cover": cover_rel,
            "Content": epub_rel,
            "Size": len(epub),
            "SHA256": hashlib.sha256(epub).hexdigest(),
        })
    catalog_issues.sort(key=lambda x: x["Date"], reverse=True)  # newest first
    catalog = {"Title": PUBLICATION, "Issues": catalog_issues}
    with open(os.path.join(ROOT, "catalog.plist"), "wb") as fh:
        plistlib.dump(catalog, fh, fmt=plistlib.FMT_XML, sort_keys=True)
    print("catalog.plist: %d issues" % len(catalog_issues))


if __name__ == "__main__":
    main()
