#!/usr/bin/python
# -*- coding: utf-8 -*-
# Runs `fstune report --format json` on the managed host and returns the report as the result.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
---
module: fstune_report
short_description: Report on a host's filesystem and disk tuning with fstune
version_added: "0.1.0"
description:
  - Runs C(fstune report --format json) on the managed host and returns the report
    (an C(fstune.report/1) document) as the module's result. Nothing on the host is changed,
    so the result is never C(changed).
  - Benchmarks write scratch files inside the I(target) directory (and remove them); in check
    mode they are skipped, and the probe and the rules still run.
  - Fails with fstune's own message and exit status on a usage or input error (status 2). A
    partial report (status 3, a probe or benchmark failed) or refused benchmarks (status 4) still
    return the report, with a warning.
options:
  target:
    description:
      - The directory, block device or filesystem image to examine (fstune's TARGET).
      - Defaults to fstune's default, the module's working directory; name it.
      - Mutually exclusive with I(facts).
    type: str
  facts:
    description:
      - A facts file on the host to evaluate instead of probing (C(fstune report --facts)), such as
        a C(fstune probe --format json) output, an earlier JSON report, or hand-written facts.
    type: path
  workload:
    description:
      - A workload preset (C(--workload)), as C(fstune workload --help) lists them.
    type: str
  bench:
    description:
      - The benchmarks to run before the rules. C(none) is the default, as it is for
        C(fstune report) without a terminal (the module runs it without one; on a terminal the
        command runs C(quick) where it can), so that a fleet run never writes to production
        filesystems unless asked. C(quick) and C(full) write scratch files in I(target), removed after.
    type: str
    choices: [none, quick, full]
    default: none
  rules_dirs:
    description:
      - More rule directories, loaded after the others (C(--rules-dir), in order).
    type: list
    elements: path
    default: []
  no_system_rules:
    description:
      - Skip C(/etc/fstune/rules.d) and C(/etc/fstune/accepted.conf) (C(--no-system-rules)).
    type: bool
    default: false
  accept:
    description:
      - Finding ids to mark accepted (C(--accept ID) each).
    type: list
    elements: str
    default: []
  accepted_file:
    description:
      - An accepted-findings file to read instead of C(/etc/fstune/accepted.conf) (C(--accepted)).
    type: path
  sysroot:
    description:
      - Read C(/sys) and C(/proc) from this directory, a captured machine (C(--sysroot)).
    type: path
  fstune:
    description:
      - The fstune program to run; a bare name is looked up in C(PATH).
    type: str
    default: fstune
requirements:
  - fstune on the managed host (the C(fstune) Debian package, or a build)
notes:
  - Supports check mode.
seealso:
  - name: fstune(1)
    description: The man page, section C(fstune report).
author:
  - fstune maintainers
"""

EXAMPLES = r"""
- name: Report on the filesystem holding /srv without benchmarks
  fstune.storage.fstune_report:
    target: /srv
  register: fstune

- name: Show the warnings
  ansible.builtin.debug:
    msg: "{{ fstune.report.recommendations | selectattr('severity', 'in', ['warn', 'critical']) | map(attribute='id') }}"

- name: Evaluate saved facts with the quick benchmarks off and one finding accepted
  fstune.storage.fstune_report:
    facts: /var/lib/fstune/facts.json
    accept:
      - queue.bfq_on_nvme
"""

RETURN = r"""
report:
  description: The C(fstune.report/1) document, as C(fstune report --format json) writes it.
  returned: success
  type: dict
  sample:
    schema: fstune.report/1
    facts: {fs: {type: ext4}}
    recommendations: [{id: mount.noatime, severity: suggest}]
    not_evaluated: []
status:
  description: fstune's exit status (0 done, 3 partial, 4 benchmarks refused; see fstune(1)).
  returned: always
  type: int
  sample: 0
cmd:
  description: The command that ran.
  returned: always
  type: list
  elements: str
  sample: [fstune, report, --format, json, --bench, none, /srv]
stderr:
  description: fstune's notes and errors.
  returned: always
  type: str
  sample: ""
"""

import json

from ansible.module_utils.basic import AnsibleModule


def build_command(module, binary):
    p = module.params
    cmd = [binary, "report", "--format", "json", "--quiet"]
    bench = "none" if module.check_mode else p["bench"]
    if p["facts"]:
        cmd += ["--facts", p["facts"]]
    else:
        cmd += ["--bench", bench]
    if p["workload"]:
        cmd += ["--workload", p["workload"]]
    for d in p["rules_dirs"]:
        cmd += ["--rules-dir", d]
    if p["no_system_rules"]:
        cmd.append("--no-system-rules")
    for finding in p["accept"]:
        cmd += ["--accept", finding]
    if p["accepted_file"]:
        cmd += ["--accepted", p["accepted_file"]]
    if p["sysroot"]:
        cmd += ["--sysroot", p["sysroot"]]
    if p["target"]:
        cmd.append(p["target"])
    return cmd


def main():
    module = AnsibleModule(
        argument_spec=dict(
            target=dict(type="str"),
            facts=dict(type="path"),
            workload=dict(type="str"),
            bench=dict(type="str", choices=["none", "quick", "full"], default="none"),
            rules_dirs=dict(type="list", elements="path", default=[]),
            no_system_rules=dict(type="bool", default=False),
            accept=dict(type="list", elements="str", default=[]),
            accepted_file=dict(type="path"),
            sysroot=dict(type="path"),
            fstune=dict(type="str", default="fstune"),
        ),
        mutually_exclusive=[["target", "facts"]],
        supports_check_mode=True,
    )
    binary = module.params["fstune"]
    if "/" not in binary:
        binary = module.get_bin_path(binary, required=True)
    cmd = build_command(module, binary)
    rc, out, err = module.run_command(cmd)
    result = dict(changed=False, status=rc, cmd=cmd, stderr=err)
    if rc not in (0, 3, 4):
        message = err.strip().splitlines()[0] if err.strip() else "fstune report exited with status %d" % rc
        module.fail_json(msg=message, rc=rc, **result)
    try:
        report = json.loads(out)
    except ValueError as e:
        module.fail_json(msg="fstune report wrote no JSON report: %s" % e, rc=rc, **result)
    if rc == 3:
        module.warn("fstune: the report is partial (status 3): a probe or benchmark failed")
    elif rc == 4:
        module.warn("fstune: the benchmarks were refused for safety (status 4): %s" % err.strip())
    module.exit_json(report=report, **result)


if __name__ == "__main__":
    main()
