"""submission.py - a learner's submission read safely, for grade.py: a folder,
a .zip or a tar archive (plain, gzip, bzip2 or xz), and one archive inside it.

Names are bytes from end to end (a Windows zip of "Práctica 1/" gives CP437
or Latin-1 bytes, a folder unpacked by unzip the same): they are compared as
bytes and shown, in notes, with U+FFFD for what is not UTF-8 (show()).

Nothing is unpacked to disk as a whole and nothing is followed:
  - a folder is walked with a descriptor per folder (openat, O_NOFOLLOW), so a
    symbolic link, a device, a FIFO or a hard link (a file with more than one
    name: it may be any file of the machine) is refused, never read;
  - an archive is read as a stream, member by member: a tar archive by the
    reader below (headers of 512 bytes; GNU long names and pax headers of at
    most MAX_META bytes), a zip by Python's zipfile once its central directory
    is known to be small (zip_precheck); the data of a member is read only if
    it is wanted, and then at most its limit plus one byte;
  - every submission has a budget: MAX_MEMBERS entries (folders, archives and
    the archive inside, together), MAX_UNPACKED bytes read out of archives,
    names of at most MAX_NAME bytes, MAX_DEPTH folders deep, archives of at
    most MAX_ARCHIVE bytes, one archive inside the submission (not deeper).
What goes past a limit is not read, with a note."""
import bz2
import errno
import gzip
import io
import lzma
import os
import re
import stat
import struct
import zipfile
import zlib

MAX_FILE = 1 << 20            # a lab file: 1 MiB
MAX_ARCHIVE = 64 << 20        # an archive, as handed in (or inside the submission)
MAX_UNPACKED = 256 << 20      # bytes read out of a submission's archives, all together
MAX_MEMBERS = 10000           # entries of a submission (folders and archives together)
MAX_NAME = 1024               # bytes of an entry's path
MAX_META = 64 << 10           # a tar archive's GNU long name or pax header
MAX_DEPTH = 12                # folders deep
MAX_INNER = 4                 # archives inside a submission that are unpacked
CHUNK = 64 << 10

ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz", ".tar", ".zip")
OTHER_ARCHIVES = (".rar", ".7z", ".gz", ".bz2", ".xz", ".zst", ".tar.zst")


class Refused(Exception):
    """a member or file that is not read, and why"""


class Stop(Exception):
    """a limit reached: the rest of the submission is not read"""


# ---- names -----------------------------------------------------------------------------------
def show(name, limit=120):
    """a name (bytes or text) as a report shows it: UTF-8 where it is, U+FFFD
    for the rest and for control characters, at most limit characters"""
    if isinstance(name, bytes):
        name = name.decode("utf-8", "replace")
    name = re.sub(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]", "\ufffd", name)
    return name if len(name) <= limit else name[: limit - 1] + "\u2026"


def q(name):
    """a name in a note: `name`"""
    return "`%s`" % show(name)


def split_suffix(name):
    """(stem, archive suffix or None) of a name (bytes or text)"""
    text = name.decode("utf-8", "replace") if isinstance(name, bytes) else name
    low = text.lower()
    for suf in ARCHIVE_SUFFIXES:
        if low.endswith(suf):
            return name[: -len(suf)], suf
    return name, None


# ---- a submission's notes about what it did not read ------------------------------------------
class Tally:
    """the entries ignored for one reason, counted: one note per reason, with
    the first few names, however many there are"""

    def __init__(self):
        self.kinds = {}           # reason -> [count, [names]]
        self.notes = []           # notes in order, each once

    def ignored(self, reason, name=None):
        k = self.kinds.setdefault(reason, [0, []])
        k[0] += 1
        if name is not None and len(k[1]) < 3 and q(name) not in k[1]:
            k[1].append(q(name))

    def note(self, text):
        if text not in self.notes:
            self.notes.append(text)

    def render(self):
        out = list(self.notes)
        for reason, (n, names) in self.kinds.items():
            more = ", ..." if n > len(names) else ""
            out.append("%s: %s ignored%s" % (reason, "1 entry" if n == 1 else "%d entries" % n,
                                             " (%s%s)" % (", ".join(names), more) if names else ""))
        return out


