/* The commands that change the machine and take it back (app/apply/): their entry points for the
 * command table of main.c, in the form of struct cli_command's `run`. */
#ifndef FSTUNE_APP_CMD_APPLY_H
#define FSTUNE_APP_CMD_APPLY_H

int cmd_apply(int argc, char **argv);
int cmd_undo(int argc, char **argv);
int cmd_history(int argc, char **argv);

#endif
