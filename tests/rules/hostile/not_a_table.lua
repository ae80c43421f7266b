-- expect: error must return a table
return "rules"
