/* What a rule sees of the host: the facts as a read-only userdata proxy, the small `fstune` helper
 * module, and the conversion of what the rule returns into JSON (raw access only, so no rule code
 * runs while the host reads its tables). */
#include "config.h"

#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fstune/space.h"
#include "fstune/fstype.h"
#include "fstune/units.h"
#include "rules/lua_host.h"

#define PROXY_MT "fstune.facts"
#define JSON_DEPTH_MAX 32 /* levels: facts are 3-4 deep; more is a cycle or an attack */

/* The facts of this state, as lua_host_open stored them (NULL while loading). */
static const struct facts *host_facts(lua_State *L)
{
	return *(const struct facts **)lua_getextraspace(L);
}

struct proxy {
	const json_t *node; /* an object or array of the facts document, owned by the caller of check */
	bool is_root;       /* the document root: its bookkeeping members are hidden */
};


void lua_host_push_json(lua_State *L, const json_t *node, bool is_root)
{
	struct proxy *p;

	switch (json_typeof(node ? node : json_null())) {
	case JSON_OBJECT:
	case JSON_ARRAY:
		p = lua_newuserdatauv(L, sizeof(*p), 0);
		p->node = node;
		p->is_root = is_root;
		luaL_setmetatable(L, PROXY_MT);
		return;
	case JSON_STRING:
		lua_pushlstring(L, json_string_value(node), json_string_length(node));
		return;
	case JSON_INTEGER:
		lua_pushinteger(L, (lua_Integer)json_integer_value(node));
		return;
	case JSON_REAL:
		lua_pushnumber(L, json_real_value(node));
		return;
	case JSON_TRUE:
	case JSON_FALSE:
		lua_pushboolean(L, json_is_true(node));
		return;
	case JSON_NULL:
		lua_pushnil(L);
		return;
	}
}

static const json_t *proxy_child(const struct proxy *p, lua_State *L, int kidx)
{
	if (json_is_object(p->node)) {
		const char *k = lua_type(L, kidx) == LUA_TSTRING ? lua_tostring(L, kidx) : NULL;

		if (!k || (p->is_root && facts_is_side_member(k)))
			return NULL;
		return json_object_get(p->node, k);
	}
	if (lua_isinteger(L, kidx)) {
		lua_Integer i = lua_tointeger(L, kidx);

		if (i >= 1 && (size_t)i <= json_array_size(p->node))
			return json_array_get(p->node, (size_t)(i - 1));
	}
	return NULL;
}

static int proxy_index(lua_State *L)
{
	const struct proxy *p = luaL_checkudata(L, 1, PROXY_MT);

	lua_host_push_json(L, proxy_child(p, L, 2), false);
	return 1;
}

static int proxy_newindex(lua_State *L)
{
	return luaL_error(L, "facts are read-only");
}

static int proxy_len(lua_State *L)
{
	const struct proxy *p = luaL_checkudata(L, 1, PROXY_MT);

	lua_pushinteger(L, json_is_array(p->node) ? (lua_Integer)json_array_size(p->node) : 0);
	return 1;
}

/* next(proxy, key) in document order, skipping the root's bookkeeping members. */
static int proxy_next(lua_State *L)
{
	const struct proxy *p = luaL_checkudata(L, 1, PROXY_MT);

	if (json_is_array(p->node)) {
		lua_Integer i = lua_isnil(L, 2) ? 0 : luaL_checkinteger(L, 2);

		if (i < 0 || (size_t)i >= json_array_size(p->node))
			return 0;
		lua_pushinteger(L, i + 1);
		lua_host_push_json(L, json_array_get(p->node, (size_t)i), false);
		return 2;
	}
	void *it = lua_isnil(L, 2) ? json_object_iter((json_t *)p->node)
				   : json_object_iter_next((json_t *)p->node,
							   json_object_iter_at((json_t *)p->node,
									       luaL_checkstring(L, 2)));
	while (it && p->is_root && facts_is_side_member(json_object_iter_key(it)))
		it = json_object_iter_next((json_t *)p->node, it);
	if (!it)
		return 0;
	lua_pushstring(L, json_object_iter_key(it));
	lua_host_push_json(L, json_object_iter_value(it), false);
	return 2;
}

