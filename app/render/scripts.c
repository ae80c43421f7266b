/* The apply and revert scripts (scripts.h): POSIX sh arranged by disruption class around the
 * commands the setting table built and quoted. Nothing here builds a command of its own: the
 * commands, their read forms and the fstab options come from the rules layer; the shell helpers
 * below only check, ask, install files and show the fstab change. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/render/report_model.h"
#include "app/render/report_render.h"
#include "app/render/scripts.h"
#include "lib/xalloc.h"
#include "fstune/output.h"
#include "fstune/rules.h"
#include "fstune/shell.h"
#include "fstune/status.h"
#include "fstune/utf8.h"

/* Ends every here-document; no line the setting table builds is this word alone. */
#define HEREDOC_END "FSTUNE_EOF"

/* The shell helpers both scripts share, then each one's own (tests/report/scripts-*.sh run the scripts
 * through sh -n and shellcheck). */
static const char sh_helpers_head[] =
	"say() { printf '%s: %s\\n' \"$me\" \"$*\"; }\n"
	"die() {\n"
	"\tstatus=$1\n"
	"\tshift\n"
	"\tprintf '%s: %s\\n' \"$me\" \"$*\" >&2\n"
	"\texit \"$status\"\n"
	"}\n"
	"\n"
	"here=$(cd \"$(dirname \"$0\")\" && pwd)\n"
	"saved_dir=$here/apply-saved\n";

static const char sh_options_head[] =
	"while [ $# -gt 0 ]; do\n"
	"\tcase $1 in\n"
	"\t--yes) yes=1 ;;\n"
	"\t--live) live=1 ;;\n";

static const char sh_options_tail[] =
	"\t--root)\n"
	"\t\t[ $# -ge 2 ] || die 2 \"--root needs a directory\"\n"
	"\t\troot=$(cd \"$2\" 2>/dev/null && pwd) || die 2 \"--root $2: no such directory\"\n"
	"\t\tshift\n"
	"\t\t;;\n"
	"\t-h | --help)\n"
	"\t\tusage\n"
	"\t\texit 0\n"
	"\t\t;;\n"
	"\t*)\n"
	"\t\tusage >&2\n"
	"\t\tdie 2 \"unknown option '$1'\"\n"
	"\t\t;;\n"
	"\tesac\n"
	"\tshift\n"
	"done\n";

static const char sh_helpers_tail[] =
	"[ -n \"$root\" ] || live=1\n"
	"\n"
	"# The step under way, named if the script stops in it.\n"
	"current_step=\n"
	"step() {\n"
	"\tcurrent_step=$1\n"
	"\tsay \"$1\"\n"
	"}\n"
	"on_exit() {\n"
	"\tstatus=$?\n"
	"\tif [ \"$status\" -ne 0 ] && [ -n \"$current_step\" ]; then\n"
	"\t\tprintf '%s: stopped in %s (status %s)\\n' \"$me\" \"$current_step\" \"$status\" >&2\n"
	"\tfi\n"
	"}\n"
	"trap on_exit EXIT\n"
	"\n"
	"is_live() { [ \"$live\" = 1 ]; }\n"
	"\n"
	"# ask QUESTION: yes with --yes, else what the admin answers (no answer is no).\n"
	"ask() {\n"
	"\t[ \"$yes\" = 1 ] && return 0\n"
	"\tprintf '%s: %s [y/N] ' \"$me\" \"$1\" >&2\n"
	"\tanswer=\n"
	"\tread -r answer || :\n"
	"\tcase $answer in\n"
	"\t[yY] | [yY][eE][sS]) return 0 ;;\n"
	"\tesac\n"
	"\tsay \"skipped\"\n"
	"\treturn 1\n"
	"}\n";