class Budget:
    """what one submission may still cost"""

    def __init__(self):
        self.members = 0
        self.unpacked = 0

    def member(self):
        self.members += 1
        if self.members > MAX_MEMBERS:
            raise Stop("more than %d entries: the rest is not read" % MAX_MEMBERS)

    def unpack(self, n):
        self.unpacked += n
        if self.unpacked > MAX_UNPACKED:
            raise Stop("the archives unpack to more than %d MiB: the rest is not read"
                       % (MAX_UNPACKED >> 20))


class Entry:
    """one file of a submission (or one refused): the parts of its path
    (bytes), its size, and where it comes from"""
    __slots__ = ("parts", "kind", "size", "why", "source", "key", "inner")

    def __init__(self, parts, kind, size=0, why=None, source=None, key=None):
        self.parts, self.kind, self.size, self.why = tuple(parts), kind, size, why
        self.source, self.key, self.inner = source, key, None

    @property
    def path(self):
        return b"/".join(self.parts)

    @property
    def name(self):
        return self.parts[-1]


def checked_parts(raw, tally, where):
    """the parts of a member's path (bytes), or None (counted in tally) if it
    is unsafe or too long"""
    if len(raw) > MAX_NAME:
        tally.ignored("names longer than %d bytes" % MAX_NAME, raw[:60] + b"...")
        return None
    n = raw.replace(b"\\", b"/")
    if n.startswith(b"/") or re.match(rb"^[A-Za-z]:", n):
        tally.ignored("%s with an absolute path" % where, raw)
        return None
    parts = [p for p in n.split(b"/") if p not in (b"", b".")]
    if b".." in parts:
        tally.ignored("%s that lead out of the archive (..)" % where, raw)
        return None
    if len(parts) > MAX_DEPTH + 1:
        tally.ignored("%s deeper than %d folders" % (where, MAX_DEPTH), raw)
        return None
    return parts


# ---- a folder --------------------------------------------------------------------------------
O_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
O_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


def refusal(st):
    """why a file of a folder (its stat) is not read: None for a regular file with one name"""
    if stat.S_ISLNK(st.st_mode):
        return "is a symbolic link (not followed)"
    if not stat.S_ISREG(st.st_mode):
        return "is not a regular file"
    if st.st_nlink != 1:
        return ("is a hard link (a file with %d names, which may be any file of the machine): not "
                "read; hand in a copy" % st.st_nlink)
    return None


def regular_fd(fd):
    """fd if it is a regular file with one name, else closed and Refused"""
    why = refusal(os.fstat(fd))
    if why:
        os.close(fd)
        raise Refused(why)
    return fd


