# SPDX-License-Identifier: GPL-2.0
#
# bkl-audit.  The targets a newcomer needs:
#   make            build ./bkl (after `make setup`'s packages and libsparse)
#   make setup      apt-get what the project needs, build libsparse (idempotent)
#   make audit      the main job: set up, prepare the tree, audit, report
#   make test       every fast test; ends with "N passed, N failed"
#   make check      the build check: every .c file the series patches compiled
#                   with Kbuild, allmodconfig with the BKL on, then off
#                   (`bkl tree --build`); fails when one does not compile
#   make qemu-test  every converted driver booted in QEMU, before and after;
#                   then the whole series, its end too: who takes the BKL
#   make bench      the slow whole-tree runs and timings; never fails on time
#
# Everything big lives in $(BKL_CACHE), outside the repository.

BKL_CACHE ?= $(HOME)/.cache/bkl-audit
export BKL_CACHE

SPARSE_DIR := $(BKL_CACHE)/sparse/sparse-0.6.4
SPARSE_LIB := $(SPARSE_DIR)/libsparse-bkl.a

CC ?= gcc
CFLAGS ?= -O2 -g
BKL_CFLAGS := $(CFLAGS) -std=gnu11 -Wall -Wextra -Wno-unused-parameter \
	-Wno-sign-compare -Wno-missing-field-initializers -I. -I$(SPARSE_DIR) -MMD -MP
LIBS := $(SPARSE_LIB) -lsqlite3 -lmicrohttpd -lpthread

SRCS := bkl.c $(wildcard lib/*.c db/*.c ktree/*.c kbuild/*.c analyzer/*.c audit/*.c \
	qemu/*.c campaign/*.c report/*.c web/*.c builtin/*.c)
# Built into the binary: the schema migrations (and web assets, later).
SCHEMA := $(sort $(wildcard db/schema/*.sql))
WEB_STATIC := $(sort $(wildcard web/static/*))
PROFILES := $(sort $(wildcard analyzer/profiles/*.lock analyzer/profiles/*.kernel))
GEN := db/schema-files.c web/assets.c analyzer/profiles-file.c
OBJS := $(filter-out $(GEN:.c=.o),$(SRCS:.c=.o)) $(GEN:.c=.o)

all: bkl

$(SPARSE_LIB):
	scripts/setup.sh

setup:
	scripts/setup.sh

bkl: $(SPARSE_LIB) $(OBJS)
	$(CC) $(BKL_CFLAGS) -o $@ $(OBJS) $(LIBS)

db/schema-files.c: $(SCHEMA) scripts/embed.sh
	scripts/embed.sh db_schema_files $(SCHEMA) >$@

analyzer/profiles-file.c: $(PROFILES) scripts/embed.sh
	scripts/embed.sh analyzer_profiles_files $(PROFILES) >$@.tmp && mv $@.tmp $@

web/assets.c: $(WEB_STATIC) scripts/embed.sh
	scripts/embed.sh web_static_files $(WEB_STATIC) >$@.tmp && mv $@.tmp $@

%.o: %.c $(SPARSE_LIB)
	$(CC) $(BKL_CFLAGS) -c -o $@ $<

test: setup bkl
	t/run-tests.sh

audit: setup bkl
	./bkl tree
	./bkl audit
	./bkl report
	@echo "the database: $${BKL_DB:-$(BKL_CACHE)/bkl.db}; the dashboard: ./bkl serve (http://127.0.0.1:8080/)"

check: setup bkl
	./bkl tree --build -j$(or $(BKL_JOBS),2)

qemu-test: setup bkl
	./bkl test --all --both
	./bkl qemu --config end

bench: setup bkl
	scripts/bench-web.sh
	scripts/bench-analyzer.sh
	scripts/bench-audit.sh
	scripts/bench-incremental.sh
	scripts/bench-qemu.sh

clean:
	rm -f bkl $(OBJS) $(OBJS:.o=.d) $(GEN)
	rm -rf t/trash*

.PHONY: all setup test check audit qemu-test bench clean
-include $(OBJS:.o=.d)
