/*
 * mirror.h - where a command that writes each input anew (`kifu
 * analyze -o DIR`) puts it: the input tree mirrored under a directory.
 * Pure: names only, nothing is read or made.
 */
#ifndef KIFU_WALK_MIRROR_H
#define KIFU_WALK_MIRROR_H

#include "core/strbuf.h"

/*
 * Appends to out the path under dir for the input the walk named name:
 * its name relative to the argument of args[0..nargs) it came from (the
 * longest that is a whole-component prefix), keeping that argument's
 * last component (`-o out games/` writes out/games/...; "." and ".."
 * keep none), an archive's members under the archive's name
 * ("a.tar//x/y.kif" as a.tar/x/y.kif), standard input ("<stdin>") as
 * "stdin"; a record format's extension replaced by ext (".kif"), any
 * other kept with ext added. Returns 0, or -1 with out unchanged when
 * the name would lead out of dir (a ".." component) or is empty.
 */
int walk_mirror(const char *name, char *const *args, int nargs,
    const char *dir, const char *ext, struct strbuf *out);

#endif /* KIFU_WALK_MIRROR_H */