static int proxy_pairs(lua_State *L)
{
	luaL_checkudata(L, 1, PROXY_MT);
	lua_pushcfunction(L, proxy_next);
	lua_pushvalue(L, 1);
	lua_pushnil(L);
	return 3;
}

static int proxy_tostring(lua_State *L)
{
	const struct proxy *p = luaL_checkudata(L, 1, PROXY_MT);

	lua_pushstring(L, json_is_array(p->node) ? "facts list" : "facts");
	return 1;
}

/* A dotted key of the current facts, or NULL. */
static const json_t *lookup(lua_State *L, int idx)
{
	const struct facts *facts = host_facts(L);
	const char *key = luaL_checkstring(L, idx);
	const char *first = strchr(key, '.');
	size_t n = first ? (size_t)(first - key) : strlen(key);

	if (!facts || (n == 7 && !strncmp(key, "sources", 7)) ||
	    (n == 11 && !strncmp(key, "unavailable", 11)) || (n == 6 && !strncmp(key, "schema", 6)))
		return NULL;
	return facts_get(facts, key);
}

static int f_has(lua_State *L)
{
	const json_t *v = lookup(L, 1);

	lua_pushboolean(L, v && !json_is_null(v));
	return 1;
}

static int f_get(lua_State *L)
{
	lua_host_push_json(L, lookup(L, 1), false);
	return 1;
}

/* The source of the dotted key at argument 1 when it has a value, else NULL. */
static const char *key_source(lua_State *L)
{
	const struct facts *facts = host_facts(L);
	const char *key = luaL_checkstring(L, 1);

	return facts && lookup(L, 1) ? facts_source(facts, key) : NULL;
}

/* source(key): where the value came from, or nil (lua_pushstring pushes nil for NULL). */
static int f_source(lua_State *L)
{
	lua_pushstring(L, key_source(L));
	return 1;
}

static int f_unavailable(lua_State *L)
{
	const struct facts *facts = host_facts(L);
	const char *key = luaL_checkstring(L, 1), *reason = NULL;
	enum facts_status st;

	if (!facts || !facts_unavailable(facts, key, &st, &reason))
		return 0;
	lua_pushstring(L, facts_status_name(st));
	lua_pushstring(L, reason ? reason : "");
	return 2;
}

/* contains(list, value): list may be a plain table or a facts list. */
static int f_contains(lua_State *L)
{
	if (lua_isnoneornil(L, 1)) {
		lua_pushboolean(L, 0);
		return 1;
	}
	luaL_argexpected(L, lua_istable(L, 1) || luaL_testudata(L, 1, PROXY_MT), 1, "list");
	for (lua_Integer i = 1;; i++) {
		int t = lua_geti(L, 1, i);

		if (t == LUA_TNIL)
			break;
		if (lua_rawequal(L, -1, 2)) {
			lua_pushboolean(L, 1);
			return 1;
		}
		lua_pop(L, 1);
	}
	lua_pushboolean(L, 0);
	return 1;
}

/* Argument 1 as a quantity from 0 up to `max` for one of the report's unit formatters. */
static double check_quantity(lua_State *L, double max, const char *what)
{
	lua_Number n = luaL_checknumber(L, 1);

	luaL_argcheck(L, n >= 0 && n < max, 1, what);
	return (double)n;
}

static int f_fmt_bytes(lua_State *L)
{
	char buf[UNITS_BUFSZ];

	lua_pushstring(L, units_bytes(buf, sizeof(buf), (uint64_t)check_quantity(L, 1.8e19, "a byte count")));
	return 1;
}

