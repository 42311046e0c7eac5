/*
 * enginelive.h - the engine process groups a command has running, for
 * its signal handlers: an interrupted `kifu analyze` or `kifu match`
 * ends its engines (and removes gpsusi's private OSL_HOME) before it
 * dies. The library keeps no such list (no global state there); it
 * tells the command of each start and end through usi_start_opts's
 * on_spawn and on_reap, which are these functions.
 */
#ifndef KIFU_CMD_ENGINELIVE_H
#define KIFU_CMD_ENGINELIVE_H

#include <signal.h>
#include <sys/types.h>

/* usi_start_opts.on_spawn and on_reap (ctx unused). */
void enginelive_spawn(void *ctx, pid_t pgid, const char *home);
void enginelive_reap(void *ctx, pid_t pgid);

/*
 * Installs (on) or removes the handlers of SIGINT, SIGTERM, SIGHUP and
 * SIGPIPE. With flag NULL a signal ends every engine, reaps it, removes
 * its private home and then takes its course (the handler before, or
 * the default: the program dies). With a flag, the first signal sets
 * *flag and kills the engines' groups only, so that the searches
 * waiting on them end at once and the program can finish its output
 * and exit; a second one is handled as without a flag.
 */
void enginelive_signals(int on, volatile sig_atomic_t *flag);

#endif /* KIFU_CMD_ENGINELIVE_H */
