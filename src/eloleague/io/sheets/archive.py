"""Opening a workbook safely: the zip and its sheets are measured before openpyxl parses anything
(docs/sheets.md, "Limits").

An ``.xlsx`` file is a zip of XML files. A damaged one (cut short, bytes changed, not a zip) or
one built to exhaust the reader (a "zip bomb" that inflates a few kilobytes into gigabytes, a sheet
of millions of rows) is refused with one message saying what is wrong: :class:`DamagedWorkbook`.
The bounds are far above a referee's sheet (a few hundred rows, a template of about fifteen files
that inflate to a few hundred kilobytes).
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO
from xml.etree.ElementTree import ParseError, iterparse

from openpyxl import load_workbook
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.workbook.workbook import Workbook

MEMBERS_MAX = 200
"""Files inside the workbook's zip."""
MEMBER_MAX = 20_000_000
"""Bytes of one file of the zip, inflated."""
TOTAL_MAX = 40_000_000
"""Bytes of the whole zip, inflated."""
RATIO_MAX = 100
"""How many times a file larger than :data:`RATIO_FROM` may inflate (a bomb inflates thousands
of times; a sheet's XML about ten times)."""
RATIO_FROM = 1_000_000
ROWS_MAX = 10_000
"""Rows of one sheet."""
CELLS_MAX = 200_000
"""Cells of the whole workbook."""

DAMAGE = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    zlib.error,
    ParseError,
    InvalidFileException,
    EOFError,
    KeyError,
    IndexError,
    ValueError,
    TypeError,
    AttributeError,
    LookupError,
    OverflowError,
    RecursionError,
    NotImplementedError,
    OSError,
)
"""What openpyxl, zipfile and the XML parser raise on a damaged file (seen in the trial of
1,994 mutated workbooks: ParseError, zlib.error, TypeError, IndexError, KeyError...)."""


class DamagedWorkbook(Exception):
    """A workbook that cannot be read: ``template`` (catalogue ``sheets``) and its values."""

    def __init__(self, template: str, **params: object) -> None:
        super().__init__(template.format(**params))
        self.template = template
        self.params = params


def damaged(exc: BaseException) -> DamagedWorkbook:
    """The one message of a workbook that a reader choked on: ``exc`` (one of :data:`DAMAGE`)
    named, and what to do."""
    return DamagedWorkbook(
        "this workbook is damaged ({reason}): open it in Excel or LibreOffice and save it "
        "again as .xlsx",
        reason=type(exc).__name__,
    )


def check_archive(data: bytes) -> None:
    """Raise :class:`DamagedWorkbook` when the zip is no workbook or inflates beyond the bounds;
    then count the rows and cells of its XML files, stopping at the bounds."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except DAMAGE:
        raise DamagedWorkbook(
            "this file is not an Excel workbook (.xlsx): save it as .xlsx"
        ) from None
    if len(members) > MEMBERS_MAX:
        raise DamagedWorkbook(
            "the workbook holds {n} files, more than the {max} a workbook may hold",
            n=len(members),
            max=MEMBERS_MAX,
        )
    total = 0
    for member in members:
        total += member.file_size
        if member.file_size > MEMBER_MAX or total > TOTAL_MAX:
            raise DamagedWorkbook(
                "the workbook inflates to more than {max} MB: it is not a referee's sheet",
                max=TOTAL_MAX // 1_000_000,
            )
        if member.file_size > RATIO_FROM and member.file_size > RATIO_MAX * max(
            member.compress_size, 1
        ):
            raise DamagedWorkbook(
                "the workbook's file {name} inflates {ratio} times: it is not a referee's sheet",
                name=member.filename[:60],
                ratio=member.file_size // max(member.compress_size, 1),
            )
    with archive:
        cells = 0
        for member in members:
            if not member.filename.endswith(".xml") or member.is_dir():
                continue
            with _opened(archive, member) as stream:
                cells = _count(stream, cells)


@contextmanager
def _opened(archive: zipfile.ZipFile, member: zipfile.ZipInfo) -> Iterator[IO[bytes]]:
    try:
        with archive.open(member) as stream:
            yield stream
    except DamagedWorkbook:
        raise
    except DAMAGE as exc:
        raise damaged(exc) from None


def _count(stream: IO[bytes], cells: int) -> int:
    """Count the rows of one sheet and the cells so far; stop at the bounds."""
    rows = 0
    for _, element in iterparse(stream, events=("start",)):
        tag = element.tag.rsplit("}", 1)[-1]
        if tag == "c":
            cells += 1
            if cells > CELLS_MAX:
                raise DamagedWorkbook(
                    "the workbook has more than {max} cells: a referee's sheet has far fewer",
                    max=CELLS_MAX,
                )
        elif tag == "row":
            rows += 1
            if rows > ROWS_MAX:
                raise DamagedWorkbook(
                    "a sheet has more than {max} rows: a referee's sheet has far fewer",
                    max=ROWS_MAX,
                )
    return cells


def open_workbook(data: bytes) -> Workbook:
    """The workbook of ``data`` (values, not formulas), after :func:`check_archive`."""
    check_archive(data)
    try:
        return load_workbook(io.BytesIO(data), data_only=True)
    except DAMAGE as exc:
        raise damaged(exc) from None
