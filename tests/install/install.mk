# make install-test (in make test; INSTALL_IN_TEST=no leaves it out): malibu installed into a
# DESTDIR and used from there (tests/install/install_test.py): manual pages and completion
# against the option table, an image built with the installed malibu-image and vecadd on the
# Mali from a clean PATH, the Debian package built, checked by lintian and installed into a
# throwaway root; make uninstall removes every file.
#   INSTALL_TEST_PARTS=docs,image,deb   a part of it
#   GUEST_CACHE=DIR   the .deb cache malibu-image uses (default this tree's guest-images/cache,
#                     the one make image fills: nothing is downloaded twice)
INSTALL_IN_TEST ?= yes
INSTALL_TEST_PARTS ?= docs,image,deb
INSTALL_TEST_DIR := $(B)/install-test
.PHONY: install-test
ifeq ($(INSTALL_IN_TEST),yes)
TEST_TARGETS += install-test
endif

install-test: $$(INSTALL_BINS) $(B)/man/.stamp $(B)/completion/malibu
	@echo "== install: make install DESTDIR=$(INSTALL_TEST_DIR)/root, then used from there"
	rm -rf $(INSTALL_TEST_DIR)/root
	$(MAKE) --no-print-directory install DESTDIR=$(abspath $(INSTALL_TEST_DIR))/root PREFIX=/usr/local
	GUEST_CACHE=$(abspath $(or $(GUEST_CACHE),$(GI_CACHE))) \
	    $(PYTHON) tests/install/install_test.py $(CURDIR) $(INSTALL_TEST_DIR) --parts $(INSTALL_TEST_PARTS)
	$(MAKE) --no-print-directory uninstall DESTDIR=$(abspath $(INSTALL_TEST_DIR))/root PREFIX=/usr/local
	@left=$$(find $(INSTALL_TEST_DIR)/root ! -type d); \
	    if [ -n "$$left" ]; then echo "FAIL: make uninstall left $$left"; exit 1; fi; \
	    echo "ok: make uninstall removed every file it installed"
