"""The Python client of ``stawvs-ap serve``, at its first address: it lives in
:mod:`stawvs_ap.service.client` now, with the rest of the service. (A package
rather than a module, so that ``remote.py`` reads as moved, not rewritten.)

>>> from stawvs_ap.remote import Client, RemoteError
>>> from stawvs_ap.service import client
>>> Client is client.Client and RemoteError is client.RemoteError
True
"""

from __future__ import annotations

from ..service.client import RPC_CODES, Client, RemoteError

__all__ = ["RPC_CODES", "Client", "RemoteError"]
