/* Shell words: every command fstune shows an admin (the setting table's apply and revert, the fio
 * command lines) quotes its words here, once. */
#ifndef FSTUNE_SHELL_H
#define FSTUNE_SHELL_H

/* `s` as one word for a POSIX shell: bare when it holds only characters no shell treats specially,
 * else single-quoted (a ' becomes '\''). Never NULL; caller frees. */
char *fst_shell_quote(const char *s);

#endif