/* fmt_us(microseconds): "126 µs", "4.2 ms", as the report shows a measured latency. */
static int f_fmt_us(lua_State *L)
{
	char buf[UNITS_BUFSZ];

	lua_pushstring(L, units_duration_us(buf, sizeof(buf), check_quantity(L, 1e15, "a duration in microseconds"),
					    false));
	return 1;
}

/* Whether the caller of measured() said it takes figures carrying this flag: its optional second
 * argument, a table such as {implausible = true}. */
static bool accepts(lua_State *L, const char *flag)
{
	bool yes;

	if (lua_type(L, 2) != LUA_TTABLE)
		return false;
	lua_getfield(L, 2, flag);
	yes = lua_toboolean(L, -1);
	lua_pop(L, 1);
	return yes;
}

/* measured(test [, accept]): the bench.<test> branch when its numbers may be taken as the device's
 * speed, else nil and why: a result flagged cache_suspect, implausible (beyond what the hardware can
 * do) or cpu_bound (the CPU set the rate), or run with direct = no (page cache) or memory (tmpfs,
 * zram), measured something other than the device and never supports a warning. `accept` names
 * flags the caller reads the figure despite ({implausible = true}: a rule about the cache that
 * answered). A branch without `direct` (hand-written facts) is taken as said. */
static int f_measured(lua_State *L)
{
	static const struct {
		const char *flag, *what;
	} flags[] = {
		{"cache_suspect", "flagged as a cache effect"},
		{"implausible", "beyond what the hardware can do"},
		{"cpu_bound", "limited by the CPU, not the device"},
	};
	const struct facts *facts = host_facts(L);
	const char *test = luaL_checkstring(L, 1);
	char key[160];
	const json_t *t, *d;
	size_t i;

	luaL_argcheck(L, strlen(test) < 100 && !strchr(test, '.'), 1, "a benchmark test name");
	luaL_argcheck(L, lua_isnoneornil(L, 2) || lua_type(L, 2) == LUA_TTABLE, 2, "a table of accepted flags");
	snprintf(key, sizeof(key), "bench.%s", test);
	t = facts ? facts_get(facts, key) : NULL;
	if (!json_is_object(t))
		return 0;
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		const json_t *why;

		if (!json_is_true(json_object_get(t, flags[i].flag)) || accepts(L, flags[i].flag))
			continue;
		snprintf(key, sizeof(key), "%s_reason", flags[i].flag);
		why = json_object_get(t, key);
		lua_pushnil(L);
		lua_pushfstring(L, "%s%s%s", flags[i].what, json_is_string(why) ? ": " : "",
				json_is_string(why) ? json_string_value(why) : "");
		return 2;
	}
	d = json_object_get(t, "direct");
	if (json_is_string(d) && (!strcmp(json_string_value(d), "no") || !strcmp(json_string_value(d), "memory"))) {
		lua_pushnil(L);
		lua_pushfstring(L, "run with direct = %s", json_string_value(d));
		return 2;
	}
	lua_host_push_json(L, t, false);
	return 1;
}

/* fmt_rate(bytes_per_s): "476.8 MB/s", the unit the report shows a measured rate in, so a
 * rationale and the evidence beside it agree. */
static int f_fmt_rate(lua_State *L)
{
	char buf[UNITS_BUFSZ];

	lua_pushstring(L, units_rate(buf, sizeof(buf), check_quantity(L, 1.8e19, "a rate in bytes per second")));
	return 1;
}

static int f_is_power_of_two(lua_State *L)
{
	int isnum = 0;
	lua_Integer n = lua_tointegerx(L, 1, &isnum);

	lua_pushboolean(L, isnum && n > 0 && (n & (n - 1)) == 0);
	return 1;
}

static int f_is_ext(lua_State *L)
{
	lua_pushboolean(L, lua_type(L, 1) == LUA_TSTRING && fstype_is_ext(lua_tostring(L, 1)));
	return 1;
}

/* is_blank(): the device carries no filesystem that rules may replace: no fs.type and not a member
 * of a mounted filesystem (fs.member_of). The one test every rule proposing mkfs makes. */
