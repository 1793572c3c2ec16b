"""Reading what the user types or writes into files: bounded numbers and text files.

Every number of the scoring commands goes through :func:`parse_number` (mountains,
pools, whists, ``--target``, ``whist_money``) or :func:`parse_whole` (tricks,
bids, card points, start scores, whole-number options). Both accept ASCII
digits only and refuse absurd sizes with one message naming the token, so a
typo like ``W=1e999999999`` is refused at once instead of building a number of
a billion digits. The bounds:

- a number has at most :data:`MAX_CHARS` characters and an exponent of at most
  :data:`MAX_EXPONENT`; its value lies within ±:data:`MAX_MAGNITUDE` (a
  billion) and, written as a fraction in lowest terms, its denominator is at
  most :data:`MAX_DENOMINATOR` (a million: ``1/3``, ``0.25`` and ``1/1000000``
  are fine);
- a whole number has at most :data:`MAX_MAGNITUDE` as its value.

Record and whists files are read as UTF-8 (a leading byte-order mark is
skipped) and may hold at most :data:`MAX_FILE_BYTES`; a byte that is not UTF-8
is reported with its line.

>>> parse_number("-26", "--whists-balance"), parse_number("1/2", "whist_money"), parse_number("2.5e1", "x")
(Fraction(-26, 1), Fraction(1, 2), Fraction(25, 1))
>>> parse_number("1e999999999", "--mountains")
Traceback (most recent call last):
...
pyanalyzer.scoring.errors.ScoringError: number '1e999999999' out of range for --mountains: the exponent ...
>>> parse_whole("٣", "tricks")
Traceback (most recent call last):
...
pyanalyzer.scoring.errors.ScoringError: bad tricks '٣': write a whole number in ASCII digits 0-9
"""

from __future__ import annotations

import re
import sys
from fractions import Fraction

from pyanalyzer.scoring.errors import RecordError, ScoringError, quoted

MAX_CHARS = 40
MAX_EXPONENT = 18
MAX_MAGNITUDE = 10**9
MAX_DENOMINATOR = 10**6
MAX_FILE_BYTES = 2**20

_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE]([+-]?[0-9]+))?\Z")
_RATIO = re.compile(r"[+-]?[0-9]+/[0-9]+\Z")
_WHOLE = re.compile(r"[0-9]+\Z")


def shown(token: str) -> str:
    """The token for a message, cut short when it is very long."""
    return quoted(token)


def parse_number(text: str, what: str) -> Fraction:
    """An exact number written ``8``, ``-3``, ``1/2``, ``0.5`` or ``5e2``, within the bounds above.

    >>> parse_number("1/0", "--pools")
    Traceback (most recent call last):
    ...
    pyanalyzer.scoring.errors.ScoringError: bad number '1/0' for --pools: division by zero
    """
    token = text.strip()
    if len(token) > MAX_CHARS:
        raise ScoringError(f"number {shown(token)} too long for {what}: at most {MAX_CHARS} characters", token)
    decimal = _DECIMAL.match(token)
    if not decimal and not _RATIO.match(token):
        raise ScoringError(f"bad number {token!r} for {what}: write e.g. 8, -3, 1/2 or 0.5 in ASCII digits",
                           token)
    if decimal and decimal.group(1) is not None and abs(int(decimal.group(1))) > MAX_EXPONENT:
        raise ScoringError(f"number {token!r} out of range for {what}: the exponent may be at most "
                           f"{MAX_EXPONENT}", token)
    try:
        value = Fraction(token)
    except ZeroDivisionError:
        raise ScoringError(f"bad number {token!r} for {what}: division by zero", token) from None
    if abs(value) > MAX_MAGNITUDE:
        raise ScoringError(f"number {token!r} out of range for {what}: at most {MAX_MAGNITUDE:,} either side "
                           "of 0", token)
    if value.denominator > MAX_DENOMINATOR:
        raise ScoringError(f"number {token!r} too fine for {what}: the denominator may be at most "
                           f"{MAX_DENOMINATOR:,}", token)
    return value


def parse_whole(text: str, what: str, line: int | None = None) -> int:
    """A whole number ``0`` to :data:`MAX_MAGNITUDE` in ASCII digits (a RecordError when ``line`` is given).

    >>> parse_whole("120", "bid")
    120
    >>> parse_whole("9" * 5000, "number of tricks", line=3)
    Traceback (most recent call last):
    ...
    pyanalyzer.scoring.errors.RecordError: line 3: number '99999...' too large for number of tricks: at most ...
    """
    token = text.strip()
    if not _WHOLE.match(token):
        error = f"bad {what} {shown(token)}: write a whole number in ASCII digits 0-9"
    elif len(token.lstrip("0")) > len(str(MAX_MAGNITUDE)) or int(token) > MAX_MAGNITUDE:
        error = f"number {shown(token)} too large for {what}: at most {MAX_MAGNITUDE:,}"
    else:
        return int(token)
    if line is not None:
        raise RecordError(error, token, line)
    raise ScoringError(error, token)


def read_text(path: str, what: str) -> str:
    """The text of the file at ``path`` (``-``: standard input) for ``what`` (e.g. ``record file``).

    A RecordError names the file (unreadable, too large) or the line holding a
    byte that is not UTF-8.
    """
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        else:
            with open(path, "rb") as handle:
                data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        reason = error.strerror or str(error)
        raise RecordError(f"cannot read {what} {shown(path)}: {reason}", path) from None
    except ValueError as error:  # e.g. a file name holding a NUL character
        raise RecordError(f"cannot read {what} {shown(path)}: {error}", path) from None
    if len(data) > MAX_FILE_BYTES:
        raise RecordError(f"{what} {shown(path)} is too large: at most {MAX_FILE_BYTES // 2**20} MB", path)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        byte = data[error.start:error.start + 1].hex()
        raise RecordError(f"{what} {shown(path)} is not UTF-8 text (byte 0x{byte})", path, line) from None
