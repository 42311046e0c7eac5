# kifu - plain GNU make.
#
#   make                 kifu, libkifu.a and libkifu.so (optimised)
#   make demo            run kifu on the bundled testdata/
#   make check           unit + CLI tests, everything built with ASan+UBSan
#   make check-slow      the long perft oracles (depth 6 from the start)
#   make check-valgrind  the CLI tests with every kifu process under valgrind
#   make fuzz CC=clang   libFuzzer targets (tests/fuzz/)
#   make bench           benchmark figures
#   make install PREFIX=/usr/local DESTDIR=   (and make uninstall)
#   make deps            install missing build dependencies (root) or name them

VERSION := 0.1.0

CC ?= cc
CFLAGS ?= -O2 -g
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share
PKG_CONFIG ?= pkg-config
# Debian's python3 (with python3-cffi, -pytest, -numpy) runs the Python
# package's tests; a python3 found first on PATH may be another.
PYTHON ?= $(shell [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || echo python3)
# The shared library's soname changes with the major version only.
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))
SONAME := libkifu.so.$(SOMAJOR)

# Bulk counting lives on popcount and bit scans: use the instructions when
# the build machine has them (x86-64 only; elsewhere the builtins are
# native anyway). Override with ARCH_FLAGS= for a portable binary.
ARCH_FLAGS ?= $(shell [ "$$(uname -m)" = x86_64 ] && \
	for f in popcnt:-mpopcnt bmi1:-mbmi bmi2:-mbmi2 abm:-mlzcnt; do \
	grep -qw $${f%%:*} /proc/cpuinfo 2>/dev/null && printf '%s ' $${f#*:}; \
	done)

WARN := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wpointer-arith -Wvla
ALL_CPPFLAGS = -D_POSIX_C_SOURCE=200809L -DKIFU_VERSION='"$(VERSION)"' -I. -Iinclude $(PKG_CFLAGS) $(CPPFLAGS)
ALL_CFLAGS := $(WARN) $(ARCH_FLAGS) $(CFLAGS)
# libarchive reads .tar/.zip/.7z inputs of `kifu check` without unpacking;
# it is dlopen()ed on first use (walk/archive_dl.c), so only its headers
# are needed at build time. jansson reads the JSON Lines `kifu summary`
# merges.
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags libarchive jansson 2>/dev/null)
# librsvg (with cairo) and giflib draw `kifu show`'s PNG and GIF pictures;
# they too are dlopen()ed on first use (picture/render.c, picture/gif.c: only
# headers at build time), so that no start of kifu pays for glib, cairo
# and pango. Only the files that load them see their headers.
RSVG_CFLAGS = $(shell $(PKG_CONFIG) --cflags librsvg-2.0 2>/dev/null)
$(foreach b,rel san pic,build/$(b)/picture/render.o): PKG_CFLAGS += $(RSVG_CFLAGS)
# PCRE2 matches `kifu find --regex` patterns (query/filter.c), and SQLite
# holds the game database of `kifu index` (db/; the field's standard
# embedded database). They too are dlopen()ed on first use
# (query/pcre2_dl.h, db/sqlite.h: only headers at build time): linked,
# SQLite's symbol relocations and its libm were paid for by every start
# of kifu, `kifu --version` included (tests/bench.sh: start-up).
PCRE2_CFLAGS = $(shell $(PKG_CONFIG) --cflags libpcre2-8 2>/dev/null)
SQLITE_CFLAGS = $(shell $(PKG_CONFIG) --cflags sqlite3 2>/dev/null)
PKG_CFLAGS += $(PCRE2_CFLAGS) $(SQLITE_CFLAGS)
# What libkifu's modules link, and so every program and test linking it.
LIBS = $(shell $(PKG_CONFIG) --libs jansson 2>/dev/null || echo -ljansson) \
	-ldl -lpthread

SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all

# The folders are the architecture (doc/architecture.md). libkifu is
# every folder but cmd/; the kifu program is cmd/ (one file a
# subcommand, and what only commands need: options, messages) over it.
LIB_DIRS := core parsers writers api walk stats query db book picture train \
	mate engine tags
