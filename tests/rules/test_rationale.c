/* Every command a shipped rule's rationale names is one its recommendation runs (in `apply` or
 * `revert`), or is on the list below of commands that are advice only, with the reason it cannot
 * be run for the admin. The rationales are those of every vector of every built-in rule, run
 * through the real engine, and of the reports on the servers and facts files the report tests use. A command is its program and first argument up to '=' or ','
 * ("tune2fs -O", "mount -o", "sysctl vm.dirty_ratio", "echo > /sys"). */
#include "config.h"

#include <glob.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fstune/rules.h"
#include "lib/xalloc.h"
#include "rules/internal.h"
#include "tests/lib/check.h"

/* Recommendation id prefix ("rule.name", or "rule." for every one of a rule), command, and why no
 * setting runs it. */
static const struct advice_only {
	const char *id, *command, *why;
} advice_only[] = {
	{"mount.discard_to_fstrim", "mount -o",
	 "names the remount XFS ignores (remount,nodiscard succeeds and changes nothing), to say why "
	 "the commands unmount the filesystem instead"},
	{"mount.fstrim_on_host", "fstrim -v", "run on the host, which a container cannot reach"},
	{"barriers.nobarrier_cache_unknown", "hdparm -W",
	 "reads the drive's cache state for the admin to judge; nothing is changed"},
	{"durability.flush_not_reaching_media", "hdparm -W",
	 "reads, then turns off, the drive's own cache: only after the admin has checked for a "
	 "battery- or flash-backed controller, which fstune cannot see, and at a large cost in "
	 "write speed; the drive may also forget it at a power cycle"},
	{"durability.flush_not_reaching_media", "sdparm --get", "reads the SCSI cache bit; nothing is changed"},
	{"durability.flush_not_reaching_media", "sdparm --clear",
	 "turns off the drive's cache: the same judgement as hdparm -W0"},
	{"nvme_lbaf.", "nvme id-ns", "lists the LBA formats; nothing is changed"},
	{"nvme_lbaf.", "nvme format",
	 "erases the whole namespace, partition table included: a step before partitioning that "
	 "fstune never runs for the admin (the mkfs command's notes put it first)"},
	{"devclass.", "nvme smart-log", "reads the drive's health log; nothing is changed"},
	{"reserve.", "tune2fs -r", "the same change as the tune2fs -m the commands run, spelled in blocks"},
	{"durability.flush_not_reaching_media", "hdparm -W0", "the same judgement as sdparm --clear=WCE"},
	{"mount.fstrim_unknown", "fstrim -av",
	 "whether fstrim.timer runs is unknown, so enabling it could not be taken back to what it was: "
	 "the admin checks first (systemctl status fstrim.timer)"},
	{"cow.nocow_dir", "chattr +C",
	 "the setting file.nocow runs it on the directory the facts name; without a mount point there "
	 "is no directory to run it on"},
};

/* The command patterns: program, then what its first argument must look like to be a command
 * rather than a word of prose ("btrfs filesystem df" is one, "the btrfs filesystem" is not). */
static const struct pattern {
	const char *program, *arg_regex;
} patterns[] = {
	{"mount", "^-o$"},
	{"tune2fs", "^-"},
	{"sysctl", "^(-[a-zA-Z]+|[a-z_]+\\.[a-z_.]+)$"},
	{"hdparm", "^-"},
	{"sdparm", "^-"},
	{"chattr", "^[-+=][A-Za-z]+$"},
	{"xfs_growfs", ""},
	{"xfs_io", ""},
	{"xfs_admin", ""},
	{"xfs_repair", ""},
	{"xfs_info", ""},
	{"btrfs", "^(filesystem|balance|property|scrub|subvolume|device|inspect-internal|check|quota|rescue)$"},
	{"nvme", "^(format|id-ns|id-ctrl|smart-log|sanitize|set-feature|get-feature)$"},
	{"fstrim", "^-"},
};

static int failures_found;

/* Whether some apply or revert line of `rec` contains `cmd`. */
static bool is_carried(const json_t *rec, const char *cmd)
{
	static const char *const lists[] = {"apply", "revert"};
	size_t i;
	json_t *line;

	for (size_t l = 0; l < 2; l++)
		json_array_foreach(json_object_get(rec, lists[l]), i, line)
			if (json_is_string(line) && strstr(json_string_value(line), cmd))
				return true;
	return false;
}

static const struct advice_only *listed(const char *id, const char *cmd)
{
	for (size_t i = 0; i < sizeof advice_only / sizeof advice_only[0]; i++) {
		size_t n = strlen(advice_only[i].id);
		bool id_ok = advice_only[i].id[n - 1] == '.' ? !strncmp(id, advice_only[i].id, n)
							     : !strcmp(id, advice_only[i].id);

		if (id_ok && !strcmp(cmd, advice_only[i].command))
			return &advice_only[i];
	}
	return NULL;
}

static bool is_word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("_./-", c);
}

/* The first argument after `at` (program and blanks already skipped), up to a blank, '=', ',' or a
 * closing quote or bracket. malloc'd. */
static char *first_arg(const char *at)
{
	size_t n = strcspn(at, " \t=,;:)'\"");

	return xstrndup(at, n);
}

