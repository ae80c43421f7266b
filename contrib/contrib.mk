# contrib/: the Ansible collection fstune.storage and its tests (run where ansible-core is installed),
# and the drift check the Debian package installs as a systemd service and timer.
TESTS += tests/ansible.sh tests/ansible-deb.sh tests/drift-check.sh
EXTRA_DIST += tests/ansible.sh tests/ansible-deb.sh tests/drift-check.sh contrib/ansible contrib/systemd
EXTRA_DIST += contrib/prometheus/fstune-alerts.yml