# api/example.c and api/example-walk.c are doc/library.md's example
# programs (tests/install.sh builds them against the installed library),
# not a part of libkifu.
LIB_SRC := $(filter-out api/example.c api/example-walk.c,\
	$(wildcard $(LIB_DIRS:%=%/*.c)))
CMD_SRC := $(wildcard cmd/*.c)
TEST_SRC := $(wildcard tests/test_*.c)

REL_LIB_OBJ := $(LIB_SRC:%.c=build/rel/%.o)
REL_CMD_OBJ := $(CMD_SRC:%.c=build/rel/%.o)
SAN_LIB_OBJ := $(LIB_SRC:%.c=build/san/%.o)
SAN_CMD_OBJ := $(CMD_SRC:%.c=build/san/%.o)
SAN_TESTS := $(TEST_SRC:tests/%.c=build/san/tests/%)
# The USI engine of the tests (tests/mock_engine.c), faults on request.
MOCK_ENGINE := build/san/tests/mock_engine
FUZZ_TARGETS := csa usi kif ki2 jkf detect

CMOCKA_CFLAGS = $(shell $(PKG_CONFIG) --cflags cmocka 2>/dev/null)
CMOCKA_LIBS = $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null || echo -lcmocka)


.PHONY: fuzz
.PHONY: all demo check check-unit check-cli check-regress check-install \
	check-python check-docs man \
	check-valgrind \
	check-slow bench \
	install uninstall clean deps
.DELETE_ON_ERROR:

all: kifu libkifu.a libkifu.so

libkifu.a: $(REL_LIB_OBJ)
	rm -f $@
	$(AR) qcs $@ $^

# The shared library exports the public API (include/kifu/kifu.h) and
# nothing else: the objects are built with hidden visibility, the API's
# functions are marked visible (api/kifu.c), and the version script
# keeps any other symbol local whatever a compiler does.
PIC_LIB_OBJ := $(LIB_SRC:%.c=build/pic/%.o)

build/pic/%.o: %.c build/rel/flags
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -fPIC -fvisibility=hidden \
		-MMD -MP -c -o $@ $<

libkifu.so.$(VERSION): $(PIC_LIB_OBJ) api/kifu.map
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) \
		-Wl,--version-script=api/kifu.map -o $@ $(PIC_LIB_OBJ) $(LIBS)

libkifu.so: libkifu.so.$(VERSION)
	ln -sf libkifu.so.$(VERSION) $(SONAME)
	ln -sf $(SONAME) $@

kifu: $(REL_CMD_OBJ) libkifu.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(REL_CMD_OBJ) libkifu.a $(LIBS)

# Objects depend on the flags they were built with, so changing CFLAGS or
# ARCH_FLAGS rebuilds them.
FLAGS_NOW := $(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS)
build/rel/flags: FORCE
	@mkdir -p $(@D)
	@[ "$$(cat $@ 2>/dev/null)" = '$(FLAGS_NOW)' ] || echo '$(FLAGS_NOW)' >$@

.PHONY: FORCE
FORCE:

build/rel/%.o: %.c build/rel/flags
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# Everything under build/san carries the sanitizers; the tests and the CLI
# tests run only against these objects.
build/san/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(WARN) $(SAN_FLAGS) -MMD -MP -c -o $@ $<

build/san/libkifu.a: $(SAN_LIB_OBJ)
	rm -f $@
	$(AR) qcs $@ $^

build/san/kifu: $(SAN_CMD_OBJ) build/san/libkifu.a
	$(CC) $(WARN) $(SAN_FLAGS) -o $@ $(SAN_CMD_OBJ) build/san/libkifu.a \
		$(LIBS)

build/san/tests/%: tests/%.c $(wildcard tests/*.h) build/san/libkifu.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(WARN) $(SAN_FLAGS) $(CMOCKA_CFLAGS) -o $@ $< \
		build/san/libkifu.a $(CMOCKA_LIBS) $(LIBS)

$(MOCK_ENGINE): tests/mock_engine.c build/san/libkifu.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(WARN) $(SAN_FLAGS) -o $@ $< build/san/libkifu.a \
		$(LIBS)

check: deps
	$(MAKE) check-unit check-cli check-regress check-install check-python \
		check-docs

check-unit: $(SAN_TESTS) $(MOCK_ENGINE)
	@fail=0; for t in $(SAN_TESTS); do \
		echo "== $$t"; $$t || fail=1; \
	done; exit $$fail

check-cli: build/san/kifu $(MOCK_ENGINE)
	@sh tests/cli/run.sh build/san/kifu

# Every command README.md and doc/*.md show, run and its output compared
# (tests/docs/run.py; doc/README.md says how to write one). all: the
# Python example loads libkifu.so.
check-docs: build/san/kifu all
	@$(PYTHON) tests/docs/run.py build/san/kifu

# Every input a fuzzer ever broke kifu with (testdata/regress/TARGET/), and
# the fuzzers' seeds, replayed through the fuzz targets' own oracle under
# ASan+UBSan, without libFuzzer (tests/fuzz/standalone.c).
SAN_REGRESS := $(FUZZ_TARGETS:%=build/san/fuzz/regress_%) \
	build/san/fuzz/regress_dump build/san/fuzz/regress_keys \
	build/san/fuzz/regress_stats build/san/fuzz/regress_book \
	build/san/fuzz/regress_problems build/san/fuzz/regress_engine \
	build/san/fuzz/regress_tags build/san/fuzz/regress_results

build/san/fuzz/regress_%: tests/fuzz/fuzz.c tests/xmlcheck.h \
		tests/fuzz/standalone.c build/san/libkifu.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(WARN) $(SAN_FLAGS) -DFUZZ_FORMAT='"$*"' -o $@ \
		tests/fuzz/fuzz.c tests/fuzz/standalone.c \
		build/san/libkifu.a $(LIBS)

# kifu dump's readers: a target of their own, binary rows, not records.
build/san/fuzz/regress_dump: tests/fuzz/fuzz_dump.c tests/fuzz/standalone.c \
		build/san/libkifu.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(WARN) $(SAN_FLAGS) -o $@ tests/fuzz/fuzz_dump.c \
		tests/fuzz/standalone.c build/san/libkifu.a $(LIBS)

# The keys files of kifu export --merge: a reader of their own.
build/san/fuzz/regress_keys: tests/fuzz/fuzz_keys.c tests/fuzz/standalone.c \
		build/san/libkifu.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(WARN) $(SAN_FLAGS) -o $@ tests/fuzz/fuzz_keys.c \
		tests/fuzz/standalone.c build/san/libkifu.a $(LIBS)

# kifu book's reader of YaneuraOu's text books.
# What kifu reads from engines: the engines file, USI lines, answers,
# and the analysis comments.
build/san/fuzz/regress_engine: tests/fuzz/fuzz_engine.c \
		tests/fuzz/standalone.c build/san/libkifu.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(WARN) $(SAN_FLAGS) -o $@ tests/fuzz/fuzz_engine.c \
		tests/fuzz/standalone.c build/san/libkifu.a $(LIBS)

build/san/fuzz/regress_book: tests/fuzz/fuzz_book.c tests/fuzz/standalone.c \
		build/san/libkifu.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(WARN) $(SAN_FLAGS) -o $@ tests/fuzz/fuzz_book.c \
		tests/fuzz/standalone.c build/san/libkifu.a $(LIBS)

# kifu mate's reader of problem lines.
build/san/fuzz/regress_problems: tests/fuzz/fuzz_problems.c \
		tests/fuzz/standalone.c build/san/libkifu.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(WARN) $(SAN_FLAGS) -o $@ \
		tests/fuzz/fuzz_problems.c tests/fuzz/standalone.c \
		build/san/libkifu.a $(LIBS)

# kifu match --report: the reader of results files.
build/san/fuzz/regress_results: tests/fuzz/fuzz_results.c \
		tests/fuzz/standalone.c build/san/libkifu.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(WARN) $(SAN_FLAGS) -o $@ \
		tests/fuzz/fuzz_results.c tests/fuzz/standalone.c \
		build/san/libkifu.a $(LIBS)

# kifu tag --definitions: the reader of definitions files.
build/san/fuzz/regress_tags: tests/fuzz/fuzz_tags.c tests/fuzz/standalone.c \
		build/san/libkifu.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(WARN) $(SAN_FLAGS) -o $@ tests/fuzz/fuzz_tags.c \
		tests/fuzz/standalone.c build/san/libkifu.a $(LIBS)

# kifu stats --merge's reader of shards: JSON, counted by stats/.
build/san/fuzz/regress_stats: tests/fuzz/fuzz_stats.c tests/fuzz/standalone.c \
		build/san/libkifu.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(WARN) $(SAN_FLAGS) -o $@ tests/fuzz/fuzz_stats.c \
		tests/fuzz/standalone.c build/san/libkifu.a $(LIBS)

check-regress: $(SAN_REGRESS)
	@sh tests/fuzz/regress.sh build/san/fuzz

# What make install puts in place, used as a user would (tests/install.sh).
check-install: all
	@sh tests/install.sh

# The Python package (python/kifu) over the libkifu.so just built.
check-python: all
	@echo "== python/tests (pytest)"
	@PYTHONPATH=python KIFU_LIBRARY=$(CURDIR)/libkifu.so.$(VERSION) \
		KIFU=$(CURDIR)/kifu $(PYTHON) -m pytest -q python/tests

# The CLI tests again, every kifu process under valgrind (tests/valgrind.sh):
# the optimised binary, which ASan's shadow memory would hide from it.
check-valgrind: kifu
	@sh tests/valgrind.sh ./kifu

check-slow: kifu
	@sh tests/slow.sh ./kifu

demo: kifu
	@sh tests/demo.sh ./kifu

bench: kifu
	@sh tests/bench.sh ./kifu

deps:
	@PYTHON=$(PYTHON) sh tests/deps.sh

# libFuzzer targets, one per input format (needs clang): see tests/fuzz/.
FUZZ_FLAGS := -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
# One compiler run builds the whole library into a target: every header
# the library's files include, those of the libraries loaded on first use
# too, must be found.
FUZZ_CPPFLAGS = $(ALL_CPPFLAGS) $(RSVG_CFLAGS) $(PCRE2_CFLAGS)
fuzz: $(FUZZ_TARGETS:%=build/fuzz/fuzz_%) build/fuzz/fuzz_dump \
	build/fuzz/fuzz_keys build/fuzz/fuzz_stats build/fuzz/fuzz_book \
	build/fuzz/fuzz_problems build/fuzz/fuzz_engine build/fuzz/fuzz_tags \
	build/fuzz/fuzz_results

build/fuzz/fuzz_%: tests/fuzz/fuzz.c tests/xmlcheck.h $(LIB_SRC)
	@mkdir -p $(@D)
	$(CC) $(FUZZ_CPPFLAGS) -std=c11 -Wall -Wextra -Werror $(FUZZ_FLAGS) \
		-DFUZZ_FORMAT='"$*"' -o $@ tests/fuzz/fuzz.c $(LIB_SRC) $(LIBS)

build/fuzz/fuzz_stats: tests/fuzz/fuzz_stats.c $(LIB_SRC)
	@mkdir -p $(@D)
	$(CC) $(FUZZ_CPPFLAGS) -std=c11 -Wall -Wextra -Werror $(FUZZ_FLAGS) \
		-o $@ tests/fuzz/fuzz_stats.c $(LIB_SRC) $(LIBS)

build/fuzz/fuzz_dump: tests/fuzz/fuzz_dump.c $(LIB_SRC)
	@mkdir -p $(@D)
	$(CC) $(FUZZ_CPPFLAGS) -std=c11 -Wall -Wextra -Werror $(FUZZ_FLAGS) \
		-o $@ tests/fuzz/fuzz_dump.c $(LIB_SRC) $(LIBS)

build/fuzz/fuzz_engine: tests/fuzz/fuzz_engine.c $(LIB_SRC)
	@mkdir -p $(@D)
	$(CC) $(FUZZ_CPPFLAGS) -std=c11 -Wall -Wextra -Werror $(FUZZ_FLAGS) \
		-o $@ tests/fuzz/fuzz_engine.c $(LIB_SRC) $(LIBS)

build/fuzz/fuzz_book: tests/fuzz/fuzz_book.c $(LIB_SRC)
	@mkdir -p $(@D)
	$(CC) $(FUZZ_CPPFLAGS) -std=c11 -Wall -Wextra -Werror $(FUZZ_FLAGS) \
		-o $@ tests/fuzz/fuzz_book.c $(LIB_SRC) $(LIBS)

build/fuzz/fuzz_problems: tests/fuzz/fuzz_problems.c $(LIB_SRC)
	@mkdir -p $(@D)
	$(CC) $(FUZZ_CPPFLAGS) -std=c11 -Wall -Wextra -Werror $(FUZZ_FLAGS) \
		-o $@ tests/fuzz/fuzz_problems.c $(LIB_SRC) $(LIBS)

build/fuzz/fuzz_tags: tests/fuzz/fuzz_tags.c $(LIB_SRC)
	@mkdir -p $(@D)
	$(CC) $(FUZZ_CPPFLAGS) -std=c11 -Wall -Wextra -Werror $(FUZZ_FLAGS) \
		-o $@ tests/fuzz/fuzz_tags.c $(LIB_SRC) $(LIBS)

build/fuzz/fuzz_results: tests/fuzz/fuzz_results.c $(LIB_SRC)
	@mkdir -p $(@D)
	$(CC) $(FUZZ_CPPFLAGS) -std=c11 -Wall -Wextra -Werror $(FUZZ_FLAGS) \
		-o $@ tests/fuzz/fuzz_results.c $(LIB_SRC) $(LIBS)

build/fuzz/fuzz_keys: tests/fuzz/fuzz_keys.c $(LIB_SRC)
	@mkdir -p $(@D)
	$(CC) $(FUZZ_CPPFLAGS) -std=c11 -Wall -Wextra -Werror $(FUZZ_FLAGS) \
		-o $@ tests/fuzz/fuzz_keys.c $(LIB_SRC) $(LIBS)

# The manual pages, made by kifu from its own help texts (cmd/man.c), so
# that --help and the pages never drift: kifu(1) and one page a command.
man: kifu
	@rm -rf build/man && mkdir -p build/man/man1
	./kifu help --man >build/man/man1/kifu.1
	for c in $$(./kifu complete commands); do \
		./kifu help --man $$c >build/man/man1/kifu-$$c.1 || exit 1; \
	done

kifu.pc: api/kifu.pc.in Makefile
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|; s|@VERSION@|$(VERSION)|' \
	    api/kifu.pc.in >$@

install: all kifu.pc man
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig \
		$(DESTDIR)$(INCLUDEDIR)/kifu $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(DATADIR)/bash-completion/completions \
		$(DESTDIR)$(DATADIR)/zsh/site-functions
	install -m 755 kifu $(DESTDIR)$(BINDIR)/kifu
	install -m 644 libkifu.a $(DESTDIR)$(LIBDIR)/libkifu.a
	install -m 755 libkifu.so.$(VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libkifu.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libkifu.so
	install -m 644 include/kifu/kifu.h $(DESTDIR)$(INCLUDEDIR)/kifu/
	install -m 644 kifu.pc $(DESTDIR)$(LIBDIR)/pkgconfig/kifu.pc
	install -m 644 build/man/man1/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 completions/kifu.bash \
		$(DESTDIR)$(DATADIR)/bash-completion/completions/kifu
	install -m 644 completions/_kifu $(DESTDIR)$(DATADIR)/zsh/site-functions/_kifu

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/kifu $(DESTDIR)$(LIBDIR)/libkifu.a \
		$(DESTDIR)$(LIBDIR)/libkifu.so.$(VERSION) \
		$(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libkifu.so \
		$(DESTDIR)$(LIBDIR)/pkgconfig/kifu.pc \
		$(DESTDIR)$(INCLUDEDIR)/kifu/kifu.h \
		$(DESTDIR)$(MANDIR)/man1/kifu.1 $(DESTDIR)$(MANDIR)/man1/kifu-*.1 \
		$(DESTDIR)$(DATADIR)/bash-completion/completions/kifu \
		$(DESTDIR)$(DATADIR)/zsh/site-functions/_kifu
	-rmdir $(DESTDIR)$(INCLUDEDIR)/kifu 2>/dev/null

clean:
	rm -rf build kifu libkifu.a libkifu.so libkifu.so.* kifu.pc

-include $(shell find build -name '*.d' 2>/dev/null)
