/* One sandboxed lua_State per rule file, run inside a child process (child.c): a capped allocator,
 * text chunks only, the allow-listed libraries, an instruction budget that stays exhausted, and
 * every host step under lua_pcall. What it guarantees and what it does not is stated in engine.c. */
#include "config.h"

#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/internal.h"
#include "rules/lua_host.h"

#define HOOK_STEP 1000 /* instructions between count events while the budget lasts */
#define RECS_MAX 256   /* recommendations of one check(): more is a runaway rule */

struct sandbox {
	lua_State *L;
	size_t mem_used;            /* bytes currently allocated by this state */
	size_t mem_limit;           /* bytes; allocations beyond fail with a memory error */
	long long insn_budget;      /* VM instructions allowed */
	long long insn_used;        /* VM instructions counted so far */
	bool is_exhausted;          /* budget spent: every further count event raises again */
	const struct facts *facts;  /* facts of check(); NULL while loading */
};

/* The sandbox of a state: the user data of its allocator (the extra space is the Lua host's). */
static struct sandbox *sandbox_of(lua_State *L)
{
	void *sb;

	lua_getallocf(L, &sb);
	return sb;
}

static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	struct sandbox *sb = ud;
	size_t old = ptr ? osize : 0;
	void *p;

	if (nsize == 0) {
		free(ptr);
		sb->mem_used -= old;
		return NULL;
	}
	if (nsize > old && nsize - old > sb->mem_limit - sb->mem_used)
		return NULL; /* Lua raises "not enough memory" */
	p = realloc(ptr, nsize);
	if (p)
		sb->mem_used = sb->mem_used - old + nsize;
	return p;
}

/* Once the budget is spent, the hook fires on every instruction and raises each time, so a pcall
 * that caught the first error cannot run even one more instruction of its own. */
static void budget_hook(lua_State *L, lua_Debug *ar)
{
	struct sandbox *sb = sandbox_of(L);

	(void)ar;
	sb->insn_used += sb->is_exhausted ? 1 : HOOK_STEP;
	if (sb->insn_used >= sb->insn_budget) {
		if (!sb->is_exhausted) {
			sb->is_exhausted = true;
			lua_sethook(L, budget_hook, LUA_MASKCOUNT, 1);
		}
		luaL_error(L, "instruction budget of %I instructions exhausted", (LUAI_UACINT)sb->insn_budget);
	}
}

/* setmetatable without __gc: finalizers run with hooks off (lgc.c GCTM), where the instruction
 * budget cannot reach; a table is marked for finalization only when its metatable has __gc at
 * this call, so refusing it here closes that door. */
static int safe_setmetatable(lua_State *L)
{
	if (lua_type(L, 2) == LUA_TTABLE) {
		lua_pushliteral(L, "__gc");
		if (lua_rawget(L, 2) != LUA_TNIL) /* raw, as Lua itself looks it up */
			return luaL_error(L, "__gc metamethods are not allowed in rules");
		lua_pop(L, 1);
	}
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, 1);
	return 1;
}

static void remove_fields(lua_State *L, const char *table, const char *const *names)
{
	if (table)
		lua_getglobal(L, table);
	else
		lua_pushglobaltable(L);
	for (; *names; names++) {
		lua_pushnil(L);
		lua_setfield(L, -2, *names);
	}
	lua_pop(L, 1);
}

/* Runs inside lua_pcall: opens only the allow-listed libraries and removes what could reach
 * outside, load code or break determinism. */
static int open_sandbox(lua_State *L)
{
	static const char *const base_off[] = {"dofile", "loadfile", "load", "require", "collectgarbage",
					       "print", "warn", NULL};
	static const char *const string_off[] = {"dump", NULL};
	static const char *const math_off[] = {"random", "randomseed", NULL};

	luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
	luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
	luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
	luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
	luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1);
	lua_settop(L, 0);
	remove_fields(L, NULL, base_off);
	remove_fields(L, LUA_STRLIBNAME, string_off);
	remove_fields(L, LUA_MATHLIBNAME, math_off);
	lua_getglobal(L, "setmetatable");
	lua_pushcclosure(L, safe_setmetatable, 1);
	lua_setglobal(L, "setmetatable");
	/* The string metatable is per state already; locking it keeps getmetatable("") from
	 * handing out the table whose __index every string method goes through. */
	lua_pushliteral(L, "");
	if (lua_getmetatable(L, -1)) {
		lua_pushliteral(L, "locked");
		lua_setfield(L, -2, "__metatable");
	}
	lua_settop(L, 0);
	lua_host_open(L, sandbox_of(L)->facts);
	return 0;
}

static bool sandbox_init(struct sandbox *sb, const struct facts *facts, const struct rules_limits *lim)
{
	memset(sb, 0, sizeof(*sb));
	sb->facts = facts;
	sb->mem_limit = lim->mem_bytes;
	sb->insn_budget = lim->insn_budget;
	sb->L = lua_newstate(capped_alloc, sb);
	if (!sb->L)
		return false;
	lua_sethook(sb->L, budget_hook, LUA_MASKCOUNT, HOOK_STEP);
	lua_pushcfunction(sb->L, open_sandbox);
	return lua_pcall(sb->L, 0, 0, 0) == LUA_OK;
}

