# contrib/: the Ansible collection fstune.storage and its test (run where ansible-core is installed).
TESTS += tests/ansible.sh
EXTRA_DIST += tests/ansible.sh contrib/ansible
EXTRA_DIST += contrib/prometheus/fstune-alerts.yml