static const char sh_apply_helpers[] =
	"\n"
	"# refuse_host_wide STEPS: inside a container, steps that change what the whole host shares run\n"
	"# only with --host-wide (the admin owns the host); without it the script stops before any change.\n"
	"refuse_host_wide() {\n"
	"\tis_live && [ \"$host_wide\" != 1 ] || return 0\n"
	"\tdie 4 \"inside a container, $1 would change the whole host for every tenant: pass --host-wide\" \\\n"
	"\t\t\"if you own the host\"\n"
	"}\n"
	"\n"
	"# check SETTING RECORDED NOW: counts a value that changed since fstune probed it.\n"
	"drifted=0\n"
	"check() {\n"
	"\t[ \"$2\" = \"$3\" ] && return 0\n"
	"\tprintf \"%s: %s was '%s' when fstune probed it and is '%s' now\\n\" \"$me\" \"$1\" \"$2\" \"$3\" >&2\n"
	"\tdrifted=$((drifted + 1))\n"
	"}\n"
	"checked() {\n"
	"\t[ \"$drifted\" = 0 ] && return 0\n"
	"\t[ \"$force\" = 1 ] || die 4 \"$drifted value(s) changed since the report (someone else tuned this\" \\\n"
	"\t\t\"machine, or apply.sh ran before): run fstune again, or pass --force to apply anyway.\"\n"
	"\tsay \"--force: going on\"\n"
	"}\n"
	"\n"
	"# The root the files go under, the same for revert.sh: kept with the saved copies.\n"
	"note_root() {\n"
	"\tif [ -f \"$saved_dir/root\" ]; then\n"
	"\t\t[ \"$(cat \"$saved_dir/root\")\" = \"$root\" ] ||\n"
	"\t\t\tdie 2 \"apply.sh ran before with --root '$(cat \"$saved_dir/root\")': run revert.sh with it first\"\n"
	"\telse\n"
	"\t\tmkdir -p \"$saved_dir\"\n"
	"\t\tprintf '%s\\n' \"$root\" >\"$saved_dir/root\"\n"
	"\tfi\n"
	"}\n"
	"\n"
	"# make_dirs DIR: DIR and its missing parents, each recorded for revert.sh to remove.\n"
	"make_dirs() {\n"
	"\t[ -d \"$1\" ] && return 0\n"
	"\tmake_dirs \"$(dirname \"$1\")\"\n"
	"\tmkdir \"$1\"\n"
	"\tprintf '%s\\n' \"$1\" >>\"$saved_dir/dirs\"\n"
	"}\n"
	"\n"
	"# install_file PATH < CONTENT: PATH under the root, written whole and renamed into place; an\n"
	"# existing file is first copied beside these scripts (once: a second run keeps the first copy).\n"
	"install_file() {\n"
	"\tdest=$root$1\n"
	"\tsaved=$saved_dir$1\n"
	"\tnote_root\n"
	"\tif [ ! -e \"$saved\" ] && [ ! -e \"$saved.created\" ]; then\n"
	"\t\tmkdir -p \"$(dirname \"$saved\")\"\n"
	"\t\tif [ -e \"$dest\" ]; then\n"
	"\t\t\tcp -p \"$dest\" \"$saved\"\n"
	"\t\t\tsay \"kept a copy of $dest in $saved\"\n"
	"\t\telse\n"
	"\t\t\t: >\"$saved.created\"\n"
	"\t\tfi\n"
	"\tfi\n"
	"\tmake_dirs \"$(dirname \"$dest\")\"\n"
	"\ttmp=$dest.fstune-new.$$\n"
	"\t(umask 022 && cat >\"$tmp\")\n"
	"\tmv -f \"$tmp\" \"$dest\"\n"
	"\tsay \"installed $dest\"\n"
	"}\n"
	"\n"
	"# show_fstab MOUNTPOINT ON OFF: the change of the fstab entry that keeps options ON (dropping\n"
	"# those OFF names; \"name=\" stands for every value), as a diff. Nothing is written. The\n"
	"# values reach awk through its environment, which, unlike -v, takes backslashes as they are;\n"
	"# fstab's octal escapes (\\040 for a space) are undone, bytes compared as bytes (LC_ALL=C).\n"
	"show_fstab() {\n"
	"\tfstab=$root/etc/fstab\n"
	"\tif [ ! -f \"$fstab\" ]; then\n"
	"\t\tsay \"no $fstab: to keep them across reboots, mount $1 with the options $2\"\n"
	"\t\treturn 0\n"
	"\tfi\n"
	"\tFSTUNE_MNT=$1 FSTUNE_ON=$2 FSTUNE_OFF=$3 FSTUNE_FSTAB=$fstab LC_ALL=C awk '\n"
	"\t" FST_AWK_UNOCT "\n"
	"\tfunction dropped(o, i, k) {\n"
	"\t\tfor (i = 1; i <= n_off; i++) {\n"
	"\t\t\tk = drop[i]\n"
	"\t\t\tif (o == k || (k ~ /=$/ && index(o, k) == 1))\n"
	"\t\t\t\treturn 1\n"
	"\t\t}\n"
	"\t\tfor (i = 1; i <= n_on; i++)\n"
	"\t\t\tif (o == add[i])\n"
	"\t\t\t\treturn 1\n"
	"\t\treturn 0\n"
	"\t}\n"
	"\tBEGIN {\n"
	"\t\tmnt = ENVIRON[\"FSTUNE_MNT\"]; on = ENVIRON[\"FSTUNE_ON\"]; name = ENVIRON[\"FSTUNE_FSTAB\"]\n"
	"\t\tn_on = split(on, add, \",\"); n_off = split(ENVIRON[\"FSTUNE_OFF\"], drop, \",\"); found = 0\n"
	"\t}\n"
	"\t$0 !~ /^[ \\t]*#/ && NF >= 4 && unoct($2) == mnt {\n"
	"\t\tfound = 1\n"
	"\t\tm = split($4, o, \",\")\n"
	"\t\topts = \"\"\n"
	"\t\tfor (i = 1; i <= m; i++)\n"
	"\t\t\tif (!dropped(o[i]))\n"
	"\t\t\t\topts = opts (opts == \"\" ? \"\" : \",\") o[i]\n"
	"\t\tfor (i = 1; i <= n_on; i++)\n"
	"\t\t\topts = opts (opts == \"\" ? \"\" : \",\") add[i]\n"
	"\t\tnew = $1 \"\\t\" $2 \"\\t\" $3 \"\\t\" opts\n"
	"\t\tfor (i = 5; i <= NF; i++)\n"
	"\t\t\tnew = new \"\\t\" $i\n"
	"\t\tprintf \"--- %s\\n+++ %s (the options fstune recommends)\\n-%s\\n+%s\\n\", name, name, $0, new\n"
	"\t}\n"
	"\tEND {\n"
	"\t\tif (!found)\n"
	"\t\t\tprintf \"%s has no entry for %s: mount it with the options %s\\n\", name, mnt, on\n"
	"\t}' \"$fstab\"\n"
	"}\n";

