"""The suite cannot reach beyond loopback (pyproject addopts: --block-network, loopback allowed)."""

import socket

import pytest


def test_a_connection_beyond_loopback_is_refused_before_it_is_made():
    with socket.socket() as sock, pytest.raises(RuntimeError, match="Network is disabled"):
        sock.settimeout(0.5)
        sock.connect(("192.0.2.1", 443))  # TEST-NET-1: never routable


def test_loopback_stays_open_for_local_servers():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        with socket.create_connection(server.getsockname(), timeout=1):
            pass