static int f_is_blank(lua_State *L)
{
	const struct facts *facts = host_facts(L);
	const json_t *type = facts ? facts_get(facts, "fs.type") : NULL;
	const json_t *member = facts ? facts_get(facts, "fs.member_of") : NULL;

	lua_pushboolean(L, (!type || json_is_null(type)) && (!member || json_is_null(member)));
	return 1;
}

/* zoned(): "host-managed" or "host-aware" when the device wants its zones written sequentially
 * (device.zoned), else nil. No advice for a conventional filesystem suits such a disk (ext4 cannot
 * be made on a host-managed one at all): the rules that propose mkfs, reserve, bigalloc or inode
 * ratios stay silent there, and the zoned rule says what fits. */
static int f_zoned(lua_State *L)
{
	const struct facts *facts = host_facts(L);
	const char *z = facts ? facts_get_string(facts, "device.zoned") : NULL;

	lua_pushstring(L, z && (!strcmp(z, "host-managed") || !strcmp(z, "host-aware")) ? z : NULL);
	return 1;
}

/* is_freebsd(): the facts describe a FreeBSD target (host.target_os); the one test every rule
 * that advises only one of the two systems makes. */
static int f_is_freebsd(lua_State *L)
{
	const struct facts *facts = host_facts(L);
	const json_t *os = facts ? facts_get(facts, "host.target_os") : NULL;

	lua_pushboolean(L, json_is_string(os) && !strcmp(json_string_value(os), "freebsd"));
	return 1;
}

static int f_is_integer(lua_State *L)
{
	lua_pushboolean(L, lua_isinteger(L, 1));
	return 1;
}

/* positive(x): x when it is an integer above 0, else nil; hand-written facts can say anything. */
static int f_positive(lua_State *L)
{
	if (lua_isinteger(L, 1) && lua_tointeger(L, 1) > 0)
		lua_pushvalue(L, 1);
	else
		lua_pushnil(L);
	return 1;
}

/* is_assumed(key): no real source stands behind the value (none, preset or default), so by
 * DESIGN.md it cannot carry more than an info on its own. */
static int f_is_assumed(lua_State *L)
{
	const char *s = key_source(L);

	lua_pushboolean(L, !s || !strcmp(s, "preset") || !strcmp(s, "default"));
	return 1;
}

/* present(keys): a new list of those keys that have a value, in order (a rule's evidence). */
static int f_present(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	lua_newtable(L);
	for (lua_Integer i = 1, n = 0; lua_geti(L, 1, i) != LUA_TNIL; i++) {
		const json_t *v;

		if (!lua_isstring(L, -1))
			return luaL_error(L, "present: entry %d of the list is a %s, not a dotted key", (int)i,
					  luaL_typename(L, -1));
		v = lookup(L, -1);

		if (v && !json_is_null(v))
			lua_rawseti(L, -2, ++n);
		else
			lua_pop(L, 1);
	}
	lua_pop(L, 1);
	return 1;
}

/* fmt_count(n): an integer with thousands separators, "1,234,567". */
static int f_fmt_count(lua_State *L)
{
	lua_Integer n = luaL_checkinteger(L, 1);
	char digits[32], out[48];
	size_t len, o = 0;

	snprintf(digits, sizeof(digits), LUA_INTEGER_FMT, n);
	len = strlen(digits);
	for (size_t i = 0; i < len; i++) {
		size_t left = len - i;

		out[o++] = digits[i];
		if (left > 1 && (left - 1) % 3 == 0 && digits[i] != '-')
			out[o++] = ',';
	}
	lua_pushlstring(L, out, o);
	return 1;
}

/* attach_sources(recs, sources, by_name): each recommendation whose name by_name lists gets the
 * entries of sources at those indices as its own sources; the others keep the file's. Returns recs. */