/* Lua shortens a chunk name longer than LUA_IDSIZE (60 bytes) to "...tail", which would hide a long
 * rule path from error_answer; a short fixed name keeps "rule:LINE:" parseable, and the path is
 * known here anyway. */
#define CHUNK_NAME "rule"

/* The length of "name:" when msg starts with it, else 0. */
static size_t location_prefix(const char *msg, const char *name)
{
	size_t n = strlen(name);

	return strncmp(msg, name, n) == 0 && msg[n] == ':' ? n + 1 : 0;
}

/* {"error": {"line", "message"}} from the message on top of the stack; "path:LINE: text" and
 * "rule:LINE: text" messages give their line. */
static json_t *error_answer(lua_State *L, const struct rule_file *rf)
{
	const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
	size_t skip;
	long line = 0;

	if (!msg)
		msg = "error object is not a string";
	skip = location_prefix(msg, rf->path);
	if (!skip)
		skip = location_prefix(msg, CHUNK_NAME);
	if (skip) {
		char *end;

		line = strtol(msg + skip, &end, 10);
		if (*end == ':') {
			msg = end + 1;
			while (*msg == ' ')
				msg++;
		} else {
			line = 0;
		}
	}
	return json_pack("{s:{s:i, s:s}}", "error", "line", (json_int_t)line, "message", msg);
}

struct job {
	const struct rule_file *rf;
	json_t *answer;
};

/* Loads the chunk as text only and runs it; leaves its single returned table on the stack. */
static void run_chunk(lua_State *L, const struct rule_file *rf)
{
	if (luaL_loadbufferx(L, rf->text, rf->len, "=" CHUNK_NAME, "t") != LUA_OK)
		lua_error(L);
	lua_call(L, 0, 1);
	if (!lua_istable(L, -1))
		luaL_error(L, "%s:1: the file must return a table (got %s)", rf->path, luaL_typename(L, -1));
}

/* The returned table as JSON, `check` replaced by whether it is a function (the parent validates
 * every other field). */
static int protected_load(lua_State *L)
{
	struct job *job = lua_touserdata(L, 1);
	bool has_check;
	json_t *meta;

	run_chunk(L, job->rf);
	lua_newtable(L);
	lua_pushnil(L);
	while (lua_next(L, -3)) {
		if (lua_type(L, -2) == LUA_TSTRING && !strcmp(lua_tostring(L, -2), "check")) {
			lua_pop(L, 1);
			continue;
		}
		lua_pushvalue(L, -2);
		lua_insert(L, -2);
		lua_rawset(L, -4);
	}
	lua_pushliteral(L, "check");
	has_check = lua_rawget(L, -3) == LUA_TFUNCTION;
	lua_pop(L, 1);
	meta = lua_host_to_json(L, -1, "the returned table");
	job->answer = json_pack("{s:o, s:b}", "meta", meta, "has_check", has_check);
	return 0;
}

/* check(facts) on the proxy; the list it returns as JSON. */
static int protected_check(lua_State *L)
{
	struct job *job = lua_touserdata(L, 1);
	json_t *recs;

	run_chunk(L, job->rf);
	if (lua_getfield(L, -1, "check") != LUA_TFUNCTION)
		luaL_error(L, "%s:1: field check: a function is required", job->rf->path);
	lua_host_push_json(L, sandbox_of(L)->facts->doc, true);
	lua_call(L, 1, 1);
	if (lua_isnil(L, -1)) {
		recs = json_array();
	} else {
		if (!lua_istable(L, -1))
			luaL_error(L, "%s:1: check() must return a list of recommendations (got %s)",
				   job->rf->path, luaL_typename(L, -1));
		if (lua_rawlen(L, -1) > RECS_MAX)
			luaL_error(L, "%s:1: check() returned more than %d recommendations", job->rf->path,
				   RECS_MAX);
		recs = lua_host_to_json(L, -1, "check() result");
		if (json_is_object(recs) && json_object_size(recs) == 0) {
			json_decref(recs);
			recs = json_array();
		}
		if (!json_is_array(recs))
			luaL_error(L, "%s:1: check() must return a list of recommendations",
				   job->rf->path);
	}
	job->answer = json_pack("{s:o}", "recommendations", recs);
	return 0;
}

static json_t *run_job(const struct rule_file *rf, const struct facts *facts,
		       const struct rules_limits *lim, lua_CFunction fn)
{
	struct sandbox sb;
	struct job job = {rf, NULL};
	json_t *answer;

	if (!sandbox_init(&sb, facts, lim)) {
		if (sb.L)
			lua_close(sb.L);
		return json_pack("{s:{s:s}}", "error", "message", "cannot create the Lua state");
	}
	lua_pushcfunction(sb.L, fn);
	lua_pushlightuserdata(sb.L, &job);
	if (lua_pcall(sb.L, 1, 0, 0) != LUA_OK) {
		json_decref(job.answer);
		answer = error_answer(sb.L, rf);
	} else {
		answer = job.answer;
	}
	lua_close(sb.L);
	return answer;
}

json_t *sandbox_load(const struct rule_file *rf, const struct rules_limits *lim)
{
	return run_job(rf, NULL, lim, protected_load);
}

json_t *sandbox_check(const struct rule_file *rf, const struct facts *facts,
		      const struct rules_limits *lim)
{
	return run_job(rf, facts, lim, protected_check);
}
