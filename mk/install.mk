# Installing malibu (docs/build.md#installing):
#   make install / make uninstall   PREFIX (default /usr/local), DESTDIR (a staging root)
#   $(B)/gen/malibu_version.h       the version (the file VERSION) and the git commit (git describe,
#                                   when built in a git work tree; empty otherwise) of --version
#   $(B)/man/*.1                    the manual pages: malibu's OPTIONS from `malibu --help-man`
#                                   (the option table), the others from their --help
#   $(B)/completion/malibu          the bash completion: `malibu --help-completion` (the table)
#                                   + tools/completion/malibu.bash
MALIBU_VERSION := $(shell cat VERSION)
# only this tree's own repository (an unpacked tarball inside another repository has no commit)
MALIBU_GIT := $(shell [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$(CURDIR)" ] && \
                      git describe --always --dirty 2>/dev/null)

# rewritten only when the version or the commit changed, so that nothing else rebuilds
$(B)/gen/malibu_version.h: FORCE
	@mkdir -p $(dir $@)
	@printf '#define MALIBU_VERSION "%s"\n#define MALIBU_GIT "%s"\n' '$(MALIBU_VERSION)' '$(MALIBU_GIT)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
$(B)/sysobj/emu/system/version.o: $(B)/gen/malibu_version.h
$(B)/sysobj/emu/system/version.o: SYS_CFLAGS += $(SDL_CFLAGS)

# malibu-image (tools/malibu-image.py): this copy uses the source tree's guest-images/, the installed
# one share/malibu/guest-images
$(B)/malibu-image: tools/malibu-image.py
	@mkdir -p $(dir $@)
	sed 's|@SOURCE_GUEST_IMAGES@|$(CURDIR)/guest-images|' $< > $@
	chmod +x $@
PROGRAMS += $(B)/malibu-image

# ---- manual pages and completion ------------------------------------------------------------
# The commands installed: every program named malibu or malibu-* (malibu-sweep too, once it is
# one, or a script tools/malibu-sweep).  Deferred: later fragments add programs.
INSTALL_BINS = $(filter $(B)/malibu $(B)/malibu-%,$(PROGRAMS)) \
               $(if $(filter $(B)/malibu-sweep,$(PROGRAMS)),,$(wildcard tools/malibu-sweep))
# a script tool run from tools/ (malibu-sweep) goes to share/malibu/tools with its Python package
# (tools/malibu_sweep/), and bin/ gets a two-line script that runs it there
TOOL_PACKAGES = $(wildcard $(subst -,_,$(filter tools/%,$(INSTALL_BINS))))

# malibu(1): tools/man/malibu.1.in with the OPTIONS of the table; the others from their --help
$(B)/man/.stamp: $$(INSTALL_BINS) tools/man/malibu.1.in tools/man/help2man.py tools/man/descriptions VERSION
	@rm -rf $(B)/man && mkdir -p $(B)/man
	$(B)/malibu --help-man > $(B)/man/options.roff
	sed -e 's/@VERSION@/$(MALIBU_VERSION)/' -e '/^@OPTIONS@$$/{r $(B)/man/options.roff' -e 'd}' \
	    tools/man/malibu.1.in > $(B)/man/malibu.1
	@rm $(B)/man/options.roff
	set -e; for p in $(filter-out $(B)/malibu,$(INSTALL_BINS)); do \
	    n=$$(basename $$p); $$p --help | $(PYTHON) tools/man/help2man.py $$n $(MALIBU_VERSION) > $(B)/man/$$n.1; \
	done
	@touch $@

# bash completion: malibu's table, the functions, then every other command installed (the list
# comes from PROGRAMS, defined in mk/*.mk).  No FORCE: a target that must run a recipe at every
# make waits, under make -j, until every goal after it has started (make test ran install-test
# last of all so).
$(B)/completion/malibu: $(B)/malibu tools/completion/malibu.bash $(wildcard mk/*.mk)
	@mkdir -p $(dir $@)
	@{ $(B)/malibu --help-completion && cat tools/completion/malibu.bash && \
	   echo "complete -F _malibu_tool $(sort $(filter-out malibu malibu-image,$(notdir $(INSTALL_BINS))))"; } > $@.tmp
	@mv $@.tmp $@; echo "completion: $@"

.PHONY: man completion
man: $(B)/man/.stamp
completion: $(B)/completion/malibu
# (not in a sanitizer build: LeakSanitizer's exit drops a --help printed into a pipe)
ifneq ($(SAN),1)
all: man completion
endif

# ---- make install / uninstall ---------------------------------------------------------------
PREFIX ?= /usr/local
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share/malibu
MANDIR = $(PREFIX)/share/man/man1
COMPLETIONDIR = $(PREFIX)/share/bash-completion/completions
INSTALL ?= install
# what the image build needs (malibu-image): fetch, build.py and their modules, the package lists
# and locks, the guests' init programs, the samples' sources (a packages.local of this tree stays
# here: it is one user's)
GI_SHARE := $(sort $(wildcard guest-images/README.md guest-images/*.py guest-images/fetch guest-images/packages.list \
                              guest-images/packages*.lock guest-images/init/* guest-images/apps/* guest-images/tools/*))

.PHONY: install uninstall
install: $$(INSTALL_BINS) $(B)/man/.stamp $(B)/completion/malibu
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(COMPLETIONDIR)
	set -e; for p in $(INSTALL_BINS); do \
	    n=$$(basename $$p); \
	    if [ $$n = malibu-image ]; then \
	        sed 's|@SOURCE_GUEST_IMAGES@||' tools/malibu-image.py > $(DESTDIR)$(BINDIR)/$$n.tmp; \
	        chmod 755 $(DESTDIR)$(BINDIR)/$$n.tmp; mv $(DESTDIR)$(BINDIR)/$$n.tmp $(DESTDIR)$(BINDIR)/$$n; \
	    elif [ $$p = tools/$$n ]; then \
	        $(INSTALL) -d $(DESTDIR)$(DATADIR)/tools; \
	        $(INSTALL) -m 755 $$p $(DESTDIR)$(DATADIR)/tools/$$n; \
	        printf '#!/bin/sh\n# %s and its modules are in share/malibu/tools (make install)\nexec "$$(dirname "$$(readlink -f "$$0")")/../share/malibu/tools/%s" "$$@"\n' \
	            $$n $$n > $(DESTDIR)$(BINDIR)/$$n; \
	        chmod 755 $(DESTDIR)$(BINDIR)/$$n; \
	    else \
	        $(INSTALL) -m 755 $$p $(DESTDIR)$(BINDIR)/$$n; \
	    fi; \
	    $(INSTALL) -m 644 $(B)/man/$$n.1 $(DESTDIR)$(MANDIR)/$$n.1; \
	    [ $$n = malibu ] || ln -sf malibu $(DESTDIR)$(COMPLETIONDIR)/$$n; \
	done
	$(INSTALL) -m 644 $(B)/completion/malibu $(DESTDIR)$(COMPLETIONDIR)/malibu
	set -e; for d in $(TOOL_PACKAGES); do \
	    $(INSTALL) -d $(DESTDIR)$(DATADIR)/tools/$$(basename $$d); \
	    $(INSTALL) -m 644 $$d/*.py $(DESTDIR)$(DATADIR)/tools/$$(basename $$d); \
	done
	set -e; for f in $(GI_SHARE); do \
	    $(INSTALL) -d $(DESTDIR)$(DATADIR)/$$(dirname $$f); \
	    if [ -x $$f ] || [ "$$(head -c2 $$f)" = '#!' ]; then m=755; else m=644; fi; \
	    $(INSTALL) -m $$m $$f $(DESTDIR)$(DATADIR)/$$f; \
	done

uninstall:
	set -e; for p in $(INSTALL_BINS); do \
	    n=$$(basename $$p); \
	    rm -f $(DESTDIR)$(BINDIR)/$$n $(DESTDIR)$(MANDIR)/$$n.1 $(DESTDIR)$(COMPLETIONDIR)/$$n; \
	done
	rm -rf $(DESTDIR)$(DATADIR)