static int f_attach_sources(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	luaL_checktype(L, 2, LUA_TTABLE);
	luaL_checktype(L, 3, LUA_TTABLE);
	for (lua_Integer i = 1; lua_geti(L, 1, i) != LUA_TNIL; i++) {
		lua_getfield(L, -1, "name");
		if (lua_gettable(L, 3) == LUA_TTABLE) {
			lua_newtable(L);
			for (lua_Integer j = 1, n = 0; lua_geti(L, -2, j) != LUA_TNIL; j++) {
				if (lua_gettable(L, 2) == LUA_TNIL)
					lua_pop(L, 1);
				else
					lua_rawseti(L, -2, ++n);
			}
			lua_pop(L, 1);
			lua_setfield(L, -3, "sources");
		}
		lua_pop(L, 2);
	}
	lua_pop(L, 1);
	lua_settop(L, 1);
	return 1;
}

/* The check that fstune.rule puts in place of the rule's own: the rule's check (upvalue 1), then
 * attach_sources with the table's sources (2) and rec_sources (3). */
static int rule_check(lua_State *L)
{
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, 1);
	lua_pushvalue(L, lua_upvalueindex(2));
	lua_pushvalue(L, lua_upvalueindex(3));
	return f_attach_sources(L);
}

/* rule(t): the rule table t, returned. When t has rec_sources (recommendation names to indices
 * into t.sources), its check attaches them to what it returns, and the field goes, so the loader
 * sees the table the contract describes. A table without check is left for the loader to name. */
static int f_rule(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	lua_settop(L, 1);
	lua_getfield(L, 1, "check");
	lua_getfield(L, 1, "sources");
	if (lua_getfield(L, 1, "rec_sources") != LUA_TNIL) {
		if (!lua_istable(L, 3) || !lua_istable(L, 4))
			return luaL_error(L, "rule: rec_sources and sources must be tables");
		if (lua_isfunction(L, 2)) {
			lua_pushcclosure(L, rule_check, 3);
			lua_setfield(L, 1, "check");
			lua_pushnil(L);
			lua_setfield(L, 1, "rec_sources");
		}
	}
	lua_settop(L, 1);
	return 1;
}

/* merge(t, extra): t with every field of extra (a table, or nil) set in it; returns t. A test
 * vector's fixture with the few fields that case changes. */
static int f_merge(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	if (!lua_isnoneornil(L, 2)) {
		luaL_checktype(L, 2, LUA_TTABLE);
		lua_pushnil(L);
		while (lua_next(L, 2)) {
			lua_pushvalue(L, -2);
			lua_insert(L, -2);
			lua_rawset(L, 1);
		}
	}
	lua_settop(L, 1);
	return 1;
}

/* pow2_floor(x): the largest power of two not above the number x, and 1 below 2. */
static int f_pow2_floor(lua_State *L)
{
	int is_int = 0;
	lua_Integer n = lua_tointegerx(L, 1, &is_int), p = 1;
	lua_Number x = is_int ? 0 : luaL_checknumber(L, 1);

	/* integers compared as integers: above 2^53 a double would round them up */
	while (p < ((lua_Integer)1 << 62) && (is_int ? p * 2 <= n : (lua_Number)(p * 2) <= x))
		p *= 2;
	lua_pushinteger(L, p);
	return 1;
}