class Folder:
    """a folder handed in (bytes path): walked and read with a descriptor per
    folder and O_NOFOLLOW at every step, so nothing outside it is reached"""

    def __init__(self, root):
        self.root = root

    def entries(self, budget, tally):
        out = []
        try:
            top = os.open(self.root, O_DIR)
        except OSError as e:
            tally.note("cannot read the folder: %s" % e.strerror)
            return out
        try:
            self._walk(top, [], out, budget, tally)
        except Stop as e:
            tally.note(str(e))
        finally:
            os.close(top)
        return out

    def _walk(self, fd, parts, out, budget, tally):
        try:
            names = sorted(os.listdir(fd))
        except OSError as e:
            tally.note("cannot read the folder %s: %s" % (q(b"/".join(parts) or b"."), e.strerror))
            return
        for name in names:
            budget.member()
            b = os.fsencode(name)
            p = parts + [b]
            if sum(len(x) + 1 for x in p) > MAX_NAME:
                tally.ignored("names longer than %d bytes" % MAX_NAME, b"/".join(p)[:60] + b"...")
                continue
            try:
                st = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(st.st_mode):
                if len(p) > MAX_DEPTH:
                    tally.ignored("folders deeper than %d levels" % MAX_DEPTH, b"/".join(p))
                    continue
                try:
                    sub = os.open(name, O_DIR, dir_fd=fd)
                except OSError:
                    continue
                try:
                    self._walk(sub, p, out, budget, tally)
                finally:
                    os.close(sub)
            elif refusal(st):
                out.append(Entry(p, "refused", why=refusal(st)))
            else:
                out.append(Entry(p, "file", st.st_size, source=self, key=p))

    def open(self, parts):
        """a descriptor of the regular file at parts, reached without following
        a link at any step"""
        fd = os.open(self.root, O_DIR)
        try:
            for d in parts[:-1]:
                sub = os.open(d, O_DIR, dir_fd=fd)
                os.close(fd)
                fd = sub
            try:
                f = os.open(parts[-1], O_FILE, dir_fd=fd)
            except OSError as e:
                if e.errno == errno.ELOOP:
                    raise Refused("is a symbolic link (not followed)")
                raise
            return regular_fd(f)
        finally:
            os.close(fd)

    def read(self, wanted, limit, sink, budget):
        for e in wanted:
            try:
                fd = self.open(list(e.key))
                with os.fdopen(fd, "rb") as f:
                    copy(f.read, limit[e], sink(e))
            except Refused as x:
                sink(e, error=str(x))
            except OSError as x:
                sink(e, error="cannot be read (%s)" % (x.strerror or x))


def copy(read, limit, out):
    """at most limit + 1 bytes from read() to out"""
    left = limit + 1
    while left > 0:
        chunk = read(min(CHUNK, left))
        if not chunk:
            break
        out.write(chunk)
        left -= len(chunk)


# ---- a zip -----------------------------------------------------------------------------------
def zip_precheck(path):
    """None if the zip's central directory is within the limits (read from its
    end records before zipfile reads it all), else why not"""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        f.seek(max(0, size - (65535 + 22)))
        tail = f.read()
        i = tail.rfind(b"PK\x05\x06")
        if i < 0 or len(tail) - i < 22:
            return "not a readable .zip archive (no end of central directory)"
        count, cd_size = struct.unpack("<xxxxxxxxxxHI", tail[i:i + 16])
        if count == 0xFFFF or cd_size == 0xFFFFFFFF:
            j = tail.rfind(b"PK\x06\x07", 0, i)
            if j >= 0 and len(tail) - j >= 20:
                off = struct.unpack("<Q", tail[j + 8:j + 16])[0]
                if off < size:
                    f.seek(off)
                    rec = f.read(56)
                    if rec[:4] == b"PK\x06\x06" and len(rec) == 56:
                        count, cd_size = struct.unpack("<QQ", rec[32:48])
    if count > MAX_MEMBERS:
        return "the archive has %d entries, more than %d: not read" % (count, MAX_MEMBERS)
    if cd_size > MAX_MEMBERS * (46 + MAX_NAME + 64):
        return "the archive's list of entries is %d MiB: not read" % (cd_size >> 20)
    return None