/* Each command named in `text` (the rationale of `rec`): checked, and counted in `used`. */
static void check_rationale(const json_t *rec, const char *text, bool *used)
{
	const char *id = json_string_value(json_object_get(rec, "id"));

	for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; p++) {
		size_t plen = strlen(patterns[p].program);
		regex_t re;

		CHECK(regcomp(&re, patterns[p].arg_regex, REG_EXTENDED | REG_NOSUB) == 0);
		for (const char *at = strstr(text, patterns[p].program); at; at = strstr(at + 1, patterns[p].program)) {
			const char *after = at + plen, *tail;
			char *arg, *cmd;
			const struct advice_only *a;

			if ((at > text && is_word_char(at[-1])) || *after != ' ')
				continue; /* part of a longer word (umount, xfs_fs_reconfigure) or no argument */
			arg = first_arg(after + 1);
			tail = after + 1 + strlen(arg);
			if (!*arg || regexec(&re, arg, 0, NULL, 0) != 0 ||
			    (tail[0] == '\'' && tail[1] >= 'a' && tail[1] <= 'z')) { /* "the btrfs filesystem's" */
				free(arg);
				continue;
			}
			cmd = xasprintf("%s %s", patterns[p].program, arg);
			a = listed(id, cmd);
			if (a)
				used[a - advice_only] = true;
			else if (!is_carried(rec, cmd)) {
				fprintf(stderr, "%s: the rationale names '%s', which neither apply nor revert runs, "
					"and it is not on the advice-only list\n", id, cmd);
				failures_found++;
			}
			free(arg);
			free(cmd);
		}
		regfree(&re);
	}
}

/* echo VALUE > /sys/...: the sysfs write as the commands spell it. */
static void check_echo(const json_t *rec, const char *text)
{
	regex_t re;
	regmatch_t m;

	CHECK(regcomp(&re, "echo [^ ]+ > /sys", REG_EXTENDED) == 0);
	for (const char *at = text; regexec(&re, at, 1, &m, 0) == 0; at += m.rm_eo) {
		const json_t *line;
		size_t i;
		bool found = false;

		json_array_foreach(json_object_get(rec, "apply"), i, line)
			found |= !strncmp(json_string_value(line), "echo ", 5) && strstr(json_string_value(line), "> /sys");
		if (!found) {
			fprintf(stderr, "%s: the rationale names a write into /sys that apply does not run\n",
				json_string_value(json_object_get(rec, "id")));
			failures_found++;
		}
	}
	regfree(&re);
}

/* The recommendations of the built-in rules on each facts file the report tests use. */
static void check_facts_files(const struct rules_set *set, bool *used, size_t *n_recs)
{
	const char *srcdir = getenv("FSTUNE_SRCDIR");
	char *pattern[3];
	glob_t g = {0};

	CHECK(srcdir != NULL);
	if (!srcdir)
		return;
	pattern[0] = xasprintf("%s/tests/servers/*.json", srcdir);
	pattern[1] = xasprintf("%s/tests/servers/measured/*.json", srcdir);
	pattern[2] = xasprintf("%s/tests/facts/*.json", srcdir);
	for (size_t p = 0; p < 3; p++)
		glob(pattern[p], p ? GLOB_APPEND : 0, NULL, &g);
	CHECK(g.gl_pathc >= 20);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct fst_error err = FST_ERROR_INIT;
		struct facts *f = facts_load_file(g.gl_pathv[i], &err);
		struct rules_result res = {0};
		size_t j;
		json_t *rec;

		CHECK(f != NULL);
		if (!f)
			continue;
		rules_evaluate(set, f, &res);
		json_array_foreach(res.recommendations, j, rec) {
			const char *text = json_string_value(json_object_get(rec, "rationale"));

			(*n_recs)++;
			check_rationale(rec, text ? text : "", used);
			check_echo(rec, text ? text : "");
		}
		rules_result_free(&res);
		facts_free(f);
	}
	globfree(&g);
	for (size_t p = 0; p < 3; p++)
		free(pattern[p]);
}

int main(void)
{
	struct rules_options opt = {.no_system_rules = true};
	struct fst_error err = FST_ERROR_INIT;
	struct rules_set *set = rules_load(&opt, &err);
	bool used[sizeof advice_only / sizeof advice_only[0]] = {false};
	size_t i, j, n_recs = 0;
	json_t *all, *v, *rec;

	CHECK(set != NULL);
	all = rules_vector_recommendations(set);
	json_array_foreach(all, i, v)
		json_array_foreach(json_object_get(v, "recommendations"), j, rec) {
			const char *text = json_string_value(json_object_get(rec, "rationale"));

			n_recs++;
			check_rationale(rec, text ? text : "", used);
			check_echo(rec, text ? text : "");
		}
	fprintf(stderr, "%zu recommendations of %zu vectors checked\n", n_recs, json_array_size(all));
	CHECK(n_recs > 200); /* every built-in rule's vectors ran */
	check_facts_files(set, used, &n_recs);
	fprintf(stderr, "%zu recommendations with the facts files'\n", n_recs);
	/* an entry no rationale needs any more is removed, so that the list stays the reasons given */
	for (i = 0; i < sizeof advice_only / sizeof advice_only[0]; i++)
		if (!used[i]) {
			fprintf(stderr, "advice-only entry %s '%s' matches no rationale: remove it\n", advice_only[i].id,
				advice_only[i].command);
			failures_found++;
		}
	CHECK(failures_found == 0);
	json_decref(all);
	rules_set_free(set);
	return check_failures ? 1 : 0;
}