void lua_host_open(lua_State *L, const struct facts *facts)
{
	static const luaL_Reg mt[] = {{"__index", proxy_index},   {"__newindex", proxy_newindex},
				      {"__len", proxy_len},       {"__pairs", proxy_pairs},
				      {"__tostring", proxy_tostring}, {NULL, NULL}};
	static const luaL_Reg fns[] = {{"has", f_has},
				       {"get", f_get},
				       {"source", f_source},
				       {"unavailable", f_unavailable},
				       {"contains", f_contains},
				       {"fmt_bytes", f_fmt_bytes},
				       {"fmt_rate", f_fmt_rate},
				       {"measured", f_measured},
				       {"fmt_us", f_fmt_us},
				       {"is_power_of_two", f_is_power_of_two},
				       {"is_integer", f_is_integer},
				       {"is_ext", f_is_ext},
				       {"is_blank", f_is_blank},
				       {"is_freebsd", f_is_freebsd},
				       {"zoned", f_zoned},
				       {"positive", f_positive},
				       {"is_assumed", f_is_assumed},
				       {"present", f_present},
				       {"fmt_count", f_fmt_count},
				       {"attach_sources", f_attach_sources},
				       {"rule", f_rule},
				       {"merge", f_merge},
				       {"pow2_floor", f_pow2_floor},
				       {NULL, NULL}};

	*(const struct facts **)lua_getextraspace(L) = facts;
	luaL_newmetatable(L, PROXY_MT);
	luaL_setfuncs(L, mt, 0);
	lua_pushliteral(L, "locked");
	lua_setfield(L, -2, "__metatable");
	lua_pop(L, 1);
	luaL_newlib(L, fns);
	lua_pushinteger(L, 1024);
	lua_setfield(L, -2, "KiB");
	lua_pushinteger(L, 1024 * 1024);
	lua_setfield(L, -2, "MiB");
	lua_pushinteger(L, 1024 * 1024 * 1024);
	lua_setfield(L, -2, "GiB");
	lua_pushinteger(L, (lua_Integer)1 << 40);
	lua_setfield(L, -2, "TiB");
	lua_pushnumber(L, FST_SPACE_FULL_SHARE);
	lua_setfield(L, -2, "FULL_SHARE");
	lua_setglobal(L, "fstune");
}

static bool is_sequence(lua_State *L, int idx, size_t *n)
{
	size_t count = 0;

	*n = (size_t)lua_rawlen(L, idx);
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		lua_pop(L, 1);
		if (!lua_isinteger(L, -1)) {
			lua_pop(L, 1);
			return false;
		}
		count++;
	}
	return count == *n;
}

static json_t *to_json(lua_State *L, int idx, const char *what, int depth)
{
	json_t *out;
	size_t n;

	idx = lua_absindex(L, idx);
	switch (lua_type(L, idx)) {
	case LUA_TNIL:
		return json_null();
	case LUA_TBOOLEAN:
		return json_boolean(lua_toboolean(L, idx));
	case LUA_TNUMBER:
		if (lua_isinteger(L, idx))
			return json_integer((json_int_t)lua_tointeger(L, idx));
		if (!isfinite(lua_tonumber(L, idx)))
			luaL_error(L, "%s: a number that is not finite", what);
		return json_real(lua_tonumber(L, idx));
	case LUA_TSTRING: {
		size_t len;
		const char *s = lua_tolstring(L, idx, &len);

		out = json_stringn(s, len);
		if (!out)
			luaL_error(L, "%s: a string that is not UTF-8", what);
		return out;
	}
	case LUA_TTABLE:
		break;
	default:
		luaL_error(L, "%s: a %s cannot be returned", what, luaL_typename(L, idx));
	}
	if (depth >= JSON_DEPTH_MAX)
		luaL_error(L, "%s: nested deeper than %d levels", what, JSON_DEPTH_MAX);
	luaL_checkstack(L, 4, "nesting");
	if (is_sequence(L, idx, &n)) {
		out = json_array();
		for (size_t i = 1; i <= n; i++) {
			lua_rawgeti(L, idx, (lua_Integer)i);
			json_array_append_new(out, to_json(L, -1, what, depth + 1));
			lua_pop(L, 1);
		}
		return out;
	}
	out = json_object();
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		if (lua_type(L, -2) != LUA_TSTRING)
			luaL_error(L, "%s: a table mixing list items and named fields", what);
		json_object_set_new(out, lua_tostring(L, -2), to_json(L, -1, what, depth + 1));
		lua_pop(L, 1);
	}
	return out;
}

json_t *lua_host_to_json(lua_State *L, int idx, const char *what)
{
	return to_json(L, idx, what, 0);
}
