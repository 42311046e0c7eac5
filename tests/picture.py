#!/usr/bin/env python3
"""Reads the PNG and GIF files `kifu show` writes, with the standard
library only, for the CLI tests (tests/cli/t0900-show-pictures.sh).

    picture.py info FILE            width height frames (and GIF delays)
    picture.py has FILE RRGGBB...   every colour occurs in every frame
                                    (exactly: a GIF's palette holds the
                                    picture's own colours)
    picture.py diff A B [N]         mean and max per-channel difference
                                    between A's frame N (default: last)
                                    and B's first frame; same sizes
    picture.py frame FILE N OUT     frame N as a PNG file (to look at)

Exit 1 with a message on stderr when a file is not what it should be.
"""
import re
import struct
import sys
import zlib


def fail(msg):
    sys.stderr.write("picture.py: %s\n" % msg)
    sys.exit(1)


def read_png(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("not a PNG")
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if zlib.crc32(kind + body) != struct.unpack(
                ">I", data[pos + 8 + n:pos + 12 + n])[0]:
            fail("PNG chunk %r: bad CRC" % kind)
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(
                ">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                fail("PNG of depth %d, colour type %d: not read here"
                     % (depth, ctype))
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + n
    if w is None:
        fail("PNG without IHDR")
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
            elif f != 0:
                fail("PNG filter %d" % f)
        rows.append(line)
        prev = line
    rgb = bytearray()
    for line in rows:
        if bpp == 3:
            rgb += line
        else:
            for i in range(0, stride, 4):
                rgb += line[i:i + 3]
    return w, h, [bytes(rgb)], []


def lzw(data, min_size, npx):
    clear, end = 1 << min_size, (1 << min_size) + 1
    out = bytearray()
    size, table, prev = min_size + 1, None, None
    bits = nbits = 0
    for byte in data:
        bits |= byte << nbits
        nbits += 8
        while nbits >= size:
            code = bits & ((1 << size) - 1)
            bits >>= size
            nbits -= size
            if code == clear:
                table = [bytes([i]) for i in range(clear)] + [b"", b""]
                size, prev = min_size + 1, None
                continue
            if code == end:
                return bytes(out[:npx])
            if prev is None:
                entry = table[code]
            elif code < len(table):
                entry = table[code]
                table.append(prev + entry[:1])
            else:
                entry = prev + prev[:1]
                table.append(entry)
            out += entry
            prev = entry
            if len(table) == (1 << size) and size < 12:
                size += 1
    return bytes(out[:npx])


def read_gif(data):
    if data[:6] not in (b"GIF87a", b"GIF89a"):
        fail("not a GIF")
    w, h, flags, bg, _ = struct.unpack("<HHBBB", data[6:13])
    pos, palette = 13, None
    if flags & 0x80:
        n = 2 << (flags & 7)
        palette = data[pos:pos + 3 * n]
        pos += 3 * n
    canvas = bytearray(w * h * 3)
    frames, delays = [], []
    delay, transparent = 0, None
    while pos < len(data):
        kind = data[pos]
        pos += 1
        if kind == 0x3B:
            break
        if kind == 0x21:
            label = data[pos]
            pos += 1
            blocks = b""
            while data[pos]:
                blocks += data[pos + 1:pos + 1 + data[pos]]
                pos += 1 + data[pos]
            pos += 1
            if label == 0xF9:
                packed, delay, tidx = struct.unpack("<BHB", blocks[:4])
                transparent = tidx if packed & 1 else None
            continue
        if kind != 0x2C:
            fail("GIF block 0x%02x" % kind)
        x0, y0, fw, fh, iflags = struct.unpack("<HHHHB", data[pos:pos + 9])
        pos += 9
        pal = palette
        if iflags & 0x80:
            n = 2 << (iflags & 7)
            pal = data[pos:pos + 3 * n]
            pos += 3 * n
        if iflags & 0x40:
            fail("interlaced GIF")
        if x0 + fw > w or y0 + fh > h:
            fail("GIF frame outside the screen")
        min_size = data[pos]
        pos += 1
        blocks = bytearray()
        while data[pos]:
            blocks += data[pos + 1:pos + 1 + data[pos]]
            pos += 1 + data[pos]
        pos += 1
        idx = lzw(blocks, min_size, fw * fh)
        if len(idx) != fw * fh:
            fail("GIF frame %d: %d pixels, not %d"
                 % (len(frames), len(idx), fw * fh))
        colours = [pal[3 * i:3 * i + 3] for i in range(len(pal) // 3)]
        colours += [b"\0\0\0"] * (256 - len(colours))
        opaque = re.compile(b"[^" + re.escape(bytes([transparent])) + b"]+"
                            if transparent is not None else b".+", re.S)
        for y in range(fh):
            row = idx[y * fw:(y + 1) * fw]
            for run in opaque.finditer(row):
                o = ((y0 + y) * w + x0 + run.start()) * 3
                canvas[o:o + 3 * len(run.group())] = b"".join(
                    colours[i] for i in run.group())
        frames.append(bytes(canvas))
        delays.append(delay)
        delay, transparent = 0, None
    return w, h, frames, delays


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    return read_gif(data) if data[:3] == b"GIF" else read_png(data)


def write_png(path, w, h, rgb):
    raw = b"".join(b"\0" + rgb[y * w * 3:(y + 1) * w * 3] for y in range(h))

    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body +
                struct.pack(">I", zlib.crc32(kind + body)))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" +
                chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def has(path, colours):
    _, _, frames, _ = read(path)
    want = [bytes.fromhex(c) for c in colours]
    for n, rgb in enumerate(frames):
        for c in want:
            at = rgb.find(c)
            while at > 0 and at % 3:
                at = rgb.find(c, at + 1)
            if at < 0:
                fail("%s: frame %d has no pixel of #%s" % (path, n, c.hex()))


def diff(a, b, n):
    wa, ha, fa, _ = read(a)
    wb, hb, fb, _ = read(b)
    if (wa, ha) != (wb, hb):
        fail("%s is %dx%d, %s %dx%d" % (a, wa, ha, b, wb, hb))
    x, y = fa[n], fb[0]
    d = [abs(p - q) for p, q in zip(x, y)]
    print("%.3f %d" % (sum(d) / len(d), max(d)))


def main(argv):
    if len(argv) >= 2 and argv[0] == "info":
        w, h, frames, delays = read(argv[1])
        print(w, h, len(frames), *delays)
    elif len(argv) >= 3 and argv[0] == "has":
        has(argv[1], argv[2:])
    elif len(argv) in (3, 4) and argv[0] == "diff":
        diff(argv[1], argv[2], int(argv[3]) if len(argv) == 4 else -1)
    elif len(argv) == 4 and argv[0] == "frame":
        w, h, frames, _ = read(argv[1])
        write_png(argv[3], w, h, frames[int(argv[2])])
    else:
        fail("usage: see the top of this file")


if __name__ == "__main__":
    main(sys.argv[1:])
