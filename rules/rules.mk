# The rule engine (Lua host in C), the shipped rule scripts, the rules man page and their tests.
noinst_LIBRARIES += libfstune_rules.a
libfstune_rules_a_SOURCES = include/fstune/rules.h \
	rules/internal.h rules/lua_host.h rules/settings.h rules/settings_family.h rules/settings_forms.h \
	rules/meta.h \
	rules/engine.c rules/loader.c rules/child.c rules/sandbox.c rules/lua_host.c \
	rules/meta.c rules/recommend.c \
	rules/settings.c rules/settings_value.c rules/settings_forms.c rules/settings_facts.c \
	rules/settings_owners.c \
	rules/settings_sysctl.c rules/settings_sysfs.c rules/settings_bdi.c rules/settings_mount.c \
	rules/settings_ext.c rules/settings_xfs.c \
	rules/settings_mkfs.c rules/settings_freebsd.c rules/settings_systemd.c rules/settings_layout.c \
	rules/mkfs.c rules/mkfs_choose.c rules/mkfs_keep.c rules/verify.c \
	rules/vectors.c
libfstune_rules_a_CFLAGS = $(AM_CFLAGS) $(LUA_CFLAGS)

# The shipped rules are listed once, in rules/ruleset.mk.
dist_man_MANS += doc/fstune-rules.5

# tests/rules/test_engine runs the hostile rule files for tests/rules/rules-hostile.sh.
check_PROGRAMS += tests/rules/test_engine tests/rules/test_settings tests/rules/test_mkfs \
	tests/rules/test_verify tests/rules/test_rationale
tests_rules_test_settings_CFLAGS = $(AM_CFLAGS) $(LUA_CFLAGS)
RULES_TESTS = tests/rules/rules-engine.sh tests/rules/rules-hostile.sh tests/rules/rules-cli.sh \
	tests/rules/luacheck.sh
TESTS += tests/rules/test_settings tests/rules/test_mkfs tests/rules/test_verify tests/rules/test_rationale \
	$(RULES_TESTS)
EXTRA_DIST += $(RULES_TESTS) .luacheckrc \
	tests/rules/facts-server.json \
	tests/rules/good/extra.lua tests/rules/good/queue.lua \
	tests/rules/broken/syntax.lua tests/rules/broken/ok.lua \
	tests/rules/needs-bench/needs_bench.lua \
	tests/rules/hostile/bytecode.src \
	tests/rules/hostile/helpers.lua \
	tests/rules/hostile/facts_metatable.lua \
	tests/rules/hostile/gc_late.lua \
	tests/rules/hostile/membomb.lua \
	tests/rules/hostile/membomb_pcall.lua \
	tests/rules/hostile/missing_title.lua \
	tests/rules/hostile/not_a_table.lua \
	tests/rules/hostile/out_of_range.lua \
	tests/rules/hostile/pair_strmeta_a.lua \
	tests/rules/hostile/pair_strmeta_b.lua \
	tests/rules/hostile/pcall_loop.lua \
	tests/rules/hostile/recursion.lua \
	tests/rules/hostile/returns_function.lua \
	tests/rules/hostile/shell_meta.lua \
	tests/rules/hostile/syntax.lua \
	tests/rules/hostile/toplevel_loop.lua \
	tests/rules/hostile/undeclared_setting.lua \
	tests/rules/hostile/unknown_setting.lua \
	tests/rules/hostile/README
include rules/ruleset.mk