class Zip:
    def __init__(self, path):
        self.path = path
        self.z = self.f = None

    def entries(self, budget, tally):
        why = zip_precheck(self.path)
        if why:
            tally.note(why)
            return []
        try:
            self.f = open(self.path, "rb")
            self.z = zipfile.ZipFile(self.f)
            infos = self.z.infolist()
        except Exception as e:            # zipfile raises many kinds on a damaged archive
            tally.note("not a readable .zip archive (%s)" % show(str(e), 200))
            return []
        out = []
        try:
            for zi in infos:
                budget.member()
                raw = zi.filename.encode("utf-8" if zi.flag_bits & 0x800 else "cp437",
                                         "surrogateescape")
                parts = checked_parts(raw, tally, "archive entries")
                if not parts or zi.is_dir():
                    continue
                mode = zi.external_attr >> 16
                if stat.S_ISLNK(mode):
                    out.append(Entry(parts, "refused", why="is a symbolic link in the archive "
                                     "(not followed)"))
                elif mode and stat.S_IFMT(mode) and not stat.S_ISREG(mode):
                    out.append(Entry(parts, "refused", why="is not a regular file"))
                elif zi.flag_bits & 0x1:
                    out.append(Entry(parts, "refused", why="is encrypted in the archive"))
                else:
                    out.append(Entry(parts, "file", zi.file_size, source=self, key=zi))
        except Stop as e:
            tally.note(str(e))
        return out

    def read(self, wanted, limit, sink, budget):
        for e in wanted:
            try:
                with self.z.open(e.key) as f:
                    out = sink(e)
                    before = out.tell()
                    copy(f.read, limit[e], out)
                    budget.unpack(out.tell() - before)
            except Stop:
                raise
            except Exception as x:        # bad CRC, unknown compression, damage
                sink(e, error="cannot be read (%s)" % show(str(x), 200))

    def close(self):
        for f in (self.z, self.f):
            if f:
                f.close()


# ---- a tar archive, as a stream ----------------------------------------------------------------
def tar_number(field):
    """a numeric field of a tar header: octal text, or base-256"""
    if field[:1] and field[0] & 0x80:
        v = int.from_bytes(field[1:], "big")
        if field[0] == 0xFF:
            raise ValueError("negative number")
        return v | ((field[0] & 0x3F) << (8 * (len(field) - 1)))
    text = field.split(b"\0")[0].strip()
    return int(text, 8) if text else 0


def pax_records(data):
    """the key=value records of a pax header (bytes)"""
    out, i = {}, 0
    while i < len(data):
        sp = data.find(b" ", i)
        if sp < 0:
            break
        try:
            n = int(data[i:sp])
        except ValueError:
            break
        if n <= 0 or i + n > len(data):
            break
        rec = data[sp + 1:i + n].rstrip(b"\n")
        k, _, v = rec.partition(b"=")
        out[k] = v
        i += n
    return out


TOO_LONG = object()


class TarStream:
    """a tar archive read forward only: the members' headers, and the data of
    those asked for; every byte read out of it counts in the budget"""

    def __init__(self, path, budget):
        self.raw = open(path, "rb")
        magic = self.raw.read(6)
        self.raw.seek(0)
        if magic[:2] == b"\x1f\x8b":
            self.f = gzip.GzipFile(fileobj=self.raw, mode="rb")
        elif magic[:3] == b"BZh":
            self.f = bz2.BZ2File(self.raw)
        elif magic == b"\xfd7zXZ\x00":
            self.f = lzma.LZMAFile(self.raw)
        else:
            self.f = self.raw
        self.budget = budget

    def close(self):
        self.raw.close()

    def read(self, n):
        data = self.f.read(n)
        self.budget.unpack(len(data))
        return data

    def skip(self, n):
        while n > 0:
            chunk = self.read(min(CHUNK, n))
            if not chunk:
                raise EOFError("the archive ends inside a member")
            n -= len(chunk)

    def meta(self, size):
        """a GNU long name's or a pax header's data, or None (skipped) if too long"""
        if size > MAX_META:
            self.skip(size + (-size % 512))
            return None
        data = self.read(size + (-size % 512))
        if len(data) < size:
            raise EOFError("the archive ends inside a member")
        return data[:size]

    def members(self):
        """(index, raw name or None if too long, type, size), one per member
        (not the long-name and pax headers); after each, the caller may read
        the member's data with data(); the rest of it is skipped"""
        index, longname, pax = 0, None, {}
        while True:
            h = self.read(512)
            if len(h) < 512 or h == b"\0" * 512:
                return
            stored = tar_number(h[148:156])
            if stored not in (sum(h[:148]) + 256 + sum(h[156:]),
                              sum(struct.unpack("148b", h[:148])) + 256
                              + sum(struct.unpack("356b", h[156:]))):
                raise ValueError("a header's checksum is wrong")
            size = tar_number(h[124:136])
            kind = h[156:157]
            if kind in (b"L", b"K", b"x", b"g"):
                data = self.meta(size)
                if kind == b"L":
                    longname = data.split(b"\0")[0] if data is not None else TOO_LONG
                elif kind == b"x":
                    pax = pax_records(data) if data is not None else {b"path": TOO_LONG}
                continue
            name = h[0:100].split(b"\0")[0]
            if h[257:263] == b"ustar\x00":
                prefix = h[345:500].split(b"\0")[0]
                if prefix:
                    name = prefix + b"/" + name
            if b"path" in pax:
                name = pax[b"path"]
            if longname is not None:
                name = longname
            if b"size" in pax:
                try:
                    size = int(pax[b"size"])
                except ValueError:
                    raise ValueError("a pax header's size is not a number")
            longname, pax = None, {}
            if name is TOO_LONG:
                name = None           # a long name or pax path over MAX_META
            self.left = size
            yield index, name, kind, size
            index += 1
            self.skip(self.left + (-size % 512))

    def data(self, limit, out):
        """the current member's data, at most limit + 1 bytes, to out"""
        n = min(self.left, limit + 1)
        copy(self.read, n - 1, out)
        self.left -= out.tell()


