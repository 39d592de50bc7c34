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