static const char sh_revert_helpers[] =
	"\n"
	"# The root apply.sh installed its files under: revert.sh must be given the same.\n"
	"if [ -f \"$saved_dir/root\" ] && [ \"$(cat \"$saved_dir/root\")\" != \"$root\" ]; then\n"
	"\tdie 2 \"apply.sh installed its files under '$(cat \"$saved_dir/root\")':\" \\\n"
	"\t\t\"give revert.sh the same --root\"\n"
	"fi\n"
	"\n"
	"# restore_file PATH: the copy apply.sh kept put back, or the file it created removed; a file it\n"
	"# did not install is left alone.\n"
	"restore_file() {\n"
	"\tdest=$root$1\n"
	"\tsaved=$saved_dir$1\n"
	"\tif [ -f \"$saved\" ]; then\n"
	"\t\ttmp=$dest.fstune-old.$$\n"
	"\t\tcp -p \"$saved\" \"$tmp\"\n"
	"\t\tmv -f \"$tmp\" \"$dest\"\n"
	"\t\trm -f \"$saved\"\n"
	"\t\tsay \"put back $dest as it was before apply.sh\"\n"
	"\telif [ -e \"$saved.created\" ]; then\n"
	"\t\trm -f \"$dest\" \"$saved.created\"\n"
	"\t\tsay \"removed $dest, which apply.sh installed\"\n"
	"\telse\n"
	"\t\tsay \"$dest: not installed by apply.sh, left as it is\"\n"
	"\tfi\n"
	"}\n"
	"\n"
	"# The directories apply.sh made, deepest first (only when empty), then the record itself.\n"
	"forget_saved() {\n"
	"\tif [ -f \"$saved_dir/dirs\" ]; then\n"
	"\t\tsort -r \"$saved_dir/dirs\" | while IFS= read -r d; do\n"
	"\t\t\trmdir \"$d\" 2>/dev/null || :\n"
	"\t\tdone\n"
	"\tfi\n"
	"\trm -f \"$saved_dir/dirs\" \"$saved_dir/root\"\n"
	"\t[ ! -d \"$saved_dir\" ] || find \"$saved_dir\" -depth -type d -exec rmdir {} \\; 2>/dev/null || :\n"
	"}\n";

/* `prefix` and `text` as one comment line. Either may quote what the facts hold (a file name of the
 * owners, a mount point): a line break in it would end the comment and make the rest a command, so
 * each is a space; any other control character is written visibly (\x1b), so that reading the
 * script in a terminal is safe too. */