TAR_REGULAR = (b"0", b"\0", b"7")
TAR_OTHER = {b"1": "is a hard link in the archive (not followed)",
             b"2": "is a symbolic link in the archive (not followed)",
             b"3": "is a device in the archive", b"4": "is a device in the archive",
             b"6": "is a FIFO in the archive"}


class Tar:
    def __init__(self, path):
        self.path = path

    def close(self):
        pass              # a TarStream is opened, and closed, by each pass

    def entries(self, budget, tally):
        out = []
        t = None
        try:
            t = TarStream(self.path, budget)
            for index, raw, kind, size in t.members():
                budget.member()
                if raw is None:
                    tally.ignored("GNU long names or pax paths longer than %d KiB" % (MAX_META >> 10))
                    continue
                parts = checked_parts(raw, tally, "archive entries")
                if not parts or kind in (b"5", b"D", b"V"):
                    continue
                if kind in TAR_REGULAR:
                    out.append(Entry(parts, "file", size, source=self, key=index))
                else:
                    out.append(Entry(parts, "refused", why=TAR_OTHER.get(kind, "is not a regular file")))
        except Stop as e:
            tally.note(str(e))
        except (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError) as e:
            tally.note("the archive is damaged (%s): read up to there" % show(str(e), 200))
        finally:
            if t:
                t.close()
        return out

    def read(self, wanted, limit, sink, budget):
        """the wanted members' data, in one pass over the archive"""
        by_index = {e.key: e for e in wanted}
        t = TarStream(self.path, budget)
        try:
            for index, _, _, _ in t.members():
                e = by_index.pop(index, None)
                if e is not None:
                    t.data(limit[e], sink(e))
                if not by_index:
                    break
        except Stop:
            raise
        except (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError) as x:
            for e in by_index.values():
                sink(e, error="cannot be read (%s)" % show(str(x), 200))
            by_index = {}
        finally:
            t.close()
        for e in by_index.values():
            sink(e, error="cannot be read (the archive changed while it was read)")


def archive_reader(path):
    """a Zip or a Tar for the archive at path, by its first bytes"""
    with open(path, "rb") as f:
        magic = f.read(4)
    return Zip(path) if magic[:2] == b"PK" else Tar(path)


# ---- a whole submission ---------------------------------------------------------------------
class Sink:
    """where the data of the members read goes: in memory (lab files) or in a
    file of the grader's (an archive inside the submission)"""

    def __init__(self):
        self.data, self.errors, self.files = {}, {}, {}

    def __call__(self, e, error=None):
        if error:
            self.errors[e] = error
            return None
        if e not in self.files:
            self.files[e] = self.data[e] = io.BytesIO()
        return self.files[e]


