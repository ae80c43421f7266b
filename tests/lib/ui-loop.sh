# The opening of a wizard test on real loop devices, sourced first: a private mount namespace (the
# test's mounts cannot leak into the host's), the tmux driver and the wizard walk helpers, and the
# root, loop devices and tmux such a test needs (a skip, or under CI a failure, without them).
# Positional parameters are the test's own, for private_mount_ns to re-run it with.
# shellcheck shell=bash
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
private_mount_ns "$@"
. "$FSTUNE_SRCDIR/tests/lib/tmux.sh"
. "$FSTUNE_SRCDIR/tests/lib/ui.sh"
require_loop
require_tmux
