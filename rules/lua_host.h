/* What a sandboxed lua_State offers a rule (lua_host.c): the facts proxy, the `fstune` helper module
 * and the conversion of what a rule returns into JSON. sandbox.c builds the state and calls these;
 * nothing here calls back into sandbox.c or knows its limits. */
#ifndef FSTUNE_RULES_LUA_HOST_H
#define FSTUNE_RULES_LUA_HOST_H

#include <jansson.h>
#include <lua.h>
#include <stdbool.h>

#include "fstune/facts.h"

/* Registers the facts proxy metatable and the global `fstune` module, whose helpers read `facts`
 * (NULL while a rule file is loaded: they see no facts then). `facts` must outlive the state; it is
 * kept in the state's extra space, which the host owns. */
void lua_host_open(lua_State *L, const struct facts *facts);
/* Pushes a read-only proxy of a facts node (object or array); scalars are pushed as Lua values,
 * NULL or JSON null as nil. */
void lua_host_push_json(lua_State *L, const json_t *node, bool is_root);
/* Converts the Lua value at `idx` to JSON with raw access only (no metamethod runs). Raises a Lua
 * error naming `what` on a value JSON cannot hold (function, cycle, non-UTF-8 string, NaN). */
json_t *lua_host_to_json(lua_State *L, int idx, const char *what);

#endif