class Submission:
    """a learner's submission: its entries (Entry), and the bytes of those asked
    for. path is bytes; scratch a folder of the grader's own for the archives
    found inside"""

    def __init__(self, path, scratch):
        self.path, self.scratch = path, scratch
        self.tally, self.budget = Tally(), Budget()
        self.entries, self.readers = [], []
        self.inner_files = []

    def open(self):
        """read the list of entries; a note (tally) says what was not read"""
        try:
            st = os.lstat(self.path)
        except OSError as e:
            return self.tally.note("cannot be read: %s" % e.strerror)
        if stat.S_ISDIR(st.st_mode):
            self.entries = Folder(self.path).entries(self.budget, self.tally)
        elif stat.S_ISREG(st.st_mode) and split_suffix(os.path.basename(self.path.rstrip(b"/")))[1]:
            self.entries = self.archive(self.path, st.st_size, "the archive")
        elif stat.S_ISLNK(st.st_mode):
            return self.tally.note("is a symbolic link: not followed")
        else:
            return self.tally.note("is neither a folder nor a .zip, .tar.gz, .tgz or .tar archive: "
                                   "nothing to grade")
        self.inner()

    def archive(self, path, size, what):
        if size > MAX_ARCHIVE:
            self.tally.note("%s is %d MiB, more than %d MiB: not read"
                            % (what, size >> 20, MAX_ARCHIVE >> 20))
            return []
        try:
            r = archive_reader(path)
        except OSError as e:
            self.tally.note("%s cannot be read: %s" % (what, e.strerror))
            return []
        self.readers.append(r)
        return r.entries(self.budget, self.tally)

    def inner(self):
        """the archives inside the submission, unpacked one level: their
        entries as if the archive were a folder of its name"""
        found = [e for e in self.entries if e.kind == "file" and split_suffix(e.name)[1]
                 and not hidden(e)]
        if not found:
            return
        if len(found) > MAX_INNER:
            self.tally.note("%d archives inside: only the first %d are unpacked"
                            % (len(found), MAX_INNER))
            found = found[:MAX_INNER]
        too_big = [e for e in found if e.size > MAX_ARCHIVE]
        for e in too_big:
            self.tally.note("the archive %s inside is %d MiB, more than %d MiB: not read"
                            % (q(e.path), e.size >> 20, MAX_ARCHIVE >> 20))
        found = [e for e in found if e.size <= MAX_ARCHIVE]
        sink = Sink()
        os.makedirs(self.scratch, mode=0o700, exist_ok=True)
        for i, e in enumerate(found):
            sink.files[e] = open(os.path.join(self.scratch, "inner-%d" % i), "w+b")
        try:
            self.load(found, sink, {e: MAX_ARCHIVE for e in found})
            for i, e in enumerate(found):
                f = sink.files[e]
                f.close()
                if e in sink.errors:
                    self.tally.note("the archive %s inside %s" % (q(e.path), sink.errors[e]))
                    continue
                path = os.path.join(self.scratch, "inner-%d" % i)
                self.inner_files.append(path)
                got = self.archive(path, os.path.getsize(path), "the archive %s inside" % q(e.path))
                for x in got:
                    x.parts = e.parts + x.parts
                    x.inner = e.path
                self.entries.extend(got)
        except Stop as x:
            self.tally.note(str(x))

    def load(self, wanted, sink, limit):
        """the data of the wanted entries into sink, each at most limit[e] + 1 bytes"""
        by_source = {}
        for e in wanted:
            by_source.setdefault(id(e.source), (e.source, []))[1].append(e)
        for source, es in by_source.values():
            source.read(es, limit, sink, self.budget)

    def read(self, wanted):
        """{entry: bytes (at most MAX_FILE + 1) or an error text}"""
        sink = Sink()
        try:
            self.load(wanted, sink, {e: MAX_FILE for e in wanted})
        except Stop as x:
            self.tally.note(str(x))
        out = {e: f.getvalue() for e, f in sink.data.items()}
        out.update(sink.errors)
        for e in wanted:
            out.setdefault(e, "cannot be read (%s)" % "a limit was reached")
        return out

    def close(self):
        for r in self.readers:
            r.close()
        for p in self.inner_files:
            try:
                os.unlink(p)
            except OSError:
                pass


