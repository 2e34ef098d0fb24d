"""Small PDF files written from scratch, for tests and benchmarks.

`pdf_bytes` lays out pages of lines in Helvetica (each line its own font size), with
an optional running header and footer (`{page}` is the page number), an outline
(bookmarks), a document Title, and the hostile parts a reader must not act on: a
JavaScript `/OpenAction`, an embedded file, an image-only page (a scan), RC4
encryption (the standard security handler, revision 2). Content streams are
compressed as real PDFs' are.
"""

from __future__ import annotations

import hashlib
import zlib
from dataclasses import dataclass, field

PAGE_WIDTH, PAGE_HEIGHT = 612, 792
TOP, BOTTOM, LEFT = 700, 80, 72
_PASSWORD_PAD = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")
_FILE_ID = hashlib.md5(b"tui-assistant test pdf").digest()


@dataclass(frozen=True)
class Line:
    text: str
    size: float = 11.0
    gap: float = 0.0  # extra space above it, in points (a paragraph break)
    indent: float = 0.0  # how far right of the left margin it starts, in points


@dataclass(frozen=True)
class Bookmark:
    title: str
    page: int  # 0-based
    level: int = 1
    top: float | None = None  # PDF y of the view's top edge (None: the page's top)


@dataclass
class PdfSpec:
    pages: list[list[Line]]
    header: str | None = None
    footer: str | None = None
    outline: list[Bookmark] = field(default_factory=list)
    title: str | None = None
    javascript: str | None = None
    embedded: tuple[str, bytes] | None = None
    scanned_pages: set[int] = field(default_factory=set)  # pages that are an image only
    user_password: str | None = None  # encrypt (RC4, 40-bit) with this user password


def lines(*texts: str, size: float = 11.0) -> list[Line]:
    return [Line(text, size) for text in texts]


def _escape(text: str) -> bytes:
    raw = text.encode("cp1252")
    return raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def _rc4(key: bytes, data: bytes) -> bytes:
    state = list(range(256))
    j = 0
    for i in range(256):
        j = (j + state[i] + key[i % len(key)]) % 256
        state[i], state[j] = state[j], state[i]
    out = bytearray()
    i = j = 0
    for byte in data:
        i = (i + 1) % 256
        j = (j + state[i]) % 256
        state[i], state[j] = state[j], state[i]
        out.append(byte ^ state[(state[i] + state[j]) % 256])
    return bytes(out)


def _padded(password: str) -> bytes:
    return (password.encode("latin-1") + _PASSWORD_PAD)[:32]


class _Writer:
    def __init__(self) -> None:
        self.objects: list[bytes | None] = []
        self.key: bytes | None = None

    def reserve(self) -> int:
        self.objects.append(None)
        return len(self.objects)

    def put(self, number: int, body: bytes) -> int:
        self.objects[number - 1] = body
        return number

    def add(self, body: bytes) -> int:
        return self.put(self.reserve(), body)

    def _object_key(self, number: int) -> bytes:
        assert self.key is not None
        return hashlib.md5(self.key + number.to_bytes(3, "little") + b"\x00\x00").digest()[:10]

    def string(self, number: int, text: str) -> bytes:
        """A string object's bytes, encrypted when the file is."""
        raw = text.encode("cp1252")
        if self.key is None:
            return b"(" + _escape(text) + b")"
        return b"<" + _rc4(self._object_key(number), raw).hex().encode() + b">"

    def stream(self, number: int, data: bytes, extra: bytes = b"", compress: bool = True) -> int:
        if compress:
            data = zlib.compress(data)
            extra += b" /Filter /FlateDecode"
        if self.key is not None:
            data = _rc4(self._object_key(number), data)
        body = b"<< /Length %d%s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"
        return self.put(number, body)

    def bytes(self, root: int, info: int | None, encrypt: int | None) -> bytes:
        out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for number, body in enumerate(self.objects, start=1):
            assert body is not None
            offsets.append(len(out))
            out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
        xref = len(out)
        out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(self.objects) + 1)
        for offset in offsets:
            out += b"%010d 00000 n \n" % offset
        trailer = b"/Size %d /Root %d 0 R" % (len(self.objects) + 1, root)
        if info is not None:
            trailer += b" /Info %d 0 R" % info
        if encrypt is not None:
            trailer += b" /Encrypt %d 0 R" % encrypt
        file_id = _FILE_ID.hex().encode()
        trailer += b" /ID [<" + file_id + b"> <" + file_id + b">]"
        out += b"trailer\n<< " + trailer + b" >>\nstartxref\n%d\n%%%%EOF\n" % xref
        return bytes(out)


def _page_content(spec: PdfSpec, number: int) -> bytes:
    if number in spec.scanned_pages:
        return b"q 400 0 0 500 100 150 cm /Scan Do Q\n"
    parts: list[bytes] = []

    def text(words: str, size: float, y: float, indent: float = 0.0) -> None:
        x = LEFT + indent
        parts.append(b"BT /F1 %.1f Tf %.1f %.1f Td (" % (size, x, y) + _escape(words) + b") Tj ET")

    page_label = str(number + 1)
    # The footer comes first in the stream, as many typesetters write it.
    if spec.footer is not None:
        text(spec.footer.format(page=page_label), 9, 40)
    if spec.header is not None:
        text(spec.header.format(page=page_label), 9, 760)
    y = TOP
    for line in spec.pages[number]:
        y -= line.gap + line.size * 1.25
        text(line.text, line.size, y, line.indent)
    return b"\n".join(parts) + b"\n"


