/* The pieces of one sandboxed lua_State shared by sandbox.c (state, limits, running) and
 * lua_host.c (the facts proxy, the fstune helper module, Lua-to-JSON conversion). */
#ifndef FSTUNE_RULES_SANDBOX_H
#define FSTUNE_RULES_SANDBOX_H

#include <jansson.h>
#include <lua.h>
#include <stdbool.h>
#include <stddef.h>

#include "fstune/facts.h"

struct sandbox {
	lua_State *L;
	size_t mem_used;            /* bytes currently allocated by this state */
	size_t mem_limit;           /* bytes; allocations beyond fail with a memory error */
	long long insn_budget;      /* VM instructions allowed */
	long long insn_used;        /* VM instructions counted so far */
	bool is_exhausted;          /* budget spent: every further count event raises again */
	const struct facts *facts;  /* facts of check(); NULL while loading */
};

/* The sandbox of a state (stored in its extra space by sandbox.c). Inline, so that the Lua host can
 * read its state's facts and limits without calling back into sandbox.c, which calls the host. */
static inline struct sandbox *sandbox_of(lua_State *L)
{
	return *(struct sandbox **)lua_getextraspace(L);
}

/* Pushes a read-only proxy of a facts node (object or array); scalars are pushed as Lua values,
 * NULL or JSON null as nil. */
void lua_host_push_json(lua_State *L, const json_t *node, bool is_root);
/* Registers the facts proxy metatable and the global `fstune` module. */
void lua_host_open(lua_State *L);
/* Converts the Lua value at `idx` to JSON with raw access only (no metamethod runs). Raises a Lua
 * error naming `what` on a value JSON cannot hold (function, cycle, non-UTF-8 string, NaN). */
json_t *lua_host_to_json(lua_State *L, int idx, const char *what);

#endif
