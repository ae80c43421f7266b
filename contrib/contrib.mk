# contrib/: the Ansible collection fstune.storage and its tests (run where ansible-core is installed),
# and the drift check the Debian package installs as a systemd service and timer.
TESTS += tests/fleet/ansible.sh tests/fleet/ansible-deb.sh tests/fleet/drift-check.sh
EXTRA_DIST += tests/fleet/ansible.sh tests/fleet/ansible-deb.sh tests/fleet/drift-check.sh contrib/ansible contrib/systemd
EXTRA_DIST += contrib/prometheus/fstune-alerts.yml
