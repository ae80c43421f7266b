#!/usr/bin/env python3
"""on-terminal.py CMD...: runs CMD (in place of this process, so its pid is CMD's) with its standard
input on a new pseudo-terminal and its output where the caller sends it, as when an admin types it:
fstune report's defaults differ without a terminal."""
import os
import pty
import sys

master, tty = pty.openpty()
os.set_inheritable(master, True)  # a terminal whose other end is closed is none (EIO)
os.dup2(tty, 0)
os.execvp(sys.argv[1], sys.argv[1:])