static void put_comment(FILE *out, const char *prefix, const char *text)
{
	char *line = xasprintf("%s%s", prefix, text ? text : ""), *shown;

	for (char *p = line; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	shown = fst_text_visible(line, false);
	fprintf(out, "%s\n", shown);
	free(shown);
	free(line);
}

/* "# id (severity): title" above each step. */
static void rec_comment(FILE *out, const struct report_rec *r)
{
	char *head = xasprintf("# %s (%s): ", r->id ? r->id : "?", r->severity ? r->severity : "?");

	put_comment(out, head, r->title);
	free(head);
}

/* A section heading: the report's title of the class and, in apply.sh, its blurb; then what the
 * script does with it. */
static void section(FILE *out, const char *disruption, const char *what, bool has_blurb)
{
	const struct report_group *g = &report_groups[report_group_index(disruption)];

	fprintf(out, "\n# ---- %s ----\n", g->title);
	if (has_blurb)
		put_comment(out, "# ", g->blurb);
	if (what)
		put_comment(out, "# ", what);
}

static void write_usage(FILE *out, bool is_apply)
{
	fprintf(out, "usage() {\n\tcat <<'%s'\n", HEREDOC_END);
	if (is_apply)
		fputs("Usage: sh apply.sh [--yes] [--force] [--host-wide] [--root DIR [--live]]\n"
		      "  --yes       no questions: the online and remount steps run too\n"
		      "  --force     go on even if a value changed since fstune probed it\n"
		      "  --host-wide inside a container: make the changes the whole host shares too\n",
		      out);
	else
		fputs("Usage: sh revert.sh [--yes] [--root DIR [--live]]\n"
		      "  --yes       no questions: the remount and online steps are taken back too\n", out);
	fputs("  --root DIR  the files are under DIR; nothing on the running system changes\n"
	      "  --live      with --root: the running system changes as well\n", out);
	fprintf(out, "%s\n}\n", HEREDOC_END);
}

/* The opening: what the script is, the time stamp (the one line that differs between runs), the
 * options and the helpers. */
static void write_head(FILE *out, const struct report_model *m, bool is_apply)
{
	const char *mp = m->mount_point, *dev = m->device_path;
	char *when = report_generated_line(), *target;

	target = xasprintf("%s%s%s", mp ? mp : dev ? dev : "the facts of the report", mp && dev ? " on " : "",
			   mp && dev ? dev : "");
	fputs("#!/bin/sh\n", out);
	if (is_apply) {
		put_comment(out, "# apply.sh: the changes fstune recommends for ", target);
		fprintf(out, "# Generated by %s\n", when);
		fputs("#\n"
		      "# Read it before running it. It first checks that the values fstune found are still in\n"
		      "# place and stops (status 4) if one changed since, unless given --force. Then it makes\n"
		      "# the runtime changes, installs the files that keep them across reboots (an existing\n"
		      "# file is first copied into apply-saved/ beside it), shows the fstab change as a diff\n"
		      "# without making it, and asks before each online and remount step. Offline, reboot\n"
		      "# and reformat steps are only described, in comments. revert.sh takes it all back.\n", out);
	} else {
		put_comment(out, "# revert.sh: takes back what apply.sh changed for ", target);
		fprintf(out, "# Generated by %s\n", when);
		fputs("#\n"
		      "# Puts back the values fstune found (remount and online steps asked first), removes\n"
		      "# the files apply.sh installed and puts back the copies it kept of files it replaced\n"
		      "# (in apply-saved/ beside it). Files apply.sh did not install are left alone.\n", out);
	}
	fputs(is_apply ? "# Exit status: 0 done, 2 bad option, 4 refused (a value changed since the probe, or a\n"
			 "# host-wide change inside a container without --host-wide), else the status of the command\n"
			 "# that failed, named on standard error.\n\nset -eu\n"
		       : "# Exit status: 0 done, 2 bad option, 4 refused (a value changed since the probe), else the\n"
			 "# status of the command that failed, named on standard error.\n\nset -eu\n",
	      out);
	fprintf(out, "me=%s\n", is_apply ? "apply.sh" : "revert.sh");
	write_usage(out, is_apply);
	fputs(sh_helpers_head, out);
	fprintf(out, "yes=0 live=0%s root=''\n", is_apply ? " force=0 host_wide=0" : "");
	fputs(sh_options_head, out);
	if (is_apply)
		fputs("\t--force) force=1 ;;\n\t--host-wide) host_wide=1 ;;\n", out);
	fputs(sh_options_tail, out);
	fputs(sh_helpers_tail, out);
	fputs(is_apply ? sh_apply_helpers : sh_revert_helpers, out);
	free(when);
	free(target);
}

/* The plain commands of a recommendation's `apply` or `revert`: the labelled forms of a document
 * (a "persistent" line, say) are not commands to run. */
struct cmds {
	const struct report_command *v;
	size_t n;
};

static struct cmds cmds_of(const struct report_rec *r, bool is_revert)
{
	return is_revert ? (struct cmds){r->revert, r->n_revert} : (struct cmds){r->apply, r->n_apply};
}

static size_t plain_count(struct cmds c)
{
	size_t n = 0;

	for (size_t i = 0; i < c.n; i++)
		n += !c.v[i].label;
	return n;
}

/* The commands as one line, "cmd; cmd". */
static char *commands_joined(struct cmds c)
{
	size_t i, len = 1;
	bool is_first = true;
	char *out;

	for (i = 0; i < c.n; i++)
		len += c.v[i].label ? 0 : strlen(c.v[i].text) + 2;
	out = xcalloc(1, len);
	for (i = 0; i < c.n; i++) {
		if (c.v[i].label)
			continue;
		if (!is_first)
			strcat(out, "; ");
		strcat(out, c.v[i].text);
		is_first = false;
	}
	return out;
}

/* One step: its commands on the running system only, behind a question when `is_asked`. */
static void write_step(FILE *out, const struct report_rec *r, bool is_revert, bool is_asked)
{
	struct cmds c = cmds_of(r, is_revert);
	char *id = fst_shell_quote(r->id ? r->id : "");

	rec_comment(out, r);
	if (r->accepted) {
		fputs("#   accepted in the report: left as it is\n", out);
	} else if (plain_count(c) == 0) {
		fputs(!is_revert ? "#   nothing to run\n" : "#   nothing to put back: the value before it was not known\n",
		      out);
	} else {
		if (is_asked) {
			char *all = commands_joined(c), *q = xasprintf("%s: run %s?", r->id ? r->id : "?", all);
			char *qq = fst_shell_quote(q);

			fprintf(out, "if is_live && ask %s; then\n", qq);
			free(all);
			free(q);
			free(qq);
		} else {
			fputs("if is_live; then\n", out);
		}
		fprintf(out, "\tstep %s\n", id);
		for (size_t i = 0; i < c.n; i++)
			if (!c.v[i].label)
				fprintf(out, "\t%s\n", c.v[i].text);
		fputs("fi\n", out);
	}
	free(id);
}

static void write_steps(FILE *out, const struct report_rec_group *g, bool is_revert, bool is_asked,
			bool is_reversed)
{
	if (g->n == 0)
		fputs("# None.\n", out);
	for (size_t i = 0; i < g->n; i++)
		write_step(out, g->recs[is_reversed ? g->n - 1 - i : i], is_revert, is_asked);
}

/* The drift check of every step apply.sh may run: the value the setting table reads back now
 * against the one the probe found. */
static void write_checks(FILE *out, const struct facts *facts, const struct report_rec_group *const *groups,
			 size_t n)
{
	bool any = false;

	for (size_t g = 0; g < n; g++)
		for (size_t i = 0; i < groups[g]->n; i++) {
			const struct report_rec *r = groups[g]->recs[i];
			char *cmd = NULL, *recorded = NULL;

			if (!r->setting || r->accepted || plain_count(cmds_of(r, false)) == 0)
				continue;
			if (!any)
				fputs("if is_live; then\n", out);
			any = true;
			if (rules_setting_read(r->setting, facts, r->current, &cmd, &recorded)) {
				char *qs = fst_shell_quote(r->setting), *qr = fst_shell_quote(recorded);

				fprintf(out, "\tcheck %s %s \"$(%s || :)\"\n", qs, qr, cmd);
				free(qs);
				free(qr);
			} else {
				fprintf(out, "\t# %s: not checked, fstune cannot read it back or did not know it\n",
					r->setting);
			}
			free(cmd);
			free(recorded);
		}
	if (any)
		fputs("\tchecked\nfi\n", out);
	else
		fputs("# Nothing to check: no step changes the running system.\n", out);
}

/* Inside a container, the steps of settings the whole host shares (the report marked them
 * host_wide): refused before anything runs, naming them, unless --host-wide. */
static void write_host_wide(FILE *out, const struct report_rec_group *const *groups, size_t n)
{
	char *names = NULL, *q;

	for (size_t g = 0; g < n; g++)
		for (size_t i = 0; i < groups[g]->n; i++) {
			const struct report_rec *r = groups[g]->recs[i];
			char *more;

			if (!r->host_wide || r->accepted || plain_count(cmds_of(r, false)) == 0)
				continue;
			more = xasprintf("%s%s%s (%s)", names ? names : "", names ? ", " : "", r->setting ? r->setting : "?",
					 r->id ? r->id : "?");
			free(names);
			names = more;
		}
	if (!names) {
		fputs("# None: no step changes what the whole host shares from inside a container.\n", out);
		return;
	}
	q = fst_shell_quote(names);
	fprintf(out, "refuse_host_wide %s\n", q);
	free(q);
	free(names);
}

/* A file fstune owns (sysctl.d, the udev rule) and its lines, borrowed from the model. */
struct owned_file {
	const char *path;
	const char **lines;
	size_t n_lines;
};

/* The files of the runtime group's persistent forms, by path in order of first use (at most one per
 * recommendation); *n of them. Other persistent forms are the admin's files: described (when `out`
 * is given), not written. */
static struct owned_file *owned_files(const struct report_rec_group *runtime, FILE *out, size_t *n)
{
	struct owned_file *files = xcalloc(runtime->n + 1, sizeof(*files));
	size_t i, j;

	*n = 0;
	for (i = 0; i < runtime->n; i++) {
		const struct report_rec *r = runtime->recs[i];
		const struct report_persistent *p = &r->persistent;

		if (!p->kind || !p->path || !p->line || r->accepted)
			continue;
		if (strcmp(p->kind, "sysctl.d") && strcmp(p->kind, "udev")) {
			if (out) {
				char *head = xasprintf("# %s: by hand, in %s: ", r->id ? r->id : "?", p->path);

				put_comment(out, head, p->line);
				free(head);
			}
			continue;
		}
		j = 0;
		while (j < *n && strcmp(files[j].path, p->path))
			j++;
		if (j == *n)
			files[(*n)++] = (struct owned_file){p->path, xcalloc(runtime->n, sizeof(char *)), 0};
		files[j].lines[files[j].n_lines++] = p->line;
	}
	return files;
}

static void owned_files_free(struct owned_file *files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(files[i].lines);
	free(files);
}

static void write_files(FILE *out, const struct report_rec_group *runtime)
{
	size_t n, i, j;
	struct owned_file *files = owned_files(runtime, out, &n);

	for (i = 0; i < n; i++) {
		char *q = fst_shell_quote(files[i].path);

		fprintf(out, "install_file %s <<'%s'\n", q, HEREDOC_END);
		fputs("# Installed by fstune's apply.sh; its revert.sh removes it, or puts back the file it replaced.\n",
		      out);
		for (j = 0; j < files[i].n_lines; j++)
			fprintf(out, "%s\n", files[i].lines[j]);
		fprintf(out, "%s\n", HEREDOC_END);
		free(q);
	}
	if (n == 0)
		fputs("# No file to install.\n", out);
	owned_files_free(files, n);
}

static void write_restores(FILE *out, const struct report_rec_group *runtime)
{
	size_t n;
	struct owned_file *files = owned_files(runtime, NULL, &n);

	for (size_t i = 0; i < n; i++) {
		char *q = fst_shell_quote(files[i].path);

		fprintf(out, "restore_file %s\n", q);
		free(q);
	}
	fputs("forget_saved\n", out);
	owned_files_free(files, n);
}

/* Appends `item` to the comma-separated list `*list`. */
static void list_add(char **list, const char *item)
{
	char *n = *list ? xasprintf("%s,%s", *list, item) : xstrdup(item);

	free(*list);
	*list = n;
}

/* The fstab entry's change for the remount steps, shown as a diff against the root's fstab. */
static void write_fstab(FILE *out, const struct facts *facts, const struct report_rec_group *remount)
{
	char *mp = facts_get_bytes(facts, "fs.mount_point"); /* the bytes, as the shell gets them */
	char *on_all = NULL, *off_all = NULL;

	for (size_t i = 0; i < remount->n; i++) {
		const struct report_rec *r = remount->recs[i];
		const struct report_persistent *p = &r->persistent;
		char *on, *off;

		if (r->accepted || !p->kind || !r->setting)
			continue;
		if (strcmp(p->kind, "fstab")) {
			/* a mount unit or the admin's own line wins over fstab: said, never written */
			char *head = xasprintf("# %s: by hand, in %s: ", r->id ? r->id : "?",
					       p->path ? p->path : "the file that mounts it");

			put_comment(out, head, p->line ? p->line : "");
			free(head);
			continue;
		}
		if (!rules_setting_mount_change(r->setting, r->recommended, &on, &off))
			continue;
		list_add(&on_all, on);
		list_add(&off_all, off);
		free(on);
		free(off);
	}
	if (on_all && mp && *mp == '/') {
		char *qm = fst_shell_quote(mp), *qon = fst_shell_quote(on_all), *qoff = fst_shell_quote(off_all);

		fprintf(out, "show_fstab %s %s %s\n", qm, qon, qoff);
		free(qm);
		free(qon);
		free(qoff);
	} else if (on_all) {
		put_comment(out, "# The facts name no mount point: add these options to its fstab entry: ", on_all);
	} else {
		fputs("# No fstab change.\n", out);
	}
	free(on_all);
	free(off_all);
	free(mp);
}

/* A class this script does not run: each step's commands, commented out. */
static void write_described(FILE *out, const struct report_rec_group *g)
{
	for (size_t i = 0; i < g->n; i++) {
		const struct report_rec *r = g->recs[i];

		rec_comment(out, r);
		for (size_t j = 0; j < r->n_apply; j++)
			if (!r->apply[j].label)
				put_comment(out, "#   ", r->apply[j].text);
		if (r->persistent.line)
			put_comment(out, "#   and: ", r->persistent.line);
	}
	if (g->n == 0)
		fputs("# None.\n", out);
}

/* The reformat class as the report merges it: one mkfs command per filesystem. */
static void write_mkfs(FILE *out, const struct report_model *m, const struct report_rec_group *reformat)
{
	size_t i, j;

	for (i = 0; i < reformat->n; i++)
		rec_comment(out, reformat->recs[i]);
	for (i = 0; i < m->n_mkfs; i++) {
		fputs("# The one command for all of them (everything on the filesystem is lost):\n", out);
		put_comment(out, "#   ", m->mkfs[i].command);
		for (j = 0; j < m->mkfs[i].n_from; j++)
			put_comment(out, "#   from ", m->mkfs[i].from[j]);
		for (j = 0; j < m->mkfs[i].n_notes; j++)
			put_comment(out, "#   note: ", m->mkfs[i].notes[j]);
	}
	if (reformat->n == 0)
		fputs("# None.\n", out);
}

/* Whether a command of the step's apply or revert list holds `word`. */
static bool step_names(const struct report_rec *r, const char *word)
{
	for (size_t i = 0; i < r->n_apply; i++)
		if (strstr(r->apply[i].text, word))
			return true;
	for (size_t i = 0; i < r->n_revert; i++)
		if (strstr(r->revert[i].text, word))
			return true;
	return false;
}

/* Why a step the scripts would run is left out, or NULL: its commands need a mount point, a device
 * or a disk the facts do not name (the setting table wrote "${MOUNTPOINT:?}", "${DEVICE:?}" or
 * "${DISK:?}", which would stop the script half-way), or name a device.path that is no block device
 * on this host (the facts of another machine: a command must never name what is not there). A new
 * string. */
static char *left_out(const struct facts *facts, const struct report_rec *r)
{
	char *dev = facts_get_bytes(facts, "device.path"), *word = dev ? fst_shell_quote(dev) : NULL, *why = NULL;
	struct stat st;

	if (step_names(r, "${MOUNTPOINT:?}"))
		why = xstrdup("the facts name no mount point (fs.mount_point), so no command can say which one");
	else if (step_names(r, "${DEVICE:?}"))
		why = xstrdup("the facts name no device (device.path), so no command can say which one");
	else if (step_names(r, "${DISK:?}"))
		why = xstrdup("the facts name no disk (device.disk), so no command can say which one");
	else if (word && step_names(r, word) && (stat(dev, &st) != 0 || !S_ISBLK(st.st_mode)))
		why = xasprintf("device.path %s is not a block device on this host (are these another machine's "
				"facts?): make the scripts on the machine they are for",
				facts_get_string(facts, "device.path"));
	free(word);
	free(dev);
	return why;
}

/* The steps the scripts run, by class, and those they leave out (each with why). */
enum { RUN_RUNTIME, RUN_ONLINE, RUN_REMOUNT, RUN_N };

struct runnable {
	struct report_rec_group g[RUN_N]; /* the model's runtime, online and remount groups less... */
	const struct report_rec **left;   /* ...these, */
	char **why;                       /* for these reasons */
	size_t n_left;
};

static void runnable_load(struct runnable *run, const struct report_model *m, const struct facts *facts)
{
	static const char *const classes[RUN_N] = {"runtime", "online", "remount"};

	memset(run, 0, sizeof(*run));
	for (size_t k = 0; k < RUN_N; k++) {
		const struct report_rec_group *g = report_model_group(m, classes[k]);

		run->g[k].def = g->def;
		run->g[k].recs = xcalloc(g->n + 1, sizeof(*run->g[k].recs));
		run->left = xrealloc(run->left, (run->n_left + g->n + 1) * sizeof(*run->left));
		run->why = xrealloc(run->why, (run->n_left + g->n + 1) * sizeof(*run->why));
		for (size_t i = 0; i < g->n; i++) {
			char *why = g->recs[i]->accepted ? NULL : left_out(facts, g->recs[i]);

			if (why) {
				run->left[run->n_left] = g->recs[i];
				run->why[run->n_left++] = why;
			} else {
				run->g[k].recs[run->g[k].n++] = g->recs[i];
			}
		}
	}
}

static void runnable_free(struct runnable *run)
{
	for (size_t k = 0; k < RUN_N; k++)
		free(run->g[k].recs);
	for (size_t i = 0; i < run->n_left; i++)
		free(run->why[i]);
	free(run->left);
	free(run->why);
}

/* The steps left out, each commented with why and its commands. */
static void write_left_out(FILE *out, const struct runnable *run)
{
	if (run->n_left == 0)
		return;
	fputs("\n# ---- Left out: steps these scripts cannot run, and why ----\n", out);
	for (size_t i = 0; i < run->n_left; i++) {
		const struct report_rec *r = run->left[i];

		rec_comment(out, r);
		put_comment(out, "#   left out: ", run->why[i]);
		for (size_t j = 0; j < r->n_apply; j++)
			if (!r->apply[j].label)
				put_comment(out, "#   ", r->apply[j].text);
	}
}

static void write_apply(FILE *out, const struct report_model *m, const struct facts *facts)
{
	struct runnable run;
	const struct report_rec_group *runtime, *online, *remount, *other = report_model_group(m, NULL);

	runnable_load(&run, m, facts);
	runtime = &run.g[RUN_RUNTIME];
	online = &run.g[RUN_ONLINE];
	remount = &run.g[RUN_REMOUNT];
	write_head(out, m, true);
	fputs("\n# ---- Settings the whole host shares, from inside a container: only with --host-wide ----\n", out);
	write_host_wide(out, (const struct report_rec_group *const[]){runtime, online, remount}, 3);
	fputs("\n# ---- The values fstune found: apply.sh stops if one changed since ----\n", out);
	write_checks(out, facts, (const struct report_rec_group *const[]){runtime, online, remount}, 3);
	section(out, "runtime", NULL, true);
	write_steps(out, runtime, false, false, false);
	fputs("\n# ---- The files that keep the runtime changes across reboots (under --root DIR) ----\n", out);
	write_files(out, runtime);
	fputs("\n# ---- fstab: the options of the remount steps, shown as a diff and not applied ----\n", out);
	write_fstab(out, facts, remount);
	section(out, "online", "Each step is asked about first (--yes: run without asking).", true);
	write_steps(out, online, false, true, false);
	section(out, "remount", "Each remount is asked about first (--yes: run without asking).", true);
	write_steps(out, remount, false, true, false);
	section(out, "offline", "Not run by this script: the commands, for when the filesystem can be unmounted.",
		true);
	write_described(out, report_model_group(m, "offline"));
	section(out, "reboot", "Not run by this script.", true);
	write_described(out, report_model_group(m, "reboot"));
	section(out, "reformat", "Not run by this script.", true);
	write_mkfs(out, m, report_model_group(m, "reformat"));
	section(out, "advice", NULL, true);
	write_described(out, report_model_group(m, "advice"));
	if (other->n > 0) {
		section(out, NULL, "Not run by this script.", true);
		write_described(out, other);
	}
	write_left_out(out, &run);
	fputs("\ncurrent_step=\nsay \"done; revert.sh takes these changes back\"\n", out);
	runnable_free(&run);
}

static void write_revert(FILE *out, const struct report_model *m, const struct facts *facts)
{
	struct runnable run; /* apply.sh's steps, and only those */

	runnable_load(&run, m, facts);
	write_head(out, m, false);
	section(out, "remount", "The remounts of apply.sh taken back, last first; each is asked first.", false);
	write_steps(out, &run.g[RUN_REMOUNT], true, true, true);
	section(out, "online", "Taken back last first; each is asked about first.", false);
	write_steps(out, &run.g[RUN_ONLINE], true, true, true);
	section(out, "runtime", "The values fstune found, put back last first.", false);
	write_steps(out, &run.g[RUN_RUNTIME], true, false, true);
	fputs("\n# ---- The files apply.sh installed: removed, or the copy it kept put back ----\n", out);
	write_restores(out, &run.g[RUN_RUNTIME]);
	fputs("\n# apply.sh ran no offline, reboot or reformat step, so there is none to take back here.\n"
	      "\ncurrent_step=\nsay \"done\"\n", out);
	runnable_free(&run);
}

/* One script into its temporary: written, made 0700, flushed. false with `err` set on failure. */
static bool script_fill(struct fst_output *o, const char *path, bool is_apply, const struct report_model *m,
			const struct session *s, struct fst_error *err)
{
	FILE *fp = fst_output_stream(o);

	if (is_apply)
		write_apply(fp, m, s->facts);
	else
		write_revert(fp, m, s->facts);
	if (fchmod(fileno(fp), 0700) != 0 || report_finish(fp) != 0) {
		fst_error_set(err, FST_EXIT_USAGE, "cannot write %s: %s", path, strerror(errno));
		return false;
	}
	return true;
}

int scripts_write(const char *dir, const struct session *s, struct fst_error *err)
{
	static const char *const names[2] = {"apply.sh", "revert.sh"};
	struct fst_output *o[2] = {NULL, NULL};
	struct report_model *m = report_model_new(s);
	char *path[2];
	bool is_ok = scripts_make_dir(dir, err) == FST_EXIT_OK;
	int status = FST_EXIT_OK;

	for (size_t i = 0; i < 2; i++)
		path[i] = xasprintf("%s/%s", dir, names[i]);
	for (size_t i = 0; i < 2 && is_ok; i++) {
		o[i] = fst_output_open(path[i], err);
		is_ok = o[i] && script_fill(o[i], path[i], i == 0, m, s, err);
	}
	/* Both are complete before either replaces an older one: a failure leaves the pair as it was. */
	for (size_t i = 0; i < 2; i++) {
		struct fst_error e = FST_ERROR_INIT;

		if (fst_output_finish(o[i], is_ok, &e) != FST_EXIT_OK && status == FST_EXIT_OK) {
			status = fst_error_set(err, FST_EXIT_USAGE, "%s", e.msg);
			is_ok = false;
		}
		free(path[i]);
	}
	report_model_free(m);
	return is_ok && status == FST_EXIT_OK ? FST_EXIT_OK : FST_EXIT_USAGE;
}
