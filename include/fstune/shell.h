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

#endif
