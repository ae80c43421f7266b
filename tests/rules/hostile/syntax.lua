-- expect: error 'end' expected
local function check(facts)
  if facts.fs then
    return {}
return { id = "h_syntax" }
