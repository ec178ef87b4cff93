"""Hostile input at the edges: size caps, JSON that cannot hurt the parser, one clear line.

Every file a user hands over (CLI argument, stdin, upload) goes through here: it is read
up to a cap (so `/dev/zero` or a gigabyte file ends with a message, not MemoryError), and
JSON is parsed refusing duplicate keys, nesting deeper than any real file needs, and
integers of thousands of digits, each with one line that names the problem.
"""
from __future__ import annotations

import json
from decimal import Decimal
from typing import BinaryIO

# A full library export of 10,000 scenarios, each with its ruleset, is ~40 MB.
MAX_JSON_BYTES = 64 * 1024 * 1024
# The batch benchmark's 200,000 rows are ~30 MB; a million rows ~150 MB.
MAX_CSV_BYTES = 256 * 1024 * 1024
# Real files nest 4 deep (export > scenarios > scenario > ruleset > parameters > parameter).
MAX_DEPTH = 12
MAX_INT_DIGITS = 40   # money is at most 10^14 cents; anything longer is not an amount


class InputError(ValueError):
    """A whole file cannot be used; the message is one line that says why."""


def read_capped(fh: BinaryIO, limit: int, source: str) -> bytes:
    data = fh.read(limit + 1)
    if len(data) > limit:
        raise InputError(f"{source}: larger than {limit // (1024 * 1024):,} MB, the most accepted; "
                         "split it into smaller files")
    return data


def read_source(source: str, limit: int) -> bytes:
    """The bytes of a path, or of stdin for '-', at most `limit` of them."""
    import sys
    if source == "-":
        return read_capped(sys.stdin.buffer, limit, "stdin")
    try:
        with open(source, "rb") as fh:
            return read_capped(fh, limit, source)
    except FileNotFoundError:
        raise InputError(f"{source}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{source}: is a directory, not a file") from None
    except OSError as exc:
        raise InputError(f"{source}: cannot read ({exc.strerror})") from None


def _no_duplicates(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise InputError(f"the key {shorten(key, 40)!r} appears twice in one object; each key may appear once")
        out[key] = value
    return out


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise InputError(f"a number of {len(text.lstrip('-')):,} digits; numbers have at most {MAX_INT_DIGITS}")
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_INT_DIGITS + 20:
        raise InputError(f"a number of {len(text):,} characters; numbers have at most {MAX_INT_DIGITS + 20}")
    return float(text)


def depth(value, limit: int = MAX_DEPTH) -> int:
    """How deeply lists and tables nest (iteratively: a deep value cannot exhaust the stack)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, d = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        deepest = max(deepest, d)
        if deepest > limit:
            return deepest
        stack.extend((c, d + 1) for c in children)
    return deepest


def check_depth(value, source: str, limit: int = MAX_DEPTH) -> None:
    if depth(value, limit) > limit:
        raise InputError(f"{source}: nested more than {limit} levels deep; this is not a file this app writes")


def _decimal(text: str) -> Decimal:
    if len(text) > MAX_INT_DIGITS + 20:
        raise InputError(f"a number of {len(text):,} characters; numbers have at most {MAX_INT_DIGITS + 20}")
    return Decimal(text)


def parse_json(data: bytes | str, source: str, limit: int = MAX_JSON_BYTES, exact: bool = False):
    """JSON text -> value, or InputError with one line naming the file and the problem.
    exact=True reads numbers with a fraction as Decimal (money is never rounded on the way in)."""
    if len(data) > limit:
        raise InputError(f"{source}: larger than {limit // (1024 * 1024):,} MB, the most accepted")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise InputError(f"{source}: not UTF-8 text") from None
    try:
        value = json.loads(data, object_pairs_hook=_no_duplicates, parse_int=_int,
                           parse_float=_decimal if exact else _float)
    except InputError as exc:
        raise InputError(f"{source}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{source}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise InputError(f"{source}: nested more than {MAX_DEPTH} levels deep; this is not a file this app writes") \
            from None
    except (ValueError, MemoryError) as exc:
        raise InputError(f"{source}: cannot be read as JSON ({shorten(str(exc), 80)})") from None
    check_depth(value, source)
    return value


def shorten(text: str, limit: int) -> str:
    text = str(text)
    return text if len(text) <= limit else text[:limit] + f"… ({len(text):,} characters)"