def hidden(e):
    """an entry of __MACOSX/ or of a hidden folder: never a lab file"""
    return b"__MACOSX" in e.parts or any(p.startswith(b".") for p in e.parts[:-1])


# ---- finding a lab file ---------------------------------------------------------------------
def find_file(entries, rel):
    """the entry of a lab file (rel: 'lab01-qkv/qkv.c'), and a note when it is
    not where it belongs: labs/REL or REL at the top; else any .../labNN-*/FILE;
    else a lone FILE anywhere"""
    relp = tuple(rel.encode().split(b"/"))
    labdir, base = relp[0], relp[-1]
    nn = re.match(rb"(lab[0-9]+)", labdir).group(1)
    usable = [e for e in entries if not hidden(e)]
    tiers = [
        [e for e in usable if e.parts in ((b"labs",) + relp, relp)],
        [e for e in usable if len(e.parts) >= 2 and e.parts[-1] == base
         and (e.parts[-2] == labdir or e.parts[-2].startswith(nn + b"-"))],
        [e for e in usable if e.parts[-1] == base],
    ]
    for t, found in enumerate(tiers):
        if not found:
            continue
        found.sort(key=lambda e: (e.inner is not None, len(e.parts), e.parts))
        e = found[0]
        note = None
        if t > 0:
            note = "labs/%s taken from %s" % (rel, q(e.path))
        if len(found) > 1 and (t == 2 or len(found[1].parts) == len(e.parts)):
            note = "%d files could be labs/%s: took %s" % (len(found), rel, q(e.path))
        return e, note
    return None, None


COPY_MARKS = re.compile(r"(?:\s*\(\d+\)|\s*-\s*(?:copy|copia)(?:\s*\(?\d+\)?)?|[\s_-]+(?:copy|copia)"
                        r"(?:\s*\d+)?|[\s_-]+(?:final|v\d+|old|new|orig))$")
EXTRA_SUFFIXES = (".txt", ".bak", ".orig", ".old", ".save", ".copy", ".tmp", ".c", ".py", ".doc",
                  ".docx", ".rtf", ".md")


def near_name(name, base):
    """whether name (text, lower case) is base (lower case) misnamed: another
    case (SDPA.C), a copy's mark (qkv (1).c, qkv - Copy.c, Copy of qkv.c), a
    suffix added (qkv.c.txt)"""
    if name == base:
        return True
    for suf in EXTRA_SUFFIXES:
        if name.endswith(suf) and name[: -len(suf)] == base:
            return True
    stem, dot, ext = name.rpartition(".")
    bstem, _, bext = base.rpartition(".")
    if not dot or ext != bext:
        return False
    stem = re.sub(r"^(?:copy of|copia de)\s+", "", stem)
    stem = COPY_MARKS.sub("", stem).strip()
    return stem == bstem


def low_name(e):
    return e.name.decode("utf-8", "replace").lower()


def near_misses(entries, rel):
    """the entries that look like the lab file misnamed"""
    base = rel.split("/")[-1].lower()
    return sorted((e for e in entries if not hidden(e) and near_name(low_name(e), base)),
                  key=lambda e: (len(e.parts), e.parts))


def other_archives(entries):
    """entries that are archives of a kind the grader does not read"""
    return [e for e in entries if not hidden(e) and low_name(e).endswith(OTHER_ARCHIVES)
            and not split_suffix(low_name(e))[1]]