def pdf_bytes(spec: PdfSpec) -> bytes:
    """The PDF file `spec` describes."""
    writer = _Writer()
    encrypt = None
    if spec.user_password is not None:
        owner = hashlib.md5(_padded("owner")).digest()[:5]
        o_value = _rc4(owner, _padded(spec.user_password))
        permissions = -44
        writer.key = hashlib.md5(
            _padded(spec.user_password)
            + o_value
            + permissions.to_bytes(4, "little", signed=True)
            + _FILE_ID
        ).digest()[:5]
        u_value = _rc4(writer.key, _PASSWORD_PAD)
        encrypt = writer.add(
            b"<< /Filter /Standard /V 1 /R 2 /O <%s> /U <%s> /P %d >>"
            % (o_value.hex().encode(), u_value.hex().encode(), permissions)
        )
    catalog = writer.reserve()
    pages_number = writer.reserve()
    font = writer.add(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    )
    scan = None
    if spec.scanned_pages:
        scan = writer.stream(
            writer.reserve(),
            bytes([0, 255, 255, 0] * 4),
            b" /Type /XObject /Subtype /Image /Width 4 /Height 4 /ColorSpace /DeviceGray"
            b" /BitsPerComponent 8",
        )
    page_numbers = []
    for number in range(len(spec.pages)):
        content = writer.stream(writer.reserve(), _page_content(spec, number))
        resources = b"/Font << /F1 %d 0 R >>" % font
        if scan is not None:
            resources += b" /XObject << /Scan %d 0 R >>" % scan
        page_numbers.append(
            writer.add(
                b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %d %d] /Contents %d 0 R"
                b" /Resources << %s >> >>"
                % (pages_number, PAGE_WIDTH, PAGE_HEIGHT, content, resources)
            )
        )
    kids = b" ".join(b"%d 0 R" % n for n in page_numbers)
    writer.put(pages_number, b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(page_numbers)))

    extras = b""
    if spec.outline:
        extras += b" /Outlines %d 0 R /PageMode /UseOutlines" % _outline(writer, spec, page_numbers)
    names = b""
    if spec.javascript is not None:
        action = writer.reserve()
        writer.put(
            action, b"<< /S /JavaScript /JS " + writer.string(action, spec.javascript) + b" >>"
        )
        extras += b" /OpenAction %d 0 R" % action
        names += b" /JavaScript << /Names [(run) %d 0 R] >>" % action
    if spec.embedded is not None:
        name, data = spec.embedded
        stream = writer.stream(writer.reserve(), data, b" /Type /EmbeddedFile")
        filespec = writer.reserve()
        writer.put(
            filespec,
            b"<< /Type /Filespec /F "
            + writer.string(filespec, name)
            + b" /EF << /F %d 0 R >> >>" % stream,
        )
        names += b" /EmbeddedFiles << /Names [(" + _escape(name) + b") %d 0 R] >>" % filespec
    if names:
        extras += b" /Names <<" + names + b" >>"
    writer.put(catalog, b"<< /Type /Catalog /Pages %d 0 R%s >>" % (pages_number, extras))
    info = None
    if spec.title is not None:
        info = writer.reserve()
        writer.put(info, b"<< /Title " + writer.string(info, spec.title) + b" >>")
    return writer.bytes(catalog, info, encrypt)


def _outline(writer: _Writer, spec: PdfSpec, page_numbers: list[int]) -> int:
    """The outline tree from the flat list of bookmarks (levels nest by order)."""
    root = writer.reserve()
    numbers = [writer.reserve() for _ in spec.outline]
    parents: list[int] = []
    children: dict[int, list[int]] = {root: []}
    stack: list[tuple[int, int]] = [(0, root)]  # (level, object)
    for index, bookmark in enumerate(spec.outline):
        while stack[-1][0] >= bookmark.level:
            stack.pop()
        parent = stack[-1][1]
        parents.append(parent)
        children.setdefault(parent, []).append(numbers[index])
        children[numbers[index]] = []
        stack.append((bookmark.level, numbers[index]))
    for index, bookmark in enumerate(spec.outline):
        number = numbers[index]
        siblings = children[parents[index]]
        place = siblings.index(number)
        top = b"null" if bookmark.top is None else b"%.1f" % bookmark.top
        body = (
            b"<< /Title "
            + writer.string(number, bookmark.title)
            + b" /Parent %d 0 R /Dest [%d 0 R /XYZ 0 %s 0]"
            % (parents[index], page_numbers[bookmark.page], top)
        )
        if place > 0:
            body += b" /Prev %d 0 R" % siblings[place - 1]
        if place + 1 < len(siblings):
            body += b" /Next %d 0 R" % siblings[place + 1]
        if children[number]:
            body += b" /First %d 0 R /Last %d 0 R /Count %d" % (
                children[number][0],
                children[number][-1],
                len(children[number]),
            )
        writer.put(number, body + b" >>")
    top_level = children[root]
    writer.put(
        root,
        b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>"
        % (top_level[0], top_level[-1], len(top_level)),
    )
    return root


def line_top(spec: PdfSpec, page: int, index: int) -> float:
    """The PDF y of a body line's baseline, to aim a bookmark at it."""
    y = TOP
    for line in spec.pages[page][: index + 1]:
        y -= line.gap + line.size * 1.25
    return y + spec.pages[page][index].size
