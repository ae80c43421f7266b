/* Shell words: every command fstune shows an admin (the setting table's apply and revert, the fio
 * command lines) quotes its words here, once. */
#ifndef FSTUNE_SHELL_H
#define FSTUNE_SHELL_H

/* `s` as one word for a POSIX shell: bare when it holds only characters no shell treats specially,
 * else single-quoted (a ' becomes '\''). Bytes that are not UTF-8 (a mount point's name from the
 * machine: pass the bytes, facts_get_bytes, never the escaped text) are written as printf octal
 * escapes beside the quoted parts ('/srv/'"$(printf '\377')"), so the word is still text and the
 * shell passes exactly those bytes. Never NULL; caller frees. */
char *fst_shell_quote(const char *s);

/* An awk function undoing the octal escapes (\040 for a space) of fstab and /proc/self/mountinfo, as
 * fstune's own parsers do: for the shell lines that read them (the scripts' fstab diff, the read
 * form of a mount option), which run it with LC_ALL=C so that bytes stay bytes. No single quote in
 * it: it goes inside a single-quoted awk program. */
#define FST_AWK_UNOCT                                                                                   \
	"function unoct(s, out, i, c) {"                                                                \
	" out = \"\";"                                                                                   \
	" for (i = 1; i <= length(s); i++) {"                                                          \
	" c = substr(s, i, 1);"                                                                        \
	" if (c == \"\\\\\" && substr(s, i + 1, 3) ~ /^[0-3][0-7][0-7]$/) {"                               \
	" c = sprintf(\"%c\", substr(s, i + 1, 1) * 64 + substr(s, i + 2, 1) * 8 + substr(s, i + 3, 1));"  \
	" i += 3"                                                                                      \
	" }"                                                                                           \
	" out = out c"                                                                                 \
	" }"                                                                                           \
	" return out"                                                                                  \
	" }"

#endif
