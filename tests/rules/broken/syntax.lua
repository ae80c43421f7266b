-- Broken on line 3.
return {
  id = "broken" "oops",
}
