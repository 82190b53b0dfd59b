"""The tree's arrays (trees/FORMAT.md §3) as bytes: little-endian unsigned ints of 1, 2 or 4 bytes."""
from __future__ import annotations

import sys
from array import array


def pack_uints(values, width: int) -> bytes:
    """Little-endian unsigned ints of ``width`` bytes (1, 2 or 4)."""
    typecode = {1: "B", 2: "H", 4: "I"}[width]
    packed = array(typecode, values)
    if packed.itemsize != width:
        packed = array("L" if width == 4 else typecode, values)
    if sys.byteorder == "big":
        packed.byteswap()
    return packed.tobytes()


def unpack_uints(data: bytes, width: int) -> array:
    typecode = {1: "B", 2: "H", 4: "I"}[width]
    values = array(typecode)
    if values.itemsize != width:
        values = array("L")
    values.frombytes(data)
    if sys.byteorder == "big":
        values.byteswap()
    return values
