-- expect: error field title: missing
return { id = "h_missing_title", description = "no title", sources = { "tests" },
  settings = {}, needs = {}, check = function() return {} end }
